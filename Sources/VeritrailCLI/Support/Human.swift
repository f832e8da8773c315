import StrictJSON

/// The human form of an answer: the same facts as the JSON, laid out for reading.
enum Human {
    /// A generic layout: one `key: value` per line, nested objects indented, lists as numbered items.
    static func render(_ value: JSONValue) -> String {
        var lines: [String] = []
        emit(value, indent: "", into: &lines)
        return lines.joined(separator: "\n")
    }

    private static func emit(_ value: JSONValue, indent: String, into lines: inout [String]) {
        switch value {
        case .object(let o):
            for (key, v) in o.members {
                if isScalar(v) {
                    lines.append("\(indent)\(key): \(scalar(v))")
                } else {
                    lines.append("\(indent)\(key):")
                    emit(v, indent: indent + "  ", into: &lines)
                }
            }
        case .array(let items):
            if items.isEmpty { lines.append("\(indent)(none)") }
            for (i, item) in items.enumerated() {
                if isScalar(item) {
                    lines.append("\(indent)- \(scalar(item))")
                } else {
                    lines.append("\(indent)\(i + 1).")
                    emit(item, indent: indent + "   ", into: &lines)
                }
            }
        default:
            lines.append(indent + scalar(value))
        }
    }

    private static func isScalar(_ v: JSONValue) -> Bool {
        switch v {
        case .object, .array: false
        default: true
        }
    }

    static func scalar(_ v: JSONValue) -> String {
        switch v {
        case .null: "—"
        case .bool(let b): b ? "yes" : "no"
        case .number(let n): n.canonicalText
        case .string(let s): s
        case .object, .array: ""
        }
    }
}
