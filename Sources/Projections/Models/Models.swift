import Crypto
public import Domain
public import EventLog

/// The read models over a set of tables: typed access to their records with a write-back cache, what the
/// rules need to know (`RuleState`), and `apply`, which hands each event to the projectors of the views it
/// changes (`AccountsProjector`, `ScansProjector`, `MonthsProjector`, `TotalsProjector`).
///
/// Hot records (accounts, stats, months, totals) are decoded once and kept until `flush`, so importing a
/// million scans does not decode the acting account a million times.
///
/// The same projectors serve the store's own models, kept event by event in the log's write transaction; a
/// rebuild; and a replay of a prefix of the log (`replaying(over:log:)`). What differs between the three is
/// how the scan list is kept, a strategy the engine picks when it makes the models (`ScanListStrategy`);
/// nothing else knows which it is.
public final class Models: RuleState {
    public let tables: any ModelTables
    /// Where a scan row's scan is read (the rows do not copy it): the log, in the same transaction.
    let scans: any RecordedScans
    /// How the scan list and its indexes are kept.
    public let scanList: any ScanListStrategy
    /// Whether the models keep the store's indexes of the log: the search index (`searchIndex`) and the
    /// snapshots (`snapshotIfDue`); not a replay's, which borrows them.
    let keepsIndexes: Bool
    let searchIndex: SearchIndexWriter?
    /// How many events apart the snapshots are (tests take them more often than a store does).
    public var snapshotInterval = Models.defaultSnapshotInterval
    // The caches below change with every event an import or a rebuild applies, and a class's stored property
    // is checked for overlapping access at run time on each change (`swift_beginAccess`: about 5 % of a 10M
    // rebuild's applying thread, docs/BULK.md). They are `@exclusivity(unchecked)`: each access is a change in
    // place by a closure of a projector that reaches nothing else of the models (`update(stats:_:)`,
    // `update(_:_:_:)`, `updateTotals`), or a read, so no two overlap.
    @exclusivity(unchecked) var accountCache = RecordCache<String, AccountRecord>()
    @exclusivity(unchecked) var statsCache = RecordCache<StatsScope, StatsRecord>()
    @exclusivity(unchecked) var monthCache = RecordCache<UserMonthKey, UserMonthRecord>()
    /// The totals, once read (`totalsLoaded`), kept as a plain value so that they change in place.
    @exclusivity(unchecked) private var cachedTotals = LogTotals()
    @exclusivity(unchecked) private var totalsLoaded = false
    @exclusivity(unchecked) private var totalsDirty = false

    /// The tables a rebuild checks instead of emptying: the scan list and its indexes, nearly all of the
    /// models' pages.
    public static let scanListTables: [ModelTable] = [.scans, .scanIds, .scansByActor]

    /// The models over `tables`, the scan list kept by `scanList` (by default written row by row: the
    /// store's own models, kept event by event); `scans` gives a row's scan.
    public init(tables: any ModelTables, scans: any RecordedScans, scanList: any ScanListStrategy = WrittenScanList(),
                indexing: Bool = true) {
        self.tables = tables
        self.scans = scans
        self.scanList = scanList
        keepsIndexes = indexing
        searchIndex = indexing ? SearchIndexWriter() : nil
    }

    /// The store's models over `tables`, kept event by event.
    public convenience init(tables: any ModelTables, log: LogReader) {
        self.init(tables: tables, scans: log)
    }

    /// Empty models for replaying a prefix of the log read by `log`, whose stored models are `stored`
    /// (the same snapshot): everything is built in memory but the scan list, which is borrowed.
    public static func replaying(over stored: any ModelTables, log: any RecordedScans) -> Models {
        Models(tables: ReplayTables(stored: stored), scans: log, scanList: BorrowedScanList(), indexing: false)
    }

    // MARK: Applying events

