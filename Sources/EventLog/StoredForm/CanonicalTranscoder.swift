import Domain
import StrictJSON

/// Turns a stored record straight into canonical JSON, without building Swift values: the payload's own
/// `init(from:)` drives it, so fields come in key order, and each one is copied from the stored bytes to the
/// JSON as it is read (into `CanonicalBytes`). `log verify` and `export` run at the speed of a byte copy and a
/// hash.
///
/// The values it returns to the payload initialiser are placeholders (empty strings); only the bytes
/// written matter.
struct CanonicalTranscoder: FieldSource {
    var source: BinaryFieldSource
    var out: CanonicalBytes
    /// Whether each open object still has no member: bit n for the object at depth n (events nest
    /// objects three deep at most).
    private var empty: UInt32 = 1
    private var depth = 0

    init(source: BinaryFieldSource, out: CanonicalBytes) {
        self.source = source
        self.out = out
    }

    mutating func key(_ key: StaticString) {
        let bit: UInt32 = 1 << depth
        let n = key.utf8CodeUnitCount
        out.reserve(n + 4)
        if empty & bit != 0 { empty &= ~bit } else { out.put(0x2C) }
        out.put(0x22)
        out.put(key.utf8Start, count: n)
        out.put(0x22)
        out.put(0x3A)
    }

    mutating func beginObject() {
        out.append(0x7B)
        depth += 1
        empty |= 1 << depth
    }

    mutating func endObject() {
        out.append(0x7D)
        depth -= 1
    }

    /// A JSON string from UTF-8 bytes, with only the mandatory escapes of RFC 8785.
    mutating func appendString(_ bytes: UnsafeRawBufferPointer) {
        out.appendString(bytes)
    }

    mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString(UnsafeRawBufferPointer($0)) }
    }

    mutating func appendInteger(_ value: Int64) {
        out.appendInteger(value)
    }

    mutating func string(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String {
        let bytes = try source.rawBytes(key)
        self.key(key)
        appendString(bytes)
        return ""
    }

    mutating func optionalString(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String? {
        guard try source.byte(key) != 0 else { return nil }
        return try string(key, rule)
    }

    mutating func integer(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64 {
        let v = try source.signed(key)
        self.key(key)
        appendInteger(v)
        return v
    }

    mutating func optionalInteger(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64? {
        guard try source.byte(key) != 0 else { return nil }
        return try integer(key, range)
    }

    mutating func boolean(_ key: StaticString) throws(FieldError) -> Bool {
        let b = try source.boolean(key)
        self.key(key)
        out.append(b ? "true" : "false")
        return b
    }

    mutating func optionalBoolean(_ key: StaticString) throws(FieldError) -> Bool? {
        guard let b = try source.optionalBoolean(key) else { return nil }
        self.key(key)
        out.append(b ? "true" : "false")
        return b
    }

    mutating func number(_ key: StaticString, _ range: ClosedRange<Double>) throws(FieldError) -> Double {
        let d = try source.number(key, range)
        self.key(key)
        appendRaw(ecmaScriptNumberString(d))
        return d
    }

    mutating func choice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C {
        let c = try source.choice(key, type)
        self.key(key)
        appendString(c.rawValue)
        return c
    }

    mutating func optionalChoice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C? {
        guard let c = try source.optionalChoice(key, type) else { return nil }
        self.key(key)
        appendString(c.rawValue)
        return c
    }

    mutating func date(_ key: StaticString) throws(FieldError) -> CalendarDate {
        let d = try source.date(key)
        self.key(key)
        appendString(d.description)
        return d
    }

    mutating func month(_ key: StaticString) throws(FieldError) -> Month {
        let m = try source.month(key)
        self.key(key)
        appendString(m.description)
        return m
    }

    mutating func time(_ key: StaticString) throws(FieldError) -> ClockTime {
        let t = try source.time(key)
        self.key(key)
        appendString(t.description)
        return t
    }

    mutating func object<T>(_ key: StaticString, _ body: (inout CanonicalTranscoder) throws(FieldError) -> T) throws(FieldError) -> T {
        self.key(key)
        beginObject()
        let result = try body(&self)
        endObject()
        return result
    }

    mutating func optionalObject<T>(_ key: StaticString, _ body: (inout CanonicalTranscoder) throws(FieldError) -> T) throws(FieldError) -> T? {
        guard try source.byte(key) != 0 else { return nil }
        return try object(key, body)
    }

    mutating func has(_ key: StaticString) -> Bool { false }

    /// Text that JSON writes as it is (a number's).
    private mutating func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            out.reserve(utf8.count)
            if let base = utf8.baseAddress { out.put(base, count: utf8.count) }
        }
    }
}
