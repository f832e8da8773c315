/// A parsed JSON value.
///
/// Equality is **canonical equality**: two values are equal exactly when their RFC 8785
/// canonical forms (`canonicalJSON(_:)`) are equal. So object member order and number
/// spelling (`1`, `1.0`, `1e0`) do not matter, while strings are compared by their Unicode
/// scalars without normalisation (`"é"` and `"e\u{301}"` differ), unlike Swift's `String ==`.
/// This is what the log's idempotent-retry check needs: "the same data whatever the key
/// order or number spelling".
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): sameScalars(a, b)
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }
}

/// Whether two strings hold the same Unicode scalars (byte-identical UTF-8).
///
/// JSON compares keys and strings by code units; Swift's `==` compares by canonical
/// equivalence, which would merge keys that JSON, RFC 8785 and the spec keep apart.
@inline(__always)
func sameScalars(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
}