    /// Changes the models by one event that has passed the rules and is in the log at `logged.seq`.
    /// `prepared` is the event's scan made ready on another thread before its seq was known (an import's
    /// decoding thread: `PreparedScan.init(at:actor:scan:)`), when it is a scan.
    public func apply(_ logged: LoggedEvent, prepared: PreparedScan? = nil) throws {
        let e = logged.event
        scanList.willApply(seq: logged.seq)
        try TotalsProjector.count(e.type, at: e.at, in: self)
        switch e.payload {
        case .accountRegistered(let p): try AccountsProjector.apply(p, at: e.at, by: e.actor, in: self)
        case .accountUpdated(let p): try AccountsProjector.apply(p, in: self)
        case .accountDeleted(let p): try AccountsProjector.apply(p, in: self)
        case .passcodeSet(let p): try AccountsProjector.apply(p, at: e.at, in: self)
        case .passcodeAttempted(let p): try AccountsProjector.apply(p, at: e.at, in: self)
        case .settingsChanged(let p): try AccountsProjector.apply(p, in: self)
        case .searchPerformed(let p): try AccountsProjector.apply(p, in: self)
        case .statusChanged(let p): try AccountsProjector.apply(p, at: e.at, by: e.actor, in: self)
        case .fitnessUpdated(let p): try AccountsProjector.apply(p, in: self)
        case .scanRecorded(let p):
            let counted = prepared?.counted
                ?? CountedScan(at: e.at, actor: e.actor, category: p.category, isCounterfeit: p.result == .counterfeit)
            try ScansProjector.apply(counted, seq: logged.seq, in: self) {
                prepared ?? PreparedScan(at: e.at, actor: e.actor, scan: p)
            }
        case .counterfeitReported(let p): try ScansProjector.apply(p, seq: logged.seq, at: e.at, by: e.actor, in: self)
        case .goalSet(let p): try MonthsProjector.apply(p, in: self)
        case .sessionRecorded(let p): try MonthsProjector.apply(p, seq: logged.seq, in: self)
        }
        try snapshotIfDue(after: logged.seq)
    }

    /// Applies a scan made ready on another thread (a rebuild): the same as `apply(_:)` with its event.
    public func apply(_ scan: PreparedScan) throws {
        scanList.willApply(seq: scan.seq)
        try TotalsProjector.count(.scanRecorded, at: scan.counted.at, in: self)
        try ScansProjector.apply(scan.counted, seq: scan.seq, in: self) { scan }
        try snapshotIfDue(after: scan.seq)
    }

    /// Applies a scan known by its counts only (a replay, whose scan list is borrowed: its rows are
    /// stored already).
    public func apply(counted scan: CountedScan, seq: UInt64) throws {
        scanList.willApply(seq: seq)
        try TotalsProjector.count(.scanRecorded, at: scan.at, in: self)
        try ScansProjector.apply(scan, seq: seq, in: self) {
            preconditionFailure("a scan list that writes rows needs the scan's row (apply(_:) with a PreparedScan)")
        }
    }

    /// Writes every changed record to the tables.
    public func flush() throws {
        try scanList.flush(tables)
        try searchIndex?.write(to: tables)
        try flushRecords()
    }

    /// Writes every changed record but the scan list's and the search index's.
    func flushRecords() throws {
        try accountCache.writeChanged { name, record in try tables.put(.accounts, Array(name.utf8), record.encoded()) }
        try statsCache.writeChanged { scope, record in try tables.put(.stats, scope.storedKey, record.encoded()) }
        try monthCache.writeChanged { key, record in try tables.put(.userMonths, key.storedKey, record.encoded()) }
        if totalsDirty { try tables.put(.meta, Array("totals".utf8), cachedTotals.encoded()) }
        totalsDirty = false
    }

    // MARK: Records

    public func account(_ username: String) throws -> AccountRecord? {
        if let cached = accountCache[username] { return cached }
        let record = try tables.withValue(.accounts, Array(username.utf8)) { bytes in
            try bytes.map { b throws(FieldError) in try AccountRecord(decoding: b) }
        }
        if let record { accountCache.loaded(username, record) }
        return record
    }

    func put(_ record: AccountRecord) { accountCache.put(record.username, record) }

    /// Every account, by username, each with as much of its status history as `history` says (the records
    /// changed in this transaction whole).
    public func allAccounts(history: AccountRecord.HistoryKept) throws -> [AccountRecord] {
        var stored: [String: AccountRecord] = [:]
        try tables.forEach(.accounts, prefix: []) { key, value in
            let name = String(decoding: key, as: UTF8.self)
            stored[name] = try AccountRecord(decoding: value, history: history)
            return true
        }
        for name in accountCache.keys { stored[name] = accountCache[name] }
        return stored.values.sorted { $0.username.utf8.lexicographicallyPrecedes($1.username.utf8) }
    }

