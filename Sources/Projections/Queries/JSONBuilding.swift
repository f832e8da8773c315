import Domain
import StrictJSON

/// Small helpers to build the answers of projections.md as JSON values.
enum J {
    /// An object of `pairs`, leaving out the members whose value is nil (optional fields are omitted;
    /// a field marked `|null` in the spec is given as `.null` explicitly).
    static func object(_ pairs: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        .object(JSONObject(pairs.compactMap { k, v in v.map { (key: k, value: $0) } })!)
    }

    static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs.map { (key: $0.0, value: $0.1) })!)
    }

    static func string(_ s: String) -> JSONValue { .string(s) }
    static func string(_ s: String?) -> JSONValue? { s.map(JSONValue.string) }
    static func int(_ i: some BinaryInteger) -> JSONValue { .number(JSONNumber(Int64(i))) }
    static func bool(_ b: Bool) -> JSONValue { .bool(b) }
    static func time(_ t: Timestamp) -> JSONValue { .string(t.description) }
    static func time(_ t: Timestamp?) -> JSONValue? { t.map(time) }
    static func timeOrNull(_ t: Timestamp?) -> JSONValue { t.map(time) ?? .null }
    static func array(_ values: [JSONValue]) -> JSONValue { .array(values) }

    /// `numerator / denominator` rounded to 4 decimals, half away from zero, from the exact value
    /// (projections.md §0: 1/32 gives 0.0313).
    static func fraction(_ numerator: Int64, _ denominator: Int64) -> JSONValue {
        guard denominator != 0 else { return int(0) }
        let negative = (numerator < 0) != (denominator < 0)
        let n = numerator.magnitude * 10_000, d = denominator.magnitude
        let rounded = (2 * n + d) / (2 * d)
        let value = Double(rounded) / 10_000
        return .number(JSONNumber(negative ? -value : value)!)
    }

    static func geo(_ g: Geo) -> JSONValue {
        object(["lat": .number(JSONNumber(g.lat)!), "lng": .number(JSONNumber(g.lng)!)])
    }

    static func address(_ a: Address) -> JSONValue {
        object(["street": string(a.street), "suite": string(a.suite), "city": string(a.city), "zipcode": string(a.zipcode)])
    }

    static func company(_ c: Company) -> JSONValue {
        object(["name": string(c.name), "catchPhrase": string(c.catchPhrase), "bs": string(c.bs)])
    }
}

/// Code-point order of two strings (UTF-8 byte order is code-point order).
func codePointPrecedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
