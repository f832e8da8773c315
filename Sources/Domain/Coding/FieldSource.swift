/// Where an event payload's fields come from: JSON being checked against the rules of events.md
/// (`JSONFieldSource`) or the log's own stored bytes (`EventLog.BinaryFieldSource`).
///
/// Each payload type reads its fields in one `init(from:)` that both sources drive, so the field list
/// of a type is written once. Fields are read in key order (sorted by code point), the order in which
/// `FieldSink` writes them, because the stored form is positional.
public protocol FieldSource {
    mutating func string(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String
    mutating func optionalString(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String?
    mutating func integer(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64
    mutating func optionalInteger(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64?
    mutating func boolean(_ key: StaticString) throws(FieldError) -> Bool
    mutating func optionalBoolean(_ key: StaticString) throws(FieldError) -> Bool?
    mutating func number(_ key: StaticString, _ range: ClosedRange<Double>) throws(FieldError) -> Double
    mutating func choice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C
    mutating func optionalChoice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C?
    mutating func date(_ key: StaticString) throws(FieldError) -> CalendarDate
    mutating func month(_ key: StaticString) throws(FieldError) -> Month
    mutating func time(_ key: StaticString) throws(FieldError) -> ClockTime
    /// Reads a nested object through `body`; the object is required.
    mutating func object<T>(_ key: StaticString, _ body: (inout Self) throws(FieldError) -> T) throws(FieldError) -> T
    /// Reads a nested object through `body` when the key is present.
    mutating func optionalObject<T>(_ key: StaticString, _ body: (inout Self) throws(FieldError) -> T) throws(FieldError) -> T?
    /// Whether `key` is present; used only for keys that must be refused (`email` in `account.updated`).
    mutating func has(_ key: StaticString) -> Bool
}

/// Where an event payload's fields go: canonical JSON (`CanonicalFieldSink`) or the stored form
/// (`EventLog.BinaryFieldSink`). Keys must come in code-point order, the order RFC 8785 writes them in.
public protocol FieldSink {
    mutating func string(_ key: StaticString, _ value: String)
    mutating func optionalString(_ key: StaticString, _ value: String?)
    mutating func integer(_ key: StaticString, _ value: Int64)
    mutating func optionalInteger(_ key: StaticString, _ value: Int64?)
    mutating func boolean(_ key: StaticString, _ value: Bool)
    mutating func optionalBoolean(_ key: StaticString, _ value: Bool?)
    mutating func number(_ key: StaticString, _ value: Double)
    mutating func choice<C: Choice>(_ key: StaticString, _ value: C)
    mutating func optionalChoice<C: Choice>(_ key: StaticString, _ value: C?)
    mutating func date(_ key: StaticString, _ value: CalendarDate)
    mutating func month(_ key: StaticString, _ value: Month)
    mutating func time(_ key: StaticString, _ value: ClockTime)
    mutating func object(_ key: StaticString, _ body: (inout Self) -> Void)
    mutating func optionalObject<T>(_ key: StaticString, _ value: T?, _ body: (inout Self, T) -> Void)
}

/// The fields of one event type's `data`, read and written in key order.
public protocol PayloadFields: Sendable, Equatable {
    init<S: FieldSource>(from source: inout S) throws(FieldError)
    func write<S: FieldSink>(to sink: inout S)
}

/// A part of a payload that is itself an object (`address`, `geo`, `company`, `credential`).
public protocol NestedFields: Sendable, Equatable {
    init<S: FieldSource>(from source: inout S) throws(FieldError)
    func write<S: FieldSink>(to sink: inout S)
}
