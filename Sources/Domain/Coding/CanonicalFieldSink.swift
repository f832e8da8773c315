import StrictJSON

/// Writes a payload as RFC 8785 canonical JSON (the form the hash chain is computed over, and the
/// interchange form on the way out). Absent optionals are left out, never written as `null`.
struct CanonicalFieldSink: FieldSink {
    var writer: CanonicalJSONWriter

    mutating func string(_ key: StaticString, _ value: String) {
        writer.key(key); writer.string(value)
    }

    mutating func optionalString(_ key: StaticString, _ value: String?) {
        if let value { string(key, value) }
    }

    mutating func integer(_ key: StaticString, _ value: Int64) {
        writer.key(key); writer.int(value)
    }

    mutating func optionalInteger(_ key: StaticString, _ value: Int64?) {
        if let value { integer(key, value) }
    }

    mutating func boolean(_ key: StaticString, _ value: Bool) {
        writer.key(key); writer.bool(value)
    }

    mutating func optionalBoolean(_ key: StaticString, _ value: Bool?) {
        if let value { boolean(key, value) }
    }

    /// Numbers in events are finite: the field rules refuse others on the way in and
    /// `EventLog.BinaryFieldSource` refuses them from a damaged store, so the writer can not fail here.
    mutating func number(_ key: StaticString, _ value: Double) {
        writer.key(key)
        try! writer.double(value)
    }

    mutating func choice<C: Choice>(_ key: StaticString, _ value: C) {
        string(key, value.rawValue)
    }

    mutating func optionalChoice<C: Choice>(_ key: StaticString, _ value: C?) {
        if let value { choice(key, value) }
    }

    mutating func date(_ key: StaticString, _ value: CalendarDate) { string(key, value.description) }
    mutating func month(_ key: StaticString, _ value: Month) { string(key, value.description) }
    mutating func time(_ key: StaticString, _ value: ClockTime) { string(key, value.description) }

    mutating func object(_ key: StaticString, _ body: (inout CanonicalFieldSink) -> Void) {
        writer.key(key)
        writer.beginObject()
        body(&self)
        writer.endObject()
    }

    mutating func optionalObject<T>(_ key: StaticString, _ value: T?, _ body: (inout CanonicalFieldSink, T) -> Void) {
        guard let value else { return }
        object(key) { body(&$0, value) }
    }
}
