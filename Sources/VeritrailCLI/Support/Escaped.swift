import VeritrailKit

/// Text from the log made safe to show on a terminal: a value in the log is whatever someone typed or
/// imported, and a raw ESC, carriage return or bidi override in it could redraw, hide or reorder what the
/// person at the terminal reads. Human output passes every such value through `Escaped.text`;
/// `--json` output is left as the spec gives it (JSON escapes control characters itself).
enum Escaped {
    /// `s` with control characters (C0, DEL, C1) and the bidi controls written as escapes (`escapedText`).
    static func text(_ s: String) -> String { escapedText(s) }
}
