import VeritrailKit

/// JSON laid out for people and for review in a diff: one member or item per line, indented by one space
/// per level, keys in the order given — the layout of the question files the fixture generators write
/// (Python's `json.dump(…, ensure_ascii=False, indent=1)`), so that `check --update` changes only what changed.
enum PrettyJSON {
    static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: "", into: &out)
        return out + "\n"
    }

    private static func write(_ value: JSONValue, indent: String, into out: inout String) {
        let inner = indent + " "
        switch value {
        case .object(let o) where !o.isEmpty:
            out += "{\n"
            for (i, member) in o.members.enumerated() {
                out += inner + canonicalJSONString(.string(member.key)) + ": "
                write(member.value, indent: inner, into: &out)
                out += i + 1 < o.count ? ",\n" : "\n"
            }
            out += indent + "}"
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                write(item, indent: inner, into: &out)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += indent + "]"
        default:
            out += canonicalJSONString(value)
        }
    }
}
