import Domain
import EventLog
import LMDB
import Projections

/// One Veritrail store: the event log and its read models in one LMDB environment.
public final class Store: @unchecked Sendable {
    public let log: EventLog
    let modelDatabases: [Database]

    /// Opens the store in `directory`; with `create`, makes it when missing (directory 0700, files 0600).
    /// `mapSize` is the least size to map: give more when a large write is coming, so the map need not grow
    /// (and the write run again) on the way.
    public init(directory: String, create: Bool, mapSize: Int = 64 << 20) throws {
        log = try EventLog(directory: directory, create: create, mapSize: mapSize)
        do {
            modelDatabases = try StoredTables.openDatabases(in: log.environment, create: create)
        } catch {
            throw StoreError("can not open the read models in \(directory): \(error)")
        }
    }

    /// Runs `body` in one write transaction: everything it appends commits together, or nothing does when
    /// it throws. `body` may run more than once (when the store grows), so keep its effects in the store.
    public func write<R>(_ body: (inout Appender) throws -> R) throws -> R {
        try log.environment.write { txn in
            let writer = try LogWriter(log: log, transaction: txn)
            let models = Models(tables: StoredTables(transaction: txn, databases: modelDatabases), log: writer.reader)
            var appender = Appender(writer: writer, models: models)
            let result = try body(&appender)
            try models.flush()
            return result
        }
    }

    /// Runs `body` on a consistent snapshot of the log and its stored read models.
    public func read<R>(_ body: (LogReader, Models) throws -> R) throws -> R {
        try log.environment.read { txn in
            let reader = LogReader(log: log, transaction: txn)
            return try body(reader, Models(tables: StoredTables(transaction: txn, databases: modelDatabases), log: reader))
        }
    }

    /// Recomputes every read model from the log, in one transaction; returns how many events it applied.
    ///
    /// The events are read and decoded on a second thread, in a read transaction of its own: the log never
    /// changes below its head, and this write transaction changes only the models.
    @discardableResult
    public func rebuild(progress: (UInt64) -> Void = { _ in }) throws -> UInt64 {
        try log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: modelDatabases)
            try tables.dropAll()
            let reader = LogReader(log: log, transaction: txn)
            let through = try reader.head().seq
            let models = Models(tables: tables, log: reader)
            let events = Pipeline<(LoggedEvent, PreparedScan?)> { [log] emit in
                try log.read { reader in
                    try reader.forEachRecord(through: through) { seq, bytes in
                        let logged = try reader.decode(bytes, seq: seq)
                        guard case .scanRecorded(let scan) = logged.event.payload else { return emit((logged, nil)) }
                        return emit((logged, PreparedScan(seq: seq, at: logged.event.at, actor: logged.event.actor, scan: scan)))
                    }
                }
            }
            defer { events.cancel() }
            var count: UInt64 = 0
            while let batch = try events.next() {
                for (logged, prepared) in batch { try models.apply(logged, prepared: prepared) }
                count += UInt64(batch.count)
                progress(count)
            }
            try models.flush()
            return count
        }
    }

    /// Replays the events of a prefix of the log into in-memory models over the stored ones (which lend
    /// their scan list): those with `seq ≤ through` and `at ≤ notAfter` (a prefix, since time never runs
    /// backwards in the log).
    ///
    /// The events are read and decoded on a second thread, in a read transaction of its own: the log never
    /// changes below its head, so that transaction reads the same events as `reader`'s.
    public func replay(_ reader: LogReader, over stored: Models, through: UInt64,
                       notAfter: Timestamp?) throws -> (models: Models, last: (seq: UInt64, at: Timestamp)?) {
        let models = Models.replaying(over: stored.tables, log: reader)
        let events = Pipeline<ReplayedEvent> { [log] emit in
            try log.read { reader in
                try reader.forEachRecord(through: through) { seq, bytes in
                    guard let at = StoredEvent.at(in: bytes) else { throw StoreError("the stored event at seq \(seq) is damaged") }
                    if let notAfter, at > notAfter { return false }
                    // Scans, nearly all of a log, are read only as far as their counts need.
                    if let scan = try reader.decodingErrors(seq: seq, { () throws(FieldError) in try StoredEvent.countedScan(bytes) }) {
                        return emit(.scan(scan, seq: seq))
                    }
                    return emit(.event(try reader.decode(bytes, seq: seq)))
                }
            }
        }
        defer { events.cancel() }
        var last: (seq: UInt64, at: Timestamp)?
        while let batch = try events.next() {
            for item in batch {
                switch item {
                case let .scan(scan, seq):
                    try models.apply(counted: scan, seq: seq)
                    last = (seq, scan.at)
                case let .event(logged):
                    try models.apply(logged)
                    last = (logged.seq, logged.event.at)
                }
            }
        }
        return (models, last)
    }
}

/// An event as a replay reads it: a scan only as far as its counts need, any other event whole.
private enum ReplayedEvent {
    case scan(CountedScan, seq: UInt64)
    case event(LoggedEvent)
}
