public import Domain
public import Projections

/// The log and its read models in memory, for the in-process tests of the rules and the projectors: each
/// event is checked by `Rules.check` against the models, given the next seq and applied to them, as
/// `Engine.Appender` does inside a store's write transaction, but without LMDB, hashes or ids.
public final class MemoryLog {
    public let tables = MemoryTables()
    private let recorded = RecordedEvents()
    /// The models, kept event by event (their scan list written row by row, like a store's own).
    public let models: Models

    public init() {
        models = Models(tables: tables, scans: recorded)
    }

    /// The events applied, in order.
    public var events: [LoggedEvent] { recorded.events }

    /// Where models over `tables` read a scan row's scan (a replay borrowing this log's scan list).
    public var scans: any RecordedScans { recorded }

    /// Checks and applies one event line; throws the rule it breaks (nothing is applied then).
    @discardableResult
    public func append(_ line: String) throws -> LoggedEvent {
        let incoming = try Ev.decoded(line)
        try Rules.check(incoming, against: models)
        let seq = UInt64(recorded.events.count + 1)
        let logged = LoggedEvent(seq: seq, event: incoming.event(id: "e\(seq)"), hash: [])
        recorded.events.append(logged)
        try models.apply(logged)
        return logged
    }

    /// Applies every line, in order.
    public func append(_ lines: [String]) throws {
        for line in lines { try append(line) }
    }
}

/// The events of a `MemoryLog`, where its models read a scan row's scan.
private final class RecordedEvents: RecordedScans {
    var events: [LoggedEvent] = []

    func recordedScan(at seq: UInt64) throws -> ScanRecorded? {
        guard seq >= 1, seq <= UInt64(events.count), case .scanRecorded(let scan) = events[Int(seq - 1)].event.payload else { return nil }
        return scan
    }
}

extension MemoryLog {
    /// A log with a first admin (`ada`, with a passcode), an inspector (`ines`, with a passcode) and a
    /// customer (`cleo`), which the in-process suites start from.
    public static func started() throws -> MemoryLog {
        let log = MemoryLog()
        try log.append([
            Ev.register("ada", role: "admin", by: "system", at: "2026-11-01T09:00:00Z"),
            Ev.passcodeSet("ada", by: "system", at: "2026-11-01T09:00:01Z"),
            Ev.register("ines", role: "inspector", by: "ada", at: "2026-11-01T09:01:00Z"),
            Ev.passcodeSet("ines", by: "ada", at: "2026-11-01T09:01:01Z"),
            Ev.register("cleo", role: "customer", by: "cleo", at: "2026-11-01T09:02:00Z"),
        ])
        return log
    }
}
