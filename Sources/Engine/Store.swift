import Domain
import EventLog
import LMDB
import Projections

/// One Veritrail store: the event log and its read models in one LMDB environment.
public final class Store: @unchecked Sendable {
    public let log: EventLog
    let modelDatabases: [Database]

    /// Opens the existing store in `directory` (a `StoreError` when there is none). `mapSize` is the least
    /// size to map: give more when a large write is coming, so the map need not grow (and the write run
    /// again) on the way.
    public convenience init(directory: String, mapSize: Int = EventLog.initialMapSize) throws {
        try self.init(directory: directory, mapSize: mapSize, creating: false)
    }

    private init(directory: String, mapSize: Int, creating: Bool) throws {
        log = try EventLog(directory: directory, mapSize: mapSize, alsoOpening: ModelTable.allCases.map(\.name),
                           creating: creating)
        modelDatabases = log.companions
    }

    /// Creates a store in `directory` whose first write is `body`, or returns nil, having written nothing,
    /// when a store is there already (made before, or by another process meanwhile).
    ///
    /// The store is built aside and put in place in one step (`StoreDirectory`): whoever looks finds no
    /// store or a complete one, holding `body`'s events. When `body` throws, nothing is left behind.
    public static func create<R>(directory: String, mapSize: Int = EventLog.initialMapSize, large: Bool = false,
                                 _ body: (inout Appender) throws -> R) throws -> R? {
        let place = StoreDirectory(directory)
        guard place.state == .absent else { return nil }
        let madeDirectories = try place.prepare()
        do {
            let aside = try place.makeAside()
            let result: R
            do {
                result = try Store.build(in: aside, mapSize: mapSize, large: large, body)
            } catch {
                place.discard(aside: aside)
                throw error
            }
            return try place.publish(aside: aside) ? result : nil
        } catch {
            place.unprepare(madeDirectories)
            throw error
        }
    }

    /// Makes a store in the empty directory `aside` and writes `body` to it; the store is closed on return.
    private static func build<R>(in aside: String, mapSize: Int, large: Bool, _ body: (inout Appender) throws -> R) throws -> R {
        let store = try Store(directory: aside, mapSize: mapSize, creating: true)
        return try store.write(large: large, body)
    }

    /// Runs `body` in one write transaction: everything it appends commits together, or nothing does when
    /// it throws. `body` may run more than once (when the store grows), so keep its effects in the store.
    /// With `large` (an import), the write is paged on a companion thread (`Environment.write(large:)`).
    public func write<R>(large: Bool = false, _ body: (inout Appender) throws -> R) throws -> R {
        try log.environment.write(large: large) { txn in
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

    /// Recomputes every read model from the log, in one transaction.
    ///
    /// The scan list and its indexes, nearly all of the models' pages, are not written again when they are
    /// what the log gives: the rebuild sums the list as it recomputes it and checks the sum against the
    /// stored list's (`ScanListDigest`). When they differ (a damaged list, or one a previous version wrote), or
    /// the stored list can not be read, the rebuild starts over with every table emptied and written again.
    @discardableResult
    public func rebuild(progress: (UInt64) -> Void = { _ in }) throws -> RebuildSummary {
        do {
            return RebuildSummary(events: try rebuild(keepingScanList: true, progress: progress), rewroteScanList: false)
        } catch {
            // A stale list, or one too damaged to read. An error that has nothing to do with the list comes
            // back from the second attempt.
            return RebuildSummary(events: try rebuild(keepingScanList: false, progress: progress), rewroteScanList: true)
        }
    }

    /// What a rebuild did.
    public struct RebuildSummary: Sendable {
        /// How many events it applied.
        public var events: UInt64
        /// Whether the stored scan list was not what the log gives, so that every table was written again.
        public var rewroteScanList: Bool
    }

    /// Releases the pages `txn` read (`Transaction.releaseReadPages`) whenever the `count` events applied so
    /// far, the last `batch` of them just now, pass a multiple of `PageRelease.appliedEvents`. A rebuild or a
    /// replay reads the models and the log at random (a report reads its scan's row and event), and the
    /// kernel maps the pages around each page read, so much of the store would stay mapped in.
    private static func releaseReadPages(_ txn: Transaction, every count: UInt64, batch: Int) {
        if PageRelease.passed(PageRelease.appliedEvents, count: count, batch: batch) { txn.releaseReadPages() }
    }

    /// The stored scan list is not the one the log gives (see `rebuild`).
    private struct StaleScanList: Error {}

    /// The events are read and decoded on a second thread, in a read transaction of its own: the log never
    /// changes below its head, and this write transaction changes only the models.
    private func rebuild(keepingScanList: Bool, progress: (UInt64) -> Void) throws -> UInt64 {
        try log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: modelDatabases)
            let kept = keepingScanList ? Models.scanListTables : []
            let codes = try tables.count(.codes)
            try tables.drop(ModelTable.allCases.filter { !kept.contains($0) })
            let reader = LogReader(log: log, transaction: txn)
            let through = try reader.head().seq
            let models = keepingScanList ? Models.rebuilding(over: tables, log: reader, codes: codes)
                                         : Models(tables: tables, log: reader)
            // A third thread sums the stored scan list meanwhile: a read transaction sees the models as they
            // were before this one.
            let storedScanList = keepingScanList ? Pipeline<ScanListDigest> { [log, modelDatabases] emit in
                try log.environment.read { txn in _ = emit(try ScanListDigest(of: StoredTables(transaction: txn, databases: modelDatabases))) }
            } : nil
            defer { storedScanList?.cancel() }
            let events = Pipeline<RebuiltEvent> { [log] emit in
                try log.read { reader in
                    try reader.forEachRecord(through: through) { seq, bytes in
                        // Scans, nearly all of a log, are read in place and made ready for their row here.
                        if let scan = try reader.decodingErrors(seq: seq, { () throws(FieldError) in try StoredEvent.storedScan(bytes) }) {
                            return emit(.scan(PreparedScan(seq: seq, stored: scan)))
                        }
                        return emit(.event(try reader.decode(bytes, seq: seq)))
                    }
                }
            }
            defer { events.cancel() }
            var count: UInt64 = 0
            while let batch = try events.next() {
                while let item = batch.take() {
                    switch consume item {
                    case .scan(let scan):
                        try models.apply(scan)
                        count += 1
                    case .event(let logged):
                        try models.apply(logged)
                        count += 1
                    }
                }
                progress(count)
                Store.releaseReadPages(txn, every: count, batch: batch.count)
            }
            if let storedScanList, try storedScanList.next()?.take() != models.scanListDigest { throw StaleScanList() }
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
        var count: UInt64 = 0
        while let batch = try events.next() {
            while let item = batch.take() {
                switch consume item {
                case let .scan(scan, seq):
                    try models.apply(counted: scan, seq: seq)
                    last = (seq, scan.at)
                case let .event(logged):
                    try models.apply(logged)
                    last = (logged.seq, logged.event.at)
                }
            }
            count += UInt64(batch.count)
            Store.releaseReadPages(reader.transaction, every: count, batch: batch.count)
        }
        return (models, last)
    }
}

/// An event as a rebuild reads it: a scan made ready for its row, any other event whole.
private enum RebuiltEvent {
    case scan(PreparedScan)
    case event(LoggedEvent)
}

/// An event as a replay reads it: a scan only as far as its counts need, any other event whole.
private enum ReplayedEvent {
    case scan(CountedScan, seq: UInt64)
    case event(LoggedEvent)
}
