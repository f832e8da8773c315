public import Domain
public import EventLog
import LMDB
import SystemCalls
public import Projections
public import Proofs

/// One Veritrail store: the event log and its read models in one LMDB environment.
public final class Store: @unchecked Sendable {
    public let log: EventLog
    let modelDatabases: [Database]
    /// The Merkle tree, the identity and the signed checkpoint (proofs.md).
    public let proofs: ProofStore
    /// The origin a store gets at its first write when it has none yet (`init --origin`, `import --origin`).
    public var originForNewStore: String?
    /// How many events apart the snapshots of the small models are (`Models.snapshotInterval`); tests take
    /// them more often, to have many in a small log.
    var snapshotInterval = Models.defaultSnapshotInterval
    /// Set by `groupCommits`: the writes of `appendGated` share transactions.
    private(set) var committer: GroupCommitter?
    /// Set by `groupCommits`: the writes leave the chunks they fill to it to make their pieces again.
    private var remaker: PieceRemaker?

    /// Makes the writes of `appendGated` from many threads share one transaction, one flush and one signed
    /// checkpoint per group (`GroupCommitter`); `onCommit` hears each group's size and time. And makes the
    /// search index's pieces of the chunks the writes fill off the writes (`PieceRemaker`). Call it once,
    /// before the store is shared.
    public func groupCommits(onCommit: (@Sendable (_ size: Int, _ microseconds: Int64) -> Void)? = nil) {
        let committer = GroupCommitter(store: self)
        committer.onCommit = onCommit
        self.committer = committer
        // Without a thread to make them, the chunks' pieces are made in the writes that fill them, as before.
        remaker = try? PieceRemaker(store: self)
    }

    deinit { remaker?.stop() }

    /// Opens the existing store in `directory` (a `StoreError` when there is none). `mapSize` is the least
    /// size to map: give more when a large write is coming, so the map need not grow (and the write run
    /// again) on the way.
    /// The secrets file is at `secrets`, or beside the data when nil (proofs.md §2). Hidden directories
    /// left by creations killed while building (`StoreDirectory`) are removed.
    public convenience init(directory: String, mapSize: Int = EventLog.initialMapSize, secrets: String? = nil) throws {
        try self.init(directory: directory, mapSize: mapSize, creating: false, secrets: secrets)
        StoreDirectory(directory).removeAbandonedAsides()
    }

    private init(directory: String, mapSize: Int, creating: Bool, secrets: String?) throws {
        log = try EventLog(directory: directory, mapSize: mapSize, alsoOpening: ModelTable.allCases.map(\.name),
                           creating: creating)
        modelDatabases = log.companions
        proofs = try ProofStore(environment: log.environment, directory: directory, secrets: secrets)
    }

    /// Creates a store in `directory` whose first write is `body`, or returns nil, having written nothing,
    /// when a store is there already (made before, or by another process meanwhile).
    ///
    /// The store is built aside and put in place in one step (`StoreDirectory`): whoever looks finds no
    /// store or a complete one, holding `body`'s events and its first signed checkpoint, under `origin` (a
    /// random one when nil, proofs.md §2). When `body` throws, nothing is left behind.
    ///
    /// Its secrets file (`secrets`, or `<directory>/secrets`) is written before the data file appears, and
    /// the checkpoint is put in place before it too (`StoreDirectory.publish`): a store is never visible
    /// without them. A secrets file already there (a restore, or a creation killed before its data file
    /// appeared) is taken; else the store gets `newSecrets`, or new ones when nil.
    public static func create<R>(directory: String, mapSize: Int = EventLog.initialMapSize, large: Bool = false,
                                 origin: String? = nil, secrets: String? = nil, newSecrets: StoreSecrets? = nil,
                                 _ body: (inout Appender) throws -> R) throws -> R? {
        let place = StoreDirectory(directory)
        guard place.state == .absent else { return nil }
        guard !place.holdsOrphanedCheckpoint else { throw place.orphanedCheckpoint }
        let madeDirectories = try place.prepare()
        let secretsFile = SecretsFile(path: secrets ?? SecretsFile(storeDirectory: directory).path)
        do {
            let aside = try place.makeAside()
            let result: R
            let toPublish: StoreSecrets?
            do {
                let store = try Store(directory: aside, mapSize: mapSize, creating: true, secrets: secretsFile.path)
                store.originForNewStore = origin
                store.proofs.secretsForNewStore = newSecrets
                store.proofs.publishesSecrets = true
                result = try store.write(large: large, body)
                // The map was sized for the first write, and nobody else has the store open yet: the one
                // moment its file may be cut back to the pages in use (`trimToPagesInUse`).
                try store.log.environment.trimToPagesInUse()
                toPublish = store.proofs.secretsToPublish
            } catch {
                place.discard(aside: aside)
                throw error
            }
            // Written beside their place, flushed, and renamed into place with the checkpoint, before the data file.
            let temporary = try toPublish.map { try secretsFile.temporary($0) }
            defer { if let temporary { try? FileSystem.unlink(temporary) } }
            let placed = temporary.map { [(from: $0, to: secretsFile.path)] } ?? []
            return try place.publish(aside: aside, placing: placed) ? result : nil
        } catch {
            place.unprepare(madeDirectories)
            throw error
        }
    }

