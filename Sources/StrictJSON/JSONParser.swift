// Over 400 lines on purpose: one recursive-descent parser whose byte cursor, scratch buffer and refusals share
// private state; split across files, that state would have to become internal to the module.

/// A strict RFC 8259 parser over raw bytes.
///
/// Strict beyond the RFC where the spec says so: a byte-order mark, a duplicate key in one
/// object, a lone surrogate escape, invalid UTF-8, nesting deeper than `maxDepth` and numbers
/// that overflow a `Double` are refused. White space is space, tab, LF and CR only.
///
/// It works on bytes through an unsafe pointer (no `Character` iteration) and makes each
/// `String` once from a validated UTF-8 slice; strings with escapes are decoded into one
/// reused scratch buffer.
struct JSONParser {
    /// Deepest nesting of arrays and objects accepted; events need 3.
    static let maxDepth = 64

    /// Objects up to this many members are checked for duplicate keys by a linear scan;
    /// larger ones switch to a hash set, so a hostile line can't cost quadratic time.
    private static let linearKeyCheckLimit = 16

    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var position = 0
    private var scratch: [UInt8] = []

    init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// Parses one JSON text filling the whole input (white space around it allowed).
    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            throw JSONSyntaxError(offset: 0, message: "byte-order mark (U+FEFF) is not allowed")
        }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < count {
            throw failure("unexpected \(describe(bytes[position])) after the value")
        }
        return value
    }

    // MARK: Values

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard position < count else { throw failure("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case let byte: throw failure("unexpected \(describe(byte))")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONObject {
        try checkDepth(depth)
        position += 1  // "{"
        skipWhitespace()
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(8)  // the size of most objects in an event: saves regrowth
        if position < count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return JSONObject(uniqueMembers: members)
        }
        var keySet: Set<ScalarKey>? = nil
        while true {
            guard position < count, bytes[position] == UInt8(ascii: "\"") else {
                if !members.isEmpty && position < count && bytes[position] == UInt8(ascii: "}") {
                    throw failure("trailing comma in object")
                }
                throw failure("expected '\"' to begin an object key")
            }
            let keyOffset = position
            let key = try parseString()
            if isDuplicate(key, in: members, keySet: &keySet) {
                throw JSONSyntaxError(offset: keyOffset, message: "duplicate key \(quoted(key))")
            }
            skipWhitespace()
            guard position < count, bytes[position] == UInt8(ascii: ":") else {
                throw failure("expected ':' after object key")
            }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            guard position < count else { throw failure("expected ',' or '}' after object member") }
            switch bytes[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                return JSONObject(uniqueMembers: members)
            default:
                throw failure("expected ',' or '}' after object member")
            }
        }
    }

    /// Whether `key` is already among `members`; records it in `keySet` once that exists.
    private func isDuplicate(
        _ key: String, in members: [(key: String, value: JSONValue)], keySet: inout Set<ScalarKey>?
    ) -> Bool {
        if keySet == nil {
            if members.count < Self.linearKeyCheckLimit {
                return members.contains { sameScalars($0.key, key) }
            }
            keySet = Set(members.map { ScalarKey($0.key) })
        }
        return !keySet!.insert(ScalarKey(key)).inserted
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        try checkDepth(depth)
        position += 1  // "["
        skipWhitespace()
        var elements: [JSONValue] = []
        if position < count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            if !elements.isEmpty && position < count && bytes[position] == UInt8(ascii: "]") {
                throw failure("trailing comma in array")
            }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < count else { throw failure("expected ',' or ']' after array element") }
            switch bytes[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                return elements
            default:
                throw failure("expected ',' or ']' after array element")
            }
        }
    }

    private func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        if depth > Self.maxDepth {
            throw failure("nesting deeper than \(Self.maxDepth) levels")
        }
    }

    private mutating func parseLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let length = literal.utf8CodeUnitCount
        guard count - position >= length,
              (0..<length).allSatisfy({ bytes[position + $0] == literal.utf8Start[$0] })
        else { throw failure("invalid literal, expected '\(literal)'") }
        position += length
    }

    // MARK: Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, accumulating the integer value
    /// on the way so that integers never go through a string-to-number conversion.
    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard position < count, isDigit(bytes[position]) else {
            throw failure("expected a digit after '-'")
        }
        var magnitude: UInt64 = 0
        var overflowed = false
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < count && isDigit(bytes[position]) {
                throw JSONSyntaxError(offset: start, message: "leading zeros are not allowed in numbers")
            }
        } else {
            while position < count && isDigit(bytes[position]) {
                if !overflowed {
                    let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[position] &- 48))
                    magnitude = sum
                    overflowed = o1 || o2
                }
                position += 1
            }
        }
        var isInteger = true
        if position < count && bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            try skipDigits(after: "'.'")
        }
        if position < count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if position < count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                position += 1
            }
            try skipDigits(after: "the exponent mark")
        }
        let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: position - start), as: UTF8.self)

        var integerValue: Int64? = nil
        if isInteger && !overflowed {
            if negative && magnitude <= UInt64(Int64.max) + 1 {
                integerValue = Int64(truncatingIfNeeded: 0 &- magnitude)
            } else if !negative && magnitude <= UInt64(Int64.max) {
                integerValue = Int64(magnitude)
            }
        }
        let doubleValue: Double
        if let integerValue {
            doubleValue = negative && integerValue == 0 ? -0.0 : Double(integerValue)
        } else {
            guard let parsed = Double(text), parsed.isFinite else {
                throw JSONSyntaxError(offset: start, message: "number \(text) is out of the range of a double")
            }
            doubleValue = parsed
        }
        return JSONNumber(text: text, isInteger: isInteger, integerValue: integerValue, doubleValue: doubleValue)
    }

    private mutating func skipDigits(after what: String) throws(JSONSyntaxError) {
        guard position < count, isDigit(bytes[position]) else {
            throw failure("expected a digit after \(what)")
        }
        repeat { position += 1 } while position < count && isDigit(bytes[position])
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote. The common case, no escapes, scans once
    /// and hands the slice to `String` (which validates ASCII quickly); non-ASCII bytes are
    /// validated here first so that the error names the exact offset.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position + 1
        var nonASCII = false
        let index = indexOfStringSpecialByte(bytes, from: start, to: count, nonASCII: &nonASCII)
        guard index < count else { throw JSONSyntaxError(offset: position, message: "unterminated string") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            if nonASCII { try validateUTF8(from: start, to: index) }
            position = index + 1
            return String(decoding: UnsafeBufferPointer(start: bytes + start, count: index - start), as: UTF8.self)
        case UInt8(ascii: "\\"):
            return try parseEscapedString(from: start, firstEscape: index, sawNonASCII: nonASCII)
        case let control:
            throw controlCharacter(control, at: index)
        }
    }

    /// The rest of a string that holds escapes, decoded into `scratch`.
    private mutating func parseEscapedString(
        from start: Int, firstEscape: Int, sawNonASCII: Bool
    ) throws(JSONSyntaxError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: firstEscape - start))
        var nonASCII = sawNonASCII
        var index = firstEscape
        while index < count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                if nonASCII { try validateUTF8(from: start, to: index) }
                position = index + 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index = try decodeEscape(at: index)
            case let control:
                throw controlCharacter(control, at: index)
            }
            let runEnd = indexOfStringSpecialByte(bytes, from: index, to: count, nonASCII: &nonASCII)
            scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + index, count: runEnd - index))
            index = runEnd
        }
        throw JSONSyntaxError(offset: start - 1, message: "unterminated string")
    }

    /// Decodes the escape at `index` (its backslash) into `scratch`; returns the index after it.
    private mutating func decodeEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        guard index + 1 < count else { throw JSONSyntaxError(offset: index, message: "unterminated string") }
        let decoded: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"): return try decodeUnicodeEscape(at: index)
        case let other:
            throw JSONSyntaxError(offset: index, message: "invalid escape '\\\(describeRaw(other))'")
        }
        scratch.append(decoded)
        return index + 2
    }

    /// `\uXXXX`, pairing a high surrogate with the low surrogate escape that must follow it.
    private mutating func decodeUnicodeEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        let unit = try hex4(at: index)
        var scalarValue = UInt32(unit)
        var next = index + 6
        switch unit {
        case 0xDC00...0xDFFF:
            throw JSONSyntaxError(offset: index, message: "lone low surrogate \(escapeText(unit))")
        case 0xD800...0xDBFF:
            let hasLowEscape = next + 1 < count
                && bytes[next] == UInt8(ascii: "\\") && bytes[next + 1] == UInt8(ascii: "u")
            let low = hasLowEscape ? try hex4(at: next) : 0
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONSyntaxError(
                    offset: index, message: "lone high surrogate \(escapeText(unit)) not followed by a low surrogate")
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
        default:
            break
        }
        // Every value left is a scalar: surrogates were paired or refused above.
        appendUTF8(of: scalarValue)
        return next
    }

    /// The four hex digits of the `\u` escape whose backslash is at `index`.
    private func hex4(at index: Int) throws(JSONSyntaxError) -> UInt16 {
        guard index + 6 <= count else {
            throw JSONSyntaxError(offset: index, message: "expected 4 hex digits after '\\u'")
        }
        var value: UInt16 = 0
        for offset in 2..<6 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(offset: index, message: "expected 4 hex digits after '\\u'")
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private mutating func appendUTF8(of scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// RFC 3629 well-formedness of `bytes[from..<to]` (see `firstInvalidUTF8`).
    private func validateUTF8(from: Int, to end: Int) throws(JSONSyntaxError) {
        if let index = firstInvalidUTF8(bytes, from: from, to: end) { throw invalidUTF8(at: index) }
    }

    // MARK: White space and errors

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func failure(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: position, message: message)
    }

    private func invalidUTF8(at index: Int) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: "invalid UTF-8 byte 0x\(hex2(bytes[index])) in string")
    }

    private func controlCharacter(_ byte: UInt8, at index: Int) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: "unescaped control character U+00\(hex2(byte)) in string")
    }

    /// `character 'x'` for printable ASCII, `byte 0xEF` otherwise.
    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "character '\(describeRaw(byte))'" : "byte 0x\(hex2(byte))"
    }

    private func describeRaw(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x\(hex2(byte))"
    }

    private func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }

    private func escapeText(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// The key as it would appear in canonical JSON, for messages.
    private func quoted(_ key: String) -> String {
        var writer = CanonicalJSONWriter(reservingCapacity: key.utf8.count + 2)
        writer.string(key)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Where `bytes[from..<to]` stops being well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, nothing
/// above U+10FFFF, no truncated sequences), or nil when it is; the scanner and the parser share it.
func firstInvalidUTF8(_ bytes: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
    var index = from
    while index < end {
        let lead = bytes[index]
        if lead < 0x80 { index += 1; continue }
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return index
        }
        guard index + length <= end, secondRange.contains(bytes[index + 1]) else { return index }
        for continuation in 2..<length where bytes[index + continuation] & 0xC0 != 0x80 { return index }
        index += length
    }
    return nil
}