    public func stats(_ scope: StatsScope) throws -> StatsRecord {
        if let cached = statsCache[scope] { return cached }
        let record = try tables.withValue(.stats, scope.storedKey) { bytes in
            try bytes.map { b throws(FieldError) in try StatsRecord(decoding: b) }
        } ?? StatsRecord()
        statsCache.loaded(scope, record)
        return record
    }

    /// Changes a stats record in place in the cache (no copy of its category list).
    func update(stats scope: StatsScope, _ change: (inout StatsRecord) -> Void) throws {
        if statsCache.update(scope, change) { return }
        _ = try stats(scope)
        _ = statsCache.update(scope, change)
    }

    public func userMonth(_ username: String, _ month: Month) throws -> UserMonthRecord? {
        let key = UserMonthKey(username: username, month: month.index)
        if let cached = monthCache[key] { return cached }
        let record = try tables.withValue(.userMonths, key.storedKey) { bytes in
            try bytes.map { b throws(FieldError) in try UserMonthRecord(decoding: b) }
        }
        if let record { monthCache.loaded(key, record) }
        return record
    }

    /// Changes a month record in place in the cache.
    func update(_ username: String, _ month: Month, _ change: (inout UserMonthRecord) -> Void) throws {
        let key = UserMonthKey(username: username, month: month.index)
        if monthCache.update(key, change) { return }
        var record = try userMonth(username, month) ?? UserMonthRecord()
        change(&record)
        monthCache.put(key, record)
    }