    /// Runs `body` in one write transaction: everything it appends commits together, or nothing does when
    /// it throws. `body` may run more than once (when the store grows), so keep its effects in the store.
    /// With `large` (an import), the write is paged on a companion thread (`Environment.write(large:)`).
    /// The tree at the kept checkpoint's size is checked first, and the checkpoint of the new size is signed
    /// and written beside its place before the commit (`ProofStore.begin`, `ProofStore.prepare`): a write
    /// that can not write it (no space left) commits nothing. It is put in place after the commit; when
    /// that fails, the events are committed all the same and `CheckpointNotKept` says so, and the next
    /// write keeps the head's checkpoint before it writes anything, or refuses.
    public func write<R>(large: Bool = false, _ body: (inout Appender) throws -> R) throws -> R {
        try write(large: large, resealing: false, body)
    }

    private func write<R>(large: Bool, resealing: Bool, _ body: (inout Appender) throws -> R) throws -> R {
        var prepared: PreparedCheckpoint?
        var leftPiecesDue = false
        let result: R
        do {
            result = try log.environment.write(large: large) { txn in
                // The transaction is run again when the map grows: the last try's checkpoint is not this one's.
                if let earlier = prepared { proofs.discard(earlier) }
                prepared = nil
                let writer = try LogWriter(log: log, transaction: txn)
                let proof = try proofs.begin(writer.reader, head: writer.head.seq, originForNewStore: originForNewStore, resealing: resealing)
                let models = Models(tables: StoredTables(transaction: txn, databases: modelDatabases), log: writer.reader)
                // A store's first write starts its search index, which then holds every scan.
                if writer.head.seq == 0 { try models.markSearchIndexReady() }
                models.snapshotInterval = snapshotInterval
                if remaker != nil { models.deferChunkPieces() }
                var appender = Appender(writer: writer, models: models, tree: proof.tree)
                let result = try body(&appender)
                try models.flush()
                leftPiecesDue = models.leftChunkPiecesDue
                // A write its body rolled back (`Appender.rollBack`) commits nothing, so nothing is signed.
                if !txn.rollsBack, let pending = try proof.finish() { prepared = try proofs.prepare(pending) }
                return result
            }
        } catch {
            if let prepared { proofs.discard(prepared) }
            throw error
        }
        if leftPiecesDue { remaker?.wake() }
        if let prepared {
            do {
                try proofs.install(prepared)
            } catch {
                throw CheckpointNotKept(size: prepared.size, reason: "\(error)")
            }
        }
        return result
    }

    /// Signs the head over a kept checkpoint that is lost or contradicts the log (`log reseal
    /// --accept-loss`, proofs.md §2), and returns what it signed over; nothing is signed when the kept
    /// checkpoint holds (`loss` nil). The data records that it signed the head, in the same transaction.
    public func reseal() throws -> ResealPlan {
        var plan: ResealPlan?
        try write(large: false, resealing: true) { appender in
            plan = try proofs.resealPlan(appender.writer.reader, kept: proofs.file.read())
            if plan?.loss == nil { appender.rollBack() }
        }
        guard let plan else { throw StoreError("the store's Merkle tree could not be made") }
        return plan
    }

