/// A JSON number: the literal as written, with its integer and double readings decided once
/// at parse time.
///
/// A `JSONNumber` is always finite: the parser refuses literals that overflow a `Double`
/// (`1e400`), and `init?(_: Double)` refuses NaN and the infinities, so every number has a
/// canonical (RFC 8785) form.
public struct JSONNumber: Equatable, Sendable {
    /// The literal exactly as it appeared in the input, e.g. `-0`, `1.50`, `2E+3`.
    public let text: String
    /// True when the literal has neither a fraction nor an exponent (the spec's "JSON integer").
    public let isInteger: Bool
    /// The exact value when the literal is an integer that fits in `Int64`, otherwise nil.
    public let integerValue: Int64?
    /// The nearest `Double` (correctly rounded); `-0` reads as `-0.0`. Always finite.
    public let doubleValue: Double

    init(text: String, isInteger: Bool, integerValue: Int64?, doubleValue: Double) {
        self.text = text
        self.isInteger = isInteger
        self.integerValue = integerValue
        self.doubleValue = doubleValue
    }

    /// The number of an integer literal that `JSONScanner` checked: `-? (0 | [1-9][0-9]*)` of at most 18
    /// digits, which fits in `Int64`. Its readings are the parser's (`-0` reads as `-0.0`).
    init(integerLiteral bytes: UnsafeBufferPointer<UInt8>) {
        let negative = bytes[0] == UInt8(ascii: "-")
        var magnitude: Int64 = 0
        for digit in bytes[(negative ? 1 : 0)...] { magnitude = magnitude * 10 + Int64(digit &- UInt8(ascii: "0")) }
        let value = negative ? -magnitude : magnitude
        self.init(text: String(decoding: bytes, as: UTF8.self), isInteger: true, integerValue: value,
                  doubleValue: negative && value == 0 ? -0.0 : Double(value))
    }

    /// An integer number, for building values to canonicalise.
    public init(_ value: Int64) {
        self.init(text: String(value), isInteger: true, integerValue: value, doubleValue: Double(value))
    }

    /// A number from a double, spelled as ECMAScript would (`48.0` becomes the literal `48`,
    /// an integer); nil for NaN and the infinities, which JSON can't hold.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        let text = ecmaScriptNumberString(value)
        let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }
        self.init(text: text, isInteger: isInteger, integerValue: isInteger ? Int64(text) : nil,
                  doubleValue: value)
    }

    /// The number as RFC 8785 writes it.
    ///
    /// Integer literals are written in plain decimal, exactly (`-0` as `0`), even beyond 2^53:
    /// the spec asks for "integers in plain decimal" and its reference verifier (Python's
    /// `json`) keeps integers exact. Every other number is written by ECMAScript's
    /// Number::toString of its double, as RFC 8785 prescribes.
    public var canonicalText: String {
        if let integerValue { return String(integerValue) }
        if isInteger { return text }
        return ecmaScriptNumberString(doubleValue)
    }

    /// Canonical equality: equal exactly when `canonicalText` is equal, so `1`, `1.0` and
    /// `1e0` are one number, and `0` equals `-0.0`.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if !lhs.isInteger && !rhs.isInteger {
            // Shortest round-trip digits are unique per double, and `==` merges ±0 as "0" does.
            return lhs.doubleValue == rhs.doubleValue
        }
        if let a = lhs.integerValue, let b = rhs.integerValue { return a == b }
        return lhs.canonicalText == rhs.canonicalText
    }
}