    /// The months for which `username` has a record, newest first.
    public func months(of username: String) throws -> [Month] {
        var prefix = Array(username.utf8)
        prefix.append(0)
        var months: Set<Int> = []
        try tables.forEach(.userMonths, prefix: prefix) { key, _ in
            months.insert(Int(key[prefix.count...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
            return true
        }
        for key in monthCache.keys where sameBytes(key.username, username) { months.insert(key.month) }
        return months.sorted(by: >).map(Month.init(index:))
    }

    /// Whether the search index holds every scan, in a form queries read (`SearchIndex.readableKeys`): a
    /// store written before it had one answers by reading rows until `rebuild`.
    public func searchIndexIsReady() throws -> Bool {
        try searchIndexForm() != nil
    }

    /// The form of the search index when it holds every scan in a form queries read (`SearchIndex.readableForms`),
    /// else nil.
    func searchIndexForm() throws -> Int? {
        for form in SearchIndex.readableForms where try tables.withValue(.search, SearchIndex.readyKey(form: form), { $0 != nil }) {
            return form
        }
        return nil
    }

    /// Whether the search index holds every scan in the current form (`SearchIndex.readyKey`): only such an
    /// index is kept by a rebuild.
    public func searchIndexIsCurrent() throws -> Bool {
        try tables.withValue(.search, SearchIndex.readyKey) { $0 != nil }
    }

    /// Whether a rebuild may keep the stored search index (when it is sound, `Store.rebuild`): one of the current
    /// form; or of form 11, which differs only in never leaving scans out (`SearchIndex.unindexedKey`); or of
    /// form 10, which lacks only the reports' lists (`SearchIndex.reportSeqs`) that the rebuild then makes from
    /// the rows (`completeKeptSearchIndex`), seconds at ten million scans where making the whole index again
    /// takes minutes.
    public func searchIndexMayBeKept() throws -> Bool {
        guard let form = try searchIndexForm() else { return false }
        return form == SearchIndex.currentForm || form == 11 || form == 10
    }

    /// Brings a search index a rebuild kept to the current form: an index of form 10 gets every chunk's list of
    /// reports from the scan rows (`SearchIndexWriter.listReports`), and the mark of an older form is taken away
    /// (the rebuild marks the index current, `markSearchIndexReady`).
    public func completeKeptSearchIndex() throws {
        guard let form = try searchIndexForm(), form != SearchIndex.currentForm else { return }
        if form == 10 { try SearchIndexWriter.listReports(fromRowsIn: tables) }
        try tables.delete(.search, SearchIndex.readyKey(form: form))
    }

    /// The first of the newest scans the search index leaves out for now (`SearchIndex.unindexedKey`), whose
    /// rows a query reads; nil when it leaves out none. A mark that does not read leaves every scan to its
    /// row (the first), the answers right until `rebuild` makes the index again (`log verify` finds it).
    func firstUnindexedScan() throws -> UInt32? {
        try tables.withValue(.search, SearchIndex.unindexedKey) { value in
            guard let value else { return nil }
            return UnindexedScans(stored: value)?.first ?? 1
        }
    }

    /// Makes a rebuild keep the stored search index as it is, adding no scan to it (the index must be one a
    /// rebuild may keep, `searchIndexMayBeKept`, and sound: `Store.rebuild`).
    public func keepStoredSearchIndex() {
        searchIndex?.keepsStoredSets = true
    }

    /// Makes this write leave the chunks it fills to a later write to make their pieces again (`DuePieces`): a
    /// served store's, whose remaker makes them from a read snapshot (`remadePieces`, `storeRemadePieces`).
    /// A write that does not defer makes the pieces of every chunk due itself.
    public func deferChunkPieces() {
        searchIndex?.defersPieces = true
    }

    /// Whether this write, now flushed, left chunks due, one of them filled by it: the remaker's cue.
    public var leftChunkPiecesDue: Bool { searchIndex?.leftPiecesDue ?? false }

    /// The full chunks whose pieces are due (`DuePieces`), oldest first; none when the mark does not read.
    public func chunksWithPiecesDue() throws -> [UInt32] {
        try tables.withValue(.search, SearchIndex.piecesDueKey) { value in value.flatMap { DuePieces.chunks(stored: $0) } ?? [] }
    }

    /// The pieces of full chunk `chunk` counted again from its rows as these tables hold them, the log's
    /// head being event `head`: a read snapshot's, off the write.
    public func remadePieces(of chunk: UInt32, head: UInt64) throws -> RemadePieces {
        try RemadePieces(of: chunk, in: tables, through: head)
    }

    /// Stores `pieces` (`remadePieces`) when this write flushes, if their chunk is due still.
    public func storeRemadePieces(_ pieces: RemadePieces) {
        searchIndex?.storeRemade(pieces)
    }

    /// Marks the search index as holding every scan: a new store's first write, and a rebuild.
    public func markSearchIndexReady() throws {
        try tables.put(.search, SearchIndex.readyKey, [])
    }

    public func totals() throws -> LogTotals {
        if totalsLoaded { return cachedTotals }
        cachedTotals = try tables.withValue(.meta, Array("totals".utf8)) { bytes in
            try bytes.map { b throws(FieldError) in try LogTotals(decoding: b) }
        } ?? LogTotals()
        totalsLoaded = true
        return cachedTotals
    }

    /// Changes the totals in place (no copy of the per-type counts).
    func updateTotals(_ change: (inout LogTotals) -> Void) throws {
        if !totalsLoaded { _ = try totals() }
        change(&cachedTotals)
        totalsDirty = true
    }

    static func digestKey(_ text: String, bytes: Int) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.utf8)).prefix(bytes))
    }

    // MARK: RuleState

    public func accountFacts(_ username: String) throws -> AccountFacts? {
        if let facts = accountCache.read(username, { $0.facts }) { return facts }
        return try account(username)?.facts
    }

    public func emailOwner(_ email: String) throws -> String? {
        try tables.withValue(.emails, AccountsProjector.emailKey(email)) { bytes in
            bytes.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    public func scanIsReported(_ scanId: String) throws -> Bool? {
        guard let ordinal = try scanOrdinal(scanId) else { return nil }
        return try withScanHeader(ordinal) { $0.isReported }
    }

    public func hasSession(username: String, sessionId: String) throws -> Bool {
        try tables.withValue(.sessions, Models.sessionKey(username, sessionId)) { $0 != nil }
    }

    public func activeAdminCount() throws -> Int { try totals().activeAdmins }

    public func lastAt() throws -> Timestamp? { try totals().lastAt }
}

/// Where the models read the scan a row stands for: rows keep its seq, not the scan (`ScanRow`).
public protocol RecordedScans {
    /// The scan recorded at `seq`, or nil when the event there is no scan.
    func recordedScan(at seq: UInt64) throws -> ScanRecorded?
}

extension LogReader: RecordedScans {
    public func recordedScan(at seq: UInt64) throws -> ScanRecorded? {
        guard case .scanRecorded(let scan)? = try event(at: seq)?.event.payload else { return nil }
        return scan
    }
}