    /// What `reseal` would sign over, read on a snapshot (nothing is written).
    public func resealPlan() throws -> ResealPlan? {
        let kept = proofs.file.read()
        return try log.read { reader in try proofs.resealPlan(reader, kept: kept) }
    }

    /// Runs `body` on a consistent snapshot of the log and its stored read models.
    public func read<R>(_ body: (LogReader, Models) throws -> R) throws -> R {
        try log.environment.read { txn in
            let reader = LogReader(log: log, transaction: txn)
            return try body(reader, Models(tables: StoredTables(transaction: txn, databases: modelDatabases), log: reader))
        }
    }

    /// Recomputes every read model, and the Merkle tree, from the log, in one transaction.
    ///
    /// The scan list and its indexes, nearly all of the models' pages, are not written again when they are
    /// what the log gives: the rebuild sums the list as it recomputes it and checks the sum against the
    /// stored list's (`ScanListDigest`). When they differ (a damaged list, or one a previous version wrote), or
    /// the stored list can not be read, the rebuild starts over with every table emptied and written again.
    /// The `codes` table is kept the same way (`KeptCodes`); when it is not the log's, the rebuild starts
    /// over and writes it again, keeping the list.
    ///
    /// It reads nearly every page of the store, the log's, the list's and the index's in order: with the
    /// kernel's read-ahead (`Environment.readingMuch`), or a store out of the page cache is read a page a
    /// fault (docs/BULK.md, "A rebuild out of the page cache").
    @discardableResult
    public func rebuild(progress: (UInt64) -> Void = { _ in }) throws -> RebuildSummary {
        // Before the advice: growing the map maps it anew, as LMDB advises it.
        makeRoomForRebuild()
        return try log.environment.readingMuch {
            do {
                do {
                    return try rebuildKeepingScanList(keepingIndex: true, progress: progress)
                } catch is SearchIndexNotKept {
                    try emptySearchIndex()
                    return try rebuildKeepingScanList(keepingIndex: false, progress: progress)
                }
            } catch {
                // A stale list, or one too damaged to read. An error that has nothing to do with the list comes
                // back from the second attempt.
                let events = try rebuild(keepingScanList: false, keepingIndex: false, keepingCodes: false, progress: progress).events
                return RebuildSummary(events: events, rewroteScanList: true, rewroteCodes: true)
            }
        }
    }

    /// Room in the map for the tables a rebuild empties and writes again (every table but the scan list, its
    /// indexes, the search index and `codes`, which it keeps when they are the log's): their old pages are
    /// free only once it commits. A store just imported has one step of room (`trimToPagesInUse`), and its
    /// first rebuild filled the map near the end (the snapshots of the small models, 210 MB at ten million
    /// events) and ran again from the start (`Environment.makeRoom`). Room for half as much again as they
    /// take now. A store whose tables can not be read, or a disk without the room, leaves the map as it is:
    /// the rebuild then grows it as it fills, as before.
    private func makeRoomForRebuild() {
        let kept = Models.scanListTables + [.search, .codes]
        let pages = try? log.environment.read { txn in
            try ModelTable.allCases.filter { !kept.contains($0) }.reduce(0) { $0 + (try txn.pages(modelDatabases[$1.rawValue])) }
        }
        if let pages { try? log.environment.makeRoom(pages: pages + pages / 2) }
    }

    /// A rebuild that keeps the stored scan list, and the `codes` table when it is the log's; when that table
    /// is not, it runs again and writes the table.
    private func rebuildKeepingScanList(keepingIndex: Bool, progress: (UInt64) -> Void) throws -> RebuildSummary {
        do {
            let fed = try rebuild(keepingScanList: true, keepingIndex: keepingIndex, keepingCodes: true, progress: progress)
            return RebuildSummary(events: fed.events, rewroteScanList: false, rewroteCodes: !fed.keptCodes)
        } catch is CodesNotKept {
            let events = try rebuild(keepingScanList: true, keepingIndex: keepingIndex, keepingCodes: false, progress: progress).events
            return RebuildSummary(events: events, rewroteScanList: false, rewroteCodes: true)
        }
    }

