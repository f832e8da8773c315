public import Domain
import EventLog

/// Totals over the whole log that the models keep: for `log status` and the rules.
public struct LogTotals: Sendable, Equatable {
    public var events: UInt64 = 0
    public var firstAt: Timestamp?
    public var lastAt: Timestamp?
    /// Events per type, in `EventType.choices` order.
    public var byType = [UInt64](repeating: 0, count: EventType.choices.count)
    public var activeAdmins = 0
    /// Scans in the log; the ordinal of the next scan row is `scans + 1`.
    public var scans: UInt32 = 0

    func encoded() -> [UInt8] {
        var s = BinaryFieldSink()
        s.varint(events); s.optionalInteger("", firstAt?.microseconds); s.optionalInteger("", lastAt?.microseconds)
        for n in byType { s.varint(n) }
        s.varint(UInt64(activeAdmins)); s.varint(UInt64(scans))
        return s.bytes
    }

    init() {}

    init(decoding bytes: UnsafeRawBufferPointer) throws(FieldError) {
        var s = BinaryFieldSource(bytes: bytes)
        events = try s.varint("events")
        firstAt = try s.optionalInteger("firstAt", 0...0).map(Timestamp.init(microseconds:))
        lastAt = try s.optionalInteger("lastAt", 0...0).map(Timestamp.init(microseconds:))
        for i in byType.indices { byType[i] = try s.varint("byType") }
        activeAdmins = Int(try s.varint("activeAdmins")); scans = UInt32(try s.varint("scans"))
    }
}
