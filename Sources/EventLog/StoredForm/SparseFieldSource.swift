public import Domain
/// Reads a scan from the stored form like `BinaryFieldSource`, but makes a `String` only of the one
/// string field named `keeps`: every other string is read as "", and kept in `text` as its stored bytes.
/// A replay counts a million scans by category and a rebuild makes their rows from the bytes; neither
/// needs a `String` of each field, which is most of the cost of decoding a scan.
struct SparseFieldSource: FieldSource {
    var base: BinaryFieldSource
    let keeps: StaticString
    /// The scan's text fields, lent from `base`'s bytes.
    var text = ScanText()

    init(base: BinaryFieldSource, keeps: StaticString) {
        self.base = base
        self.keeps = keeps
    }

    mutating func string(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String {
        let bytes = try base.rawBytes(key)
        text.record(key, bytes)
        return ScanText.same(key, keeps) ? String(decoding: bytes, as: UTF8.self) : ""
    }

    mutating func optionalString(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String? {
        try base.byte(key) == 0 ? nil : try string(key, rule)
    }

    mutating func integer(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64 {
        try base.integer(key, range)
    }

    mutating func optionalInteger(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64? {
        try base.optionalInteger(key, range)
    }

    mutating func boolean(_ key: StaticString) throws(FieldError) -> Bool { try base.boolean(key) }
    mutating func optionalBoolean(_ key: StaticString) throws(FieldError) -> Bool? { try base.optionalBoolean(key) }

    mutating func number(_ key: StaticString, _ range: ClosedRange<Double>) throws(FieldError) -> Double {
        try base.number(key, range)
    }

    mutating func choice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C {
        try base.choice(key, type)
    }

    mutating func optionalChoice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C? {
        try base.optionalChoice(key, type)
    }

    mutating func date(_ key: StaticString) throws(FieldError) -> CalendarDate { try base.date(key) }
    mutating func month(_ key: StaticString) throws(FieldError) -> Month { try base.month(key) }
    mutating func time(_ key: StaticString) throws(FieldError) -> ClockTime { try base.time(key) }

    mutating func object<T>(_ key: StaticString, _ body: (inout SparseFieldSource) throws(FieldError) -> T) throws(FieldError) -> T {
        try body(&self)
    }

    mutating func optionalObject<T>(_ key: StaticString, _ body: (inout SparseFieldSource) throws(FieldError) -> T) throws(FieldError) -> T? {
        try base.byte(key) == 0 ? nil : try body(&self)
    }

    mutating func has(_ key: StaticString) -> Bool { false }
}

/// A stored `scan.recorded` as a replay counts it: who, when, its category and whether it was counterfeit
/// (see `StoredEvent.countedScan`).
///
/// Why a type of its own, beside `ScanRecorded`: it is all that the statistics and the months need, so a
/// replay of a million scans over the borrowed scan list reads no more of each (two `String`s, not eleven),
/// and the other views of a scan (`StoredScan`, `PreparedScan`) carry it for their counts.
public struct CountedScan: Sendable {
    public var at: Timestamp
    public var actor: String
    public var category: String
    public var isCounterfeit: Bool

    public init(at: Timestamp, actor: String, category: String, isCounterfeit: Bool) {
        self.at = at; self.actor = actor; self.category = category; self.isCounterfeit = isCounterfeit
    }
}

/// A stored `scan.recorded` read in place: its counts, and its text lent from the stored bytes (see
/// `StoredEvent.storedScan`).
///
/// Why a type of its own: a rebuild makes a row from every stored scan, and reading one as a `ScanRecorded`
/// would make a `String` of each field only to lower-case its bytes; this pairs the counts with the bytes
/// as the map lends them, valid only while the read transaction is (so it is never `Sendable`).
public struct StoredScan {
    public var counted: CountedScan
    public var text: ScanText
}

extension StoredEvent {
    /// A stored record read as a replay counts it when it is a `scan.recorded` (nil for any other type),
    /// without its id, hash or any text but `actor` and `category`.
    public static func countedScan(_ bytes: UnsafeRawBufferPointer) throws(FieldError) -> CountedScan? {
        try storedScan(bytes)?.counted
    }

    /// A stored record read in place when it is a `scan.recorded` (nil for any other type): its counts as
    /// `countedScan`, and its text as bytes lent from `bytes`, valid while they are.
    public static func storedScan(_ bytes: UnsafeRawBufferPointer) throws(FieldError) -> StoredScan? {
        var source = BinaryFieldSource(bytes: bytes)
        guard try source.byte("format") == format else { throw FieldError(path: "format", rule: "unknown stored format") }
        guard try source.choice("type", EventType.self) == .scanRecorded else { return nil }
        let at = Timestamp(microseconds: Int64(bitPattern: try source.fixed64("at")))
        _ = try source.slice("hash", count: 32)
        _ = try source.rawBytes("id")
        let actor = try source.raw("actor")
        var sparse = SparseFieldSource(base: source, keeps: "category")
        let scan = try ScanRecorded(from: &sparse)
        guard sparse.base.position == bytes.count else { throw FieldError(path: "data", rule: "stored record is damaged") }
        return StoredScan(counted: CountedScan(at: at, actor: actor, category: scan.category,
                                               isCounterfeit: scan.result == .counterfeit),
                          text: sparse.text)
    }
}
