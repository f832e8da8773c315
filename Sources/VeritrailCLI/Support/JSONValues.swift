import StrictJSON

/// Builders for the small JSON documents the CLI writes itself (the projections build their own).
enum J {
    static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs.map { (key: $0.0, value: $0.1) })!)
    }

    static func string(_ s: String) -> JSONValue { .string(s) }
    static func int(_ i: some BinaryInteger) -> JSONValue { .number(JSONNumber(Int64(i))) }
    static func bool(_ b: Bool) -> JSONValue { .bool(b) }
}
