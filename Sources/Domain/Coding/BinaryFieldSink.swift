/// Writes a payload in the log's stored form: positional, in key order, with no key names.
///
/// Strings are a LEB128 length and their UTF-8 bytes; integers zig-zag LEB128; doubles their 8 IEEE bytes;
/// choices one byte (their place in `Choice.choices`); an optional is a presence byte, then the value.
/// The form is read back by `BinaryFieldSource`, which must ask for the same fields in the same order.
struct BinaryFieldSink: FieldSink {
    var bytes: [UInt8]

    init(bytes: [UInt8] = []) { self.bytes = bytes }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func raw(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func fixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ key: StaticString, _ value: String) { raw(value) }

    mutating func optionalString(_ key: StaticString, _ value: String?) {
        guard let value else { bytes.append(0); return }
        bytes.append(1); raw(value)
    }

    mutating func integer(_ key: StaticString, _ value: Int64) { signed(value) }

    mutating func optionalInteger(_ key: StaticString, _ value: Int64?) {
        guard let value else { bytes.append(0); return }
        bytes.append(1); signed(value)
    }

    mutating func boolean(_ key: StaticString, _ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func optionalBoolean(_ key: StaticString, _ value: Bool?) {
        bytes.append(value.map { $0 ? 2 : 1 } ?? 0)
    }

    mutating func number(_ key: StaticString, _ value: Double) { fixed64(value.bitPattern) }

    mutating func choice<C: Choice>(_ key: StaticString, _ value: C) { bytes.append(value.storedIndex) }

    mutating func optionalChoice<C: Choice>(_ key: StaticString, _ value: C?) {
        bytes.append(value.map { $0.storedIndex + 1 } ?? 0)
    }

    mutating func date(_ key: StaticString, _ value: CalendarDate) { signed(Int64(value.dayNumber)) }
    mutating func month(_ key: StaticString, _ value: Month) { signed(Int64(value.index)) }
    mutating func time(_ key: StaticString, _ value: ClockTime) { signed(Int64(value.minutes)) }

    mutating func object(_ key: StaticString, _ body: (inout BinaryFieldSink) -> Void) { body(&self) }

    mutating func optionalObject<T>(_ key: StaticString, _ value: T?, _ body: (inout BinaryFieldSink, T) -> Void) {
        guard let value else { bytes.append(0); return }
        bytes.append(1)
        body(&self, value)
    }
}
