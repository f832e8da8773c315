/// Text from the log made safe to show on a terminal: a value in the log is whatever someone typed or
/// imported, and a raw ESC, carriage return or bidi override in it could redraw, hide or reorder what the
/// person at the terminal reads. Human output passes every such value through `Escaped.text`;
/// `--json` output is left as the spec gives it (JSON escapes control characters itself).
enum Escaped {
    /// `s` with control characters (C0, DEL, C1) and the bidi controls written as escapes: `\n`, `\t`, `\r`,
    /// and `\u001b` (four hex digits) for the others. A string without any is returned as is.
    static func text(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            guard needsEscape(u) else { out.unicodeScalars.append(u); continue }
            switch u {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return out
    }

    private static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
