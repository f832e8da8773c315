/// A streaming writer of RFC 8785 (JCS) canonical JSON into a byte buffer.
///
/// Made for code that emits known shapes (an event's out form, a hash-chain input) with
/// object keys **already in canonical order**: the writer neither sorts nor checks keys, nor
/// checks that begin/end calls pair up. It only places the commas, which needs no stack: a
/// comma goes before a key or value exactly when something was written at the same level
/// since the last `{`, `[` or key. To canonicalise an arbitrary parsed value, which may need
/// sorting, use `value(_:)` or `canonicalJSON(_:)`.
///
/// Strings get only the escapes JCS allows: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other
/// controls below U+0020 as `\u00xx` in lower-case hex; DEL and all non-ASCII are written as
/// themselves in UTF-8.
///
/// Reuse one writer across events (`continueObject()`) to keep its buffer's capacity.
public struct CanonicalJSONWriter: Sendable {
    public private(set) var bytes: [UInt8]
    private var needsComma = false

    public init(reservingCapacity capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the output, keeping its capacity, and goes on as within an object whose start was written
    /// elsewhere: the next key is written after a comma (the rest of an event's out form after its head).
    public mutating func continueObject() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = true
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// The next member's key; its value follows with one of the value methods. A key given in the code
    /// is a field name of printable ASCII without `"` or `\`, which JSON writes as it is: it is not scanned
    /// for characters to escape.
    public mutating func key(_ key: StaticString) {
        separate()
        assert(key.withUTF8Buffer { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } },
               "a field name written as it is")
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// The next member's key; its value follows with one of the value methods.
    public mutating func key(_ key: String) {
        separate()
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// A string value whose text `body` appends as UTF-8, known to need no escaping (no control
    /// characters, `"` or `\`), such as a timestamp: written without a `String` made of it.
    public mutating func plainString(_ body: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        body(&bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func int(_ value: Int64) {
        separate()
        appendDecimal(value)
        needsComma = true
    }

    /// Writes a double as ECMAScript's Number::toString does (`48.0` as `48`, `1e-7`);
    /// throws for NaN and the infinities, which JSON can't express.
    public mutating func double(_ value: Double) throws(NonFiniteNumberError) {
        guard value.isFinite else { throw NonFiniteNumberError(value: value) }
        separate()
        appendECMAScriptNumber(value, to: &bytes)
        needsComma = true
    }

    /// Writes a parsed number in its canonical form (`JSONNumber.canonicalText`).
    public mutating func number(_ value: JSONNumber) {
        separate()
        if let integer = value.integerValue {
            appendDecimal(integer)
        } else if value.isInteger {
            bytes.append(contentsOf: value.text.utf8)
        } else {
            appendECMAScriptNumber(value.doubleValue, to: &bytes)
        }
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendDecimal(_ value: Int64) {
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    private mutating func appendQuoted(_ value: String) {
        var value = value
        value.withUTF8 { appendQuoted($0) }
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        CanonicalJSONWriter.appendString(UnsafeRawBufferPointer(utf8), to: &bytes)
    }

    /// Appends `utf8` (valid UTF-8) to `bytes` as a JSON string with only the escapes RFC 8785 requires,
    /// copying the runs that need no escape in one go. For writers of canonical JSON that do not go
    /// through this type (the transcoder of stored events).
    public static func appendString(_ utf8: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        if let base = utf8.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            var runStart = 0
            var nonASCII = false  // unused: the text is valid UTF-8 already
            while true {
                let index = indexOfStringSpecialByte(base, from: runStart, to: utf8.count, nonASCII: &nonASCII)
                bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                if index == utf8.count { break }
                appendEscape(of: base[index], to: &bytes)
                runStart = index + 1
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0xF)])
        }
    }
}