    /// Empties the search index in transactions of its own before a rebuild makes it again, so that the new
    /// index takes the old one's pages. Emptied inside the rebuild's transaction, they could not be reused
    /// before it committed, and the data file grew by a whole index (2.5 GB at ten million events, over its
    /// bar: docs/SCALE.md). LMDB reuses the pages a transaction frees only once another has committed after
    /// it (the last two snapshots stay whole), so the table is emptied twice: the second time frees nothing
    /// but commits. Until the rebuild commits, the index is not ready and searches read the rows, with the
    /// same answers (`Models.searchIndexIsReady`); a rebuild stopped meanwhile leaves it so, for the next
    /// one to make.
    func emptySearchIndex() throws {
        // Paged: emptying a table reads its leaves, which hold large values, to free their pages.
        try log.environment.write(large: true) { txn in try StoredTables(transaction: txn, databases: modelDatabases).drop([.search]) }
        try log.environment.write { txn in try StoredTables(transaction: txn, databases: modelDatabases).drop([.search]) }
    }

    /// What a rebuild did.
    public struct RebuildSummary: Sendable {
        /// How many events it applied.
        public var events: UInt64
        /// Whether the stored scan list was not what the log gives, so that every table was written again.
        public var rewroteScanList: Bool
        /// Whether the `codes` table was written again: it was not what the log gives, or it could not be
        /// checked without writing it (`KeptCodes.read`).
        public var rewroteCodes: Bool
    }

    /// The stored scan list is not the one the log gives (see `rebuild`).
    private struct StaleScanList: Error {}

    /// The stored search index is not kept: it is of another form, or has a damaged page or set (see
    /// `rebuild`).
    private struct SearchIndexNotKept: Error {}

    /// The stored `codes` table, kept, is not what the log gives (see `rebuild`).
    private struct CodesNotKept: Error {}

