public import Domain
/// Writes a payload in the log's stored form: positional, in key order, with no key names.
///
/// Strings are a LEB128 length and their UTF-8 bytes; integers zig-zag LEB128; doubles their 8 IEEE bytes;
/// choices one byte (their place in `Choice.choices`); an optional is a presence byte, then the value.
/// The form is read back by `BinaryFieldSource`, which must ask for the same fields in the same order.
public struct BinaryFieldSink: FieldSink {
    public var bytes: [UInt8]

    public init(bytes: [UInt8] = []) { self.bytes = bytes }

    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    public mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func raw(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func fixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ key: StaticString, _ value: String) { raw(value) }

    public mutating func optionalString(_ key: StaticString, _ value: String?) {
        guard let value else { bytes.append(0); return }
        bytes.append(1); raw(value)
    }

    public mutating func integer(_ key: StaticString, _ value: Int64) { signed(value) }

    public mutating func optionalInteger(_ key: StaticString, _ value: Int64?) {
        guard let value else { bytes.append(0); return }
        bytes.append(1); signed(value)
    }

    public mutating func boolean(_ key: StaticString, _ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func optionalBoolean(_ key: StaticString, _ value: Bool?) {
        bytes.append(value.map { $0 ? 2 : 1 } ?? 0)
    }

    public mutating func number(_ key: StaticString, _ value: Double) { fixed64(value.bitPattern) }

    public mutating func choice<C: Choice>(_ key: StaticString, _ value: C) { bytes.append(value.storedIndex) }

    public mutating func optionalChoice<C: Choice>(_ key: StaticString, _ value: C?) {
        bytes.append(value.map { $0.storedIndex + 1 } ?? 0)
    }

    public mutating func date(_ key: StaticString, _ value: CalendarDate) { signed(Int64(value.dayNumber)) }
    public mutating func month(_ key: StaticString, _ value: Month) { signed(Int64(value.index)) }
    public mutating func time(_ key: StaticString, _ value: ClockTime) { signed(Int64(value.minutes)) }

    public mutating func object(_ key: StaticString, _ body: (inout BinaryFieldSink) -> Void) { body(&self) }

    public mutating func optionalObject<T>(_ key: StaticString, _ value: T?, _ body: (inout BinaryFieldSink, T) -> Void) {
        guard let value else { bytes.append(0); return }
        bytes.append(1)
        body(&self, value)
    }
}
