/// The rule a string field obeys (events.md §3, "Common field rules").
///
/// Text fields are trimmed of Unicode White_Space and the log keeps the trimmed value; every other kind
/// is kept exactly as given. Lengths count Unicode scalars.
public enum StringRule: Sendable {
    /// Free text, trimmed, then `min...max` scalars long (a `min` of 0 allows an optional field to be empty).
    case text(min: Int, max: Int)
    /// An identifier of `[A-Za-z0-9._:-]`, 1…`max` characters (scan ids, session ids, event ids).
    case identifier(max: Int)
    /// `^[a-z][a-z0-9._-]{2,31}$`.
    case username
    /// The scanned payload: 1–2048 scalars, not trimmed, with at least one scalar that is not white space.
    case code
    /// An e-mail address: trimmed text of 3–254 scalars with exactly one `@` and text on both sides.
    case email
    /// RFC 4648 base64 with padding, decoding to a number of bytes in `bytes`.
    case base64(bytes: ClosedRange<Int>)
    /// One of a fixed set of words.
    case oneOf([String])

    /// Checks `raw` and returns the value the log keeps, or the broken rule in words.
    public func apply(to raw: String) -> Result<String, RuleText> {
        switch self {
        case let .text(min, max):
            let value = raw.trimmingUnicodeWhiteSpace()
            let length = value.scalarCount(atMost: max)
            if length < min { return .failure(RuleText("must not be empty")) }
            if length > max { return .failure(RuleText("must be at most \(max) characters, got \(length)")) }
            return .success(value)
        case let .identifier(max):
            guard Self.isIdentifier(raw, max: max) else {
                return .failure(RuleText("must be 1–\(max) characters of A–Z a–z 0–9 . _ : -, got \(quoted(raw))"))
            }
            return .success(raw)
        case .username:
            guard Self.isUsername(raw) else {
                return .failure(RuleText("must be a username (a lower-case letter, then 2–31 of a–z 0–9 . _ -), got \(quoted(raw))"))
            }
            return .success(raw)
        case .code:
            let length = raw.scalarCount(atMost: 2048)
            guard length >= 1, raw.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
                return .failure(RuleText("must contain a character that is not white space"))
            }
            guard length <= 2048 else { return .failure(RuleText("must be at most 2048 characters, got \(length)")) }
            return .success(raw)
        case .email:
            let value = raw.trimmingUnicodeWhiteSpace()
            let length = value.unicodeScalars.count
            guard (3...254).contains(length) else {
                return .failure(RuleText("must be 3–254 characters, got \(length)"))
            }
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                return .failure(RuleText("must have exactly one @ with text on both sides, got \(quoted(value))"))
            }
            return .success(value)
        case let .base64(bytes):
            guard let count = Base64.decodedCount(raw) else {
                return .failure(RuleText("must be standard base64 with = padding"))
            }
            guard bytes.contains(count) else {
                let want = bytes.lowerBound == bytes.upperBound ? "\(bytes.lowerBound)" : "\(bytes.lowerBound)–\(bytes.upperBound)"
                return .failure(RuleText("must decode to \(want) bytes, got \(count)"))
            }
            return .success(raw)
        case let .oneOf(words):
            guard words.contains(raw) else { return .failure(RuleText("must be \(listing(words)), got \(quoted(raw))")) }
            return .success(raw)
        }
    }

    static func isIdentifier(_ s: String, max: Int) -> Bool {
        let u = s.utf8
        guard !u.isEmpty, u.count <= max else { return false }
        return u.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                || b == 0x2E || b == 0x5F || b == 0x3A || b == 0x2D
        }
    }

    static func isUsername(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { u in
            guard u.count >= 3, u.count <= 32, u[0] >= 0x61, u[0] <= 0x7A else { return false }
            return u.dropFirst().allSatisfy { b in
                (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x5F || b == 0x2D
            }
        }
    }
}

/// The words of a broken rule, e.g. `must be "authentic" or "counterfeit", got "fake"`.
public struct RuleText: Error, Equatable, Sendable {
    public var text: String
    public init(_ text: String) { self.text = text }
}

/// A value quoted for an error message, as JSON would write it, and cut short when long.
func quoted(_ s: String) -> String { "\"" + escapedForMessage(s, limit: 40, quotes: true) + "\"" }

/// Text from the input as an error message shows it (a key, a number's spelling): control characters and
/// bidi controls escaped (`escapedText`, so that it can not move a terminal's cursor, forge a second line or
/// reorder what is read), and cut after `limit` characters with "…" (a 10 MB key gives a short message). With
/// `quotes`, `"` and `\` are escaped too, for text shown between quotes.
public func escapedForMessage(_ s: String, limit: Int = 80, quotes: Bool = false) -> String {
    let shown = s.unicodeScalars.count > limit ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(limit))) + "…" : s
    var out = ""
    for scalar in shown.unicodeScalars {
        switch scalar {
        case "\"" where quotes: out += "\\\""
        case "\\" where quotes: out += "\\\\"
        default: appendEscaped(scalar, to: &out)
        }
    }
    return out
}

/// `s` made safe to show on a terminal or in a log line: control characters (C0, DEL, C1) and the bidi controls
/// written as escapes, `\n`, `\t`, `\r`, and `\u001b` (four hex digits) for the others; any other text as it is.
/// A string without any is returned as is.
public func escapedText(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: isShownEscaped) else { return s }
    var out = ""
    for scalar in s.unicodeScalars { appendEscaped(scalar, to: &out) }
    return out
}

/// Whether a scalar is written as an escape: a control character, which could move a terminal's cursor or start
/// a line, or a bidi control, which could reorder the text around it.
private func isShownEscaped(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}

private func appendEscaped(_ scalar: Unicode.Scalar, to out: inout String) {
    guard isShownEscaped(scalar) else { out.unicodeScalars.append(scalar); return }
    switch scalar {
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    case "\r": out += "\\r"
    default: out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
    }
}

/// `"a", "b" or "c"`.
func listing(_ words: [String]) -> String {
    let q = words.map { "\"\($0)\"" }
    guard q.count > 1 else { return q.first ?? "" }
    return q.dropLast().joined(separator: ", ") + " or " + q[q.count - 1]
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    /// A length to check against `1...limit`: the number of Unicode scalars when the string could be longer
    /// than `limit`; otherwise its UTF-8 length, which is within the limit too and zero exactly when the
    /// string is empty. Counting scalars is then skipped for the short text that most fields hold.
    func scalarCount(atMost limit: Int) -> Int {
        let bytes = utf8.count
        return bytes <= limit ? bytes : unicodeScalars.count
    }

    /// This string without leading and trailing Unicode White_Space (events.md: text fields are trimmed).
    public func trimmingUnicodeWhiteSpace() -> String {
        // Fast path: a printable ASCII first and last byte means there is nothing to trim.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return self
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }
}