    /// Applies every event of the log to the models, in one transaction, every table emptied but the scan
    /// list when it is kept, and the `codes` table when it is kept too (`keepingCodes`, and `KeptCodes.read`
    /// finds it can be checked; the answer says whether it was).
    ///
    /// The search index is kept with the list when it is of the current form (`SearchIndex.readyKey`), or of
    /// form 10, which the rebuild completes from the rows (`Models.completeKeptSearchIndex`), and
    /// every page and set of it is sound (`log verify`'s audit of that one table, whose sets carry a check
    /// of their bytes: `SealedValue`), made on a thread of its own meanwhile: the index is made from the
    /// rows of the list, which the rebuild finds to be the log's, so a sound index is the one they give and
    /// is neither made again nor read set by set. When it is of another form, or the audit finds damage, the
    /// rebuild runs again with the index emptied first (`emptySearchIndex`) and made again (`keepingIndex`
    /// false), holding fewer codes' counts beside the sets it makes (`CheckedScanList(makingSearchIndex:)`).
    ///
    /// The write is paged (`Environment.write(large:)`): it writes nothing to the log, so its pager drops
    /// every mapped page every 10 ms once the process holds more than `PageRelease.residentWhileWriting`. A
    /// rebuild that writes the `codes` table again (random keys, merged into whole every million codes)
    /// would otherwise keep every page it wrote mapped until the commit: at ten million events, most of its
    /// peak memory. It reads the log from page to page, so it keeps the
    /// kernel's fault-around (`readsInOrder`), which maps the next pages with each fault, unless it makes
    /// the search index: it then writes the codes' counts to their table every 131,072 codes, each time
    /// touching nearly every leaf, and with fault-around each touch mapped the 2 MiB folio around it: spikes
    /// of 100 MB between two of the pager's drops at ten million events (docs/SCALE.md).
    private func rebuild(keepingScanList: Bool, keepingIndex: Bool, keepingCodes: Bool,
                         progress: (UInt64) -> Void) throws -> (events: UInt64, keptCodes: Bool) {
        try log.environment.write(large: true, readsInOrder: keepingScanList && keepingIndex) { txn in
            let tables = StoredTables(transaction: txn, databases: modelDatabases)
            let keepsIndex = keepingScanList && keepingIndex
            if keepsIndex, try !Models(tables: tables, log: LogReader(log: log, transaction: txn)).searchIndexMayBeKept() {
                throw SearchIndexNotKept()
            }
            // The stored `codes` table is read on a thread of its own, in a read transaction (which sees the
            // tables as this one found them: `KeptCodes.read` audits the pages of a committed snapshot), while the
            // threads below start.
            let storedCodes = keepingScanList && keepingCodes ? Pipeline<KeptCodes?> { [log] emit in
                try log.environment.read { txn in _ = emit(try KeptCodes.read(txn, makingSearchIndex: !keepsIndex)) }
            } : nil
            defer { storedCodes?.cancel() }
            let reader = LogReader(log: log, transaction: txn)
            let through = try reader.head().seq
            // A thread of its own checks the stored Merkle tree against the log meanwhile; it is written again
            // only when it is not the log's (`ProofStore.treeMatches`).
            let storedTree = Pipeline<Bool> { [log, proofs] emit in
                try log.read { reader in _ = emit(try proofs.treeMatches(reader, through: through)) }
            }
            defer { storedTree.cancel() }
            let storedIndex = keepsIndex ? Pipeline<Bool> { [self] emit in _ = emit(try searchIndexPagesAreSound()) } : nil
            defer { storedIndex?.cancel() }
            // Another thread sums the stored scan list meanwhile: a read transaction sees the models as they
            // were before this one.
            // A list whose leaves sum right but whose branch keys a lookup can not follow (a damaged page that
            // a walk never notices, but every read by key does) is written again too.
            let storedScanList = keepingScanList ? Pipeline<ScanListDigest> { [log, modelDatabases] emit in
                try log.environment.read { txn in
                    guard let digest = try ScanListDigest(of: StoredTables(transaction: txn, databases: modelDatabases)) else {
                        throw StaleScanList()
                    }
                    _ = emit(digest)
                }
            } : nil
            defer { storedScanList?.cancel() }
            let keptCodes = try storedCodes?.next()?.take() ?? nil
            let kept = keepingScanList ? Models.scanListTables + (keepsIndex ? [.search] : []) + (keptCodes != nil ? [.codes] : []) : []
            try tables.drop(ModelTable.allCases.filter { !kept.contains($0) })
            // The stored list is checked (`CheckedScanList`), or written again like the store's own.
            let checked = keepingScanList
                ? keptCodes.map(CheckedScanList.init(keeping:)) ?? CheckedScanList(makingSearchIndex: !keepsIndex) : nil
            let models = checked.map { Models(tables: tables, scans: reader, scanList: $0) } ?? Models(tables: tables, log: reader)
            models.snapshotInterval = snapshotInterval
            if keepsIndex { models.keepStoredSearchIndex() }
            // A list checked beside an index kept needs no row of a scan, only its hashes.
            let fed = keepsIndex
                ? try feed(models, HashedRowFeed.self, through: through, notAfter: nil, releasing: txn, progress: progress)
                : try feed(models, RowFeed.self, through: through, notAfter: nil, releasing: txn, progress: progress)
            // The list's digest is taken with the kept codes' counts: right only if they are.
            if let checked, !checked.keptCodesHold { throw CodesNotKept() }
            if let storedScanList, let checked, try storedScanList.next()?.take() != checked.digest { throw StaleScanList() }
            if let storedIndex, try storedIndex.next()?.take() != true { throw SearchIndexNotKept() }
            if try storedTree.next()?.take() != true { try proofs.rebuildTree(reader, head: through) }
            try models.flush()
            if keepsIndex { try models.completeKeptSearchIndex() }
            try models.markSearchIndexReady()
            return (fed.count, keptCodes != nil)
        }
    }

    /// Whether the search index's table passes the page audit (`PageAudit`) with its sets' checks.
    private func searchIndexPagesAreSound() throws -> Bool {
        for _ in 0..<8 {
            do {
                return try log.environment.read { txn in
                    let head = try LogReader(log: log, transaction: txn).head().seq
                    return try PageAudit.run(txn, only: ModelTable.search.name) { name in
                        ModelTable.recordCheck(forTableNamed: name, head: head)
                    }.isEmpty
                }
            } catch is SnapshotMoved {
                continue
            }
        }
        return false
    }

