public import Domain
/// Reads a payload back from the log's stored form (see `BinaryFieldSink`).
///
/// The bytes were checked when they were written, so no rule is applied again; a truncated or malformed
/// record (a damaged store) is reported as a `FieldError` on the field where reading failed.
public struct BinaryFieldSource: FieldSource {
    public let bytes: UnsafeRawBufferPointer
    public var position: Int

    public init(bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    private func damaged(_ key: StaticString) -> FieldError {
        FieldError(path: key.description, rule: "stored record is damaged")
    }

    public mutating func byte(_ key: StaticString) throws(FieldError) -> UInt8 {
        guard position < bytes.count else { throw damaged(key) }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func varint(_ key: StaticString) throws(FieldError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte(key)
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            guard shift < 64 else { throw damaged(key) }
        }
    }

    public mutating func signed(_ key: StaticString) throws(FieldError) -> Int64 {
        let v = try varint(key)
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    public mutating func fixed64(_ key: StaticString) throws(FieldError) -> UInt64 {
        guard position + 8 <= bytes.count else { throw damaged(key) }
        defer { position += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    public mutating func raw(_ key: StaticString) throws(FieldError) -> String {
        let count = Int(try varint(key))
        guard count <= bytes.count - position else { throw damaged(key) }
        defer { position += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)]), as: UTF8.self)
    }

    /// The UTF-8 bytes of the next string, without making a `String`.
    public mutating func rawBytes(_ key: StaticString) throws(FieldError) -> UnsafeRawBufferPointer {
        try slice(key, count: Int(try varint(key)))
    }

    /// The next `count` bytes, without copying.
    public mutating func slice(_ key: StaticString, count: Int) throws(FieldError) -> UnsafeRawBufferPointer {
        guard count <= bytes.count - position else { throw damaged(key) }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
    }

    public mutating func string(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String { try raw(key) }

    public mutating func optionalString(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String? {
        try byte(key) == 0 ? nil : try raw(key)
    }

    public mutating func integer(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64 { try signed(key) }

    public mutating func optionalInteger(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64? {
        try byte(key) == 0 ? nil : try signed(key)
    }

    public mutating func boolean(_ key: StaticString) throws(FieldError) -> Bool { try byte(key) != 0 }

    public mutating func optionalBoolean(_ key: StaticString) throws(FieldError) -> Bool? {
        switch try byte(key) {
        case 0: nil
        case 1: false
        default: true
        }
    }

    public mutating func number(_ key: StaticString, _ range: ClosedRange<Double>) throws(FieldError) -> Double {
        let d = Double(bitPattern: try fixed64(key))
        guard d.isFinite else { throw damaged(key) }
        return d
    }

    public mutating func choice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C {
        let i = Int(try byte(key))
        guard i < C.choices.count else { throw damaged(key) }
        return C.choices[i]
    }

    public mutating func optionalChoice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C? {
        let i = Int(try byte(key))
        guard i > 0 else { return nil }
        guard i <= C.choices.count else { throw damaged(key) }
        return C.choices[i - 1]
    }

    public mutating func date(_ key: StaticString) throws(FieldError) -> CalendarDate { CalendarDate(dayNumber: Int(try signed(key))) }
    public mutating func month(_ key: StaticString) throws(FieldError) -> Month { Month(index: Int(try signed(key))) }
    public mutating func time(_ key: StaticString) throws(FieldError) -> ClockTime { ClockTime(minutes: Int(try signed(key))) }

    public mutating func object<T>(_ key: StaticString, _ body: (inout BinaryFieldSource) throws(FieldError) -> T) throws(FieldError) -> T {
        try body(&self)
    }

    public mutating func optionalObject<T>(_ key: StaticString, _ body: (inout BinaryFieldSource) throws(FieldError) -> T) throws(FieldError) -> T? {
        try byte(key) == 0 ? nil : try body(&self)
    }

    public mutating func has(_ key: StaticString) -> Bool { false }
}
