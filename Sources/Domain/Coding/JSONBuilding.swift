public import StrictJSON

/// Small helpers to build JSON answers: the projections' answers, and the small documents of the library
/// and the command line.
public enum J {
    /// An object of `pairs`, leaving out the members whose value is nil (optional fields are omitted;
    /// a field marked `|null` in the spec is given as `.null` explicitly).
    public static func object(_ pairs: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        .object(JSONObject(pairs.compactMap { k, v in v.map { (key: k, value: $0) } })!)
    }

    public static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs.map { (key: $0.0, value: $0.1) })!)
    }

    public static func string(_ s: String) -> JSONValue { .string(s) }
    public static func string(_ s: String?) -> JSONValue? { s.map(JSONValue.string) }
    public static func int(_ i: some BinaryInteger) -> JSONValue { .number(JSONNumber(Int64(i))) }
    public static func bool(_ b: Bool) -> JSONValue { .bool(b) }
    public static func time(_ t: Timestamp) -> JSONValue { .string(t.description) }
    public static func time(_ t: Timestamp?) -> JSONValue? { t.map(time) }
    public static func timeOrNull(_ t: Timestamp?) -> JSONValue { t.map(time) ?? .null }
    public static func array(_ values: [JSONValue]) -> JSONValue { .array(values) }

    /// `numerator / denominator` rounded to 4 decimals, half away from zero, from the exact value
    /// (projections.md §0: 1/32 gives 0.0313).
    public static func fraction(_ numerator: Int64, _ denominator: Int64) -> JSONValue {
        guard denominator != 0 else { return int(0) }
        let negative = (numerator < 0) != (denominator < 0)
        let n = numerator.magnitude * 10_000, d = denominator.magnitude
        let rounded = (2 * n + d) / (2 * d)
        let value = Double(rounded) / 10_000
        return .number(JSONNumber(negative ? -value : value)!)
    }

    public static func geo(_ g: Geo) -> JSONValue {
        object(["lat": .number(JSONNumber(g.lat)!), "lng": .number(JSONNumber(g.lng)!)])
    }

    public static func address(_ a: Address) -> JSONValue {
        object(["street": string(a.street), "suite": string(a.suite), "city": string(a.city), "zipcode": string(a.zipcode)])
    }

    public static func company(_ c: Company) -> JSONValue {
        object(["name": string(c.name), "catchPhrase": string(c.catchPhrase), "bs": string(c.bs)])
    }
}