    /// Replays the events of a prefix of the log into in-memory models over the stored ones (which lend
    /// their scan list): those with `seq ≤ through` and `at ≤ notAfter` (a prefix, since time never runs
    /// backwards in the log).
    ///
    /// It starts from the last snapshot of the small models at or before the prefix's end
    /// (`Models.snapshotIfDue`), so it replays at most `Models.snapshotInterval` events.
    public func replay(_ reader: LogReader, over stored: Models, through: UInt64,
                       notAfter: Timestamp?) throws -> (models: Models, last: (seq: UInt64, at: Timestamp)?) {
        try replay(reader, over: stored, through: through, notAfter: notAfter, fromSnapshot: true)
    }

    /// The same, from the last snapshot or (`fromSnapshot` false: the tests' oracle) from the first event.
    func replay(_ reader: LogReader, over stored: Models, through: UInt64, notAfter: Timestamp?,
                fromSnapshot: Bool) throws -> (models: Models, last: (seq: UInt64, at: Timestamp)?) {
        var end = min(through, try reader.head().seq)
        if let notAfter { end = try reader.lastSeq(atOrBefore: notAfter, head: end) }
        let start = fromSnapshot ? try stored.lastSnapshot(atOrBefore: end) : nil
        let models = try start.map { try Models.replaying(over: stored, fromSnapshot: $0, log: reader) }
            ?? Models.replaying(over: stored.tables, log: reader)
        let fed = try feed(models, CountFeed.self, from: (start ?? 0) + 1, through: end, notAfter: nil,
                           releasing: reader.transaction)
        guard fed.last == nil, let start else { return (models, fed.last) }
        guard let at = try reader.storedAt(at: start) else { throw StoreError("event \(start) is missing from the log") }
        return (models, (start, at))
    }

    /// The one loop that replays the log into models, for a rebuild and a replay alike: the events with
    /// `seq ≤ through` (and `at ≤ notAfter`, when given) in order. `Feed` reads the scans, nearly all of a
    /// log, as far as the models' scan list needs them (`ScanFeed`).
    ///
    /// The events are read and decoded on a second thread, in a read transaction of its own: the log never
    /// changes below its head, so that transaction reads the same events as the caller's. The pages that
    /// `txn` read at random (a report reads its scan's row and event) are released every
    /// `PageRelease.appliedEvents`, or much of the store would stay mapped in.
    private func feed<Feed: ScanFeed>(_ models: Models, _: Feed.Type, from: UInt64 = 1, through: UInt64, notAfter: Timestamp?,
                                      releasing txn: Transaction, progress: (UInt64) -> Void = { _ in })
        throws -> (count: UInt64, last: (seq: UInt64, at: Timestamp)?) {
        let events = Pipeline<FedEvent<Feed.Scan>> { [log] emit in
            try log.read { reader in
                try reader.forEachRecord(from: from, through: through) { seq, bytes in
                    if let notAfter {
                        guard let at = StoredEvent.at(in: bytes) else { throw StoreError("the stored event at seq \(seq) is damaged") }
                        if at > notAfter { return false }
                    }
                    if let scan = try reader.decodingErrors(seq: seq, { () throws(FieldError) in try Feed.read(bytes, seq: seq) }) {
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
            // Read in place: the blocks the decoding thread allocated for each item (a prepared scan's row)
            // are freed on that thread when it fills the batch again (`Pipeline`). Items taken out of the
            // batch were freed on this thread, each free waiting for the lock of the decoder's arena: a tenth
            // of this thread's time in a 10M rebuild (docs/BULK.md). The switch still copies the item, a
            // retain of each array and string it holds: little once a scan holds none (`HashedRowFeed`).
            try batch.forEach { item in
                switch item {
                case let .scan(scan, seq):
                    last = (seq, try Feed.apply(scan, seq: seq, to: models))
                case let .event(logged):
                    try models.apply(logged)
                    last = (logged.seq, logged.event.at)
                }
            }
            count += UInt64(batch.count)
            progress(count)
            if PageRelease.passed(PageRelease.appliedEvents, count: count, batch: batch.count) { txn.releaseReadPages() }
        }
        return (count, last)
    }
}

/// An event as the replay loop reads it: a scan as far as the models' scan list needs it, any other event
/// whole.
private enum FedEvent<Scan> {
    case scan(Scan, seq: UInt64)
    case event(LoggedEvent)
}
