import Crypto
import Domain
import EventLog

/// The read models over a set of tables: typed access with a write-back cache, how each event changes
/// them (`apply`), and what the rules need to know (`RuleState`).
///
/// Hot records (accounts, stats, months, totals) are decoded once and kept until `flush`, so importing a
/// million scans does not decode the acting account a million times.
///
/// The models are the store's own, kept event by event in the log's write transaction (every table
/// written); or the store's own recomputed by `rebuilding(over:log:)`; or a replay of a prefix of the log
/// (`replaying(over:log:)`). A replay borrows the scan list and its indexes from the store instead of
/// building them again: the list only grows, so the prefix's scans are the first rows of the stored list,
/// read as they were then (`reportsThrough`).
public final class Models: RuleState {
    public let tables: ModelTables
    /// The log the models are of, in the same transaction: scan rows read their scan from it.
    public let log: LogReader
    private let mode: Mode
    /// The last seq applied to a replay; a stored row's report made after it is left out.
    private var reportsThrough: UInt64 = .max
    private var accountCache = RecordCache<String, AccountRecord>()
    private var statsCache = RecordCache<StatsScope, StatsRecord>()
    private var monthCache = RecordCache<UserMonthKey, UserMonthRecord>()
    private var cachedTotals: LogTotals?
    private var totalsDirty = false
    private var pending = PendingIndexes()
    /// The codes the `codes` table may hold, from the first time this write's held codes are written
    /// (a large write: `CodeFilter`).
    private var codeFilter: CodeFilter?
    /// In a rebuild, the digest of the scan list as the log gives it, to check the stored one against.
    public private(set) var scanListDigest = ScanListDigest()
    /// What follows a new scan's row header (`ScanRow.appendTail`), made in the same buffer each time.
    private var tailBuffer: [UInt8] = []

    private enum Mode {
        /// The store's models, kept event by event: every table written.
        case kept
        /// The store's models recomputed from the log, but for the scan list (`scanListTables`), which is
        /// left as stored and only summed (`scanListDigest`) for the rebuild to check; every other table
        /// starts empty.
        case rebuilding
        /// A replay of a prefix in memory over the stored scan list and its indexes, which are only read.
        case replaying
    }

    /// The tables a rebuild checks instead of emptying: the scan list and its indexes, nearly all of the
    /// models' pages.
    public static let scanListTables: [ModelTable] = [.scans, .scanIds, .scansByActor]

    /// The store's models over `tables`, kept event by event.
    public convenience init(tables: ModelTables, log: LogReader) {
        self.init(tables: tables, log: log, mode: .kept)
    }

    private init(tables: ModelTables, log: LogReader, mode: Mode) {
        self.tables = tables
        self.log = log
        self.mode = mode
        if mode == .replaying { reportsThrough = 0 }
    }

    /// Models that recompute the store's own from the log read by `log`: `tables` holds the stored scan list
    /// and its indexes (`scanListTables`), which are read only where an event needs them and are summed
    /// as the log gives them (`scanListDigest`), and every other table empty. When the sum differs from the
    /// stored list's, the stored list is stale and the rebuild must start over with every table emptied.
    /// `codes` is about how many distinct codes the log has (the stored table's count), so that holding
    /// them all never has to grow.
    public static func rebuilding(over tables: ModelTables, log: LogReader, codes: Int) -> Models {
        let models = Models(tables: tables, log: log, mode: .rebuilding)
        models.pending.codeCounts.reserveCapacity(codes)
        return models
    }

    /// Empty models for replaying a prefix of the log read by `log`, whose stored models are `stored`
    /// (the same snapshot): everything is built in memory but the scan list, which is borrowed.
    public static func replaying(over stored: ModelTables, log: LogReader) -> Models {
        Models(tables: ReplayTables(stored: stored), log: log, mode: .replaying)
    }

    // MARK: Typed access

    public func account(_ username: String) throws -> AccountRecord? {
        if let cached = accountCache[username] { return cached }
        let record = try tables.withValue(.accounts, Array(username.utf8)) { bytes in
            try bytes.map { b throws(FieldError) in try AccountRecord(decoding: b) }
        }
        if let record { accountCache.loaded(username, record) }
        return record
    }

    func put(_ record: AccountRecord) { accountCache.put(record.username, record) }

    /// Every account, by username.
    public func allAccounts() throws -> [AccountRecord] {
        var stored: [String: AccountRecord] = [:]
        try tables.forEach(.accounts, prefix: []) { key, value in
            let name = String(decoding: key, as: UTF8.self)
            stored[name] = try AccountRecord(decoding: value)
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
    private func update(stats scope: StatsScope, _ change: (inout StatsRecord) -> Void) throws {
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
    private func update(_ username: String, _ month: Month, _ change: (inout UserMonthRecord) -> Void) throws {
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

    public func totals() throws -> LogTotals {
        if let cachedTotals { return cachedTotals }
        let record = try tables.withValue(.meta, Array("totals".utf8)) { bytes in
            try bytes.map { b throws(FieldError) in try LogTotals(decoding: b) }
        } ?? LogTotals()
        cachedTotals = record
        return record
    }

    /// Changes the totals in place (no copy of the per-type counts).
    private func updateTotals(_ change: (inout LogTotals) -> Void) throws {
        if cachedTotals == nil { _ = try totals() }
        change(&cachedTotals!)
        totalsDirty = true
    }

    /// Writes the index entries held in `pending`, in key order; `midWrite` when the write goes on after
    /// (the held codes reached their limit).
    private func writePendingIndexes(midWrite: Bool = false) throws {
        guard !pending.isEmpty else { return }
        let codes = pending.codeCounts.sorted { $0.key < $1.key }
        var codeEntries = SortedEntries(keyWidth: 16, valueWidth: 4, capacity: codes.count)
        for (digest, count) in codes {
            codeEntries.append { bytes in
                digest.appendStoredKey(to: &bytes)
                count.appendBigEndianBytes(to: &bytes)
            }
        }
        try tables.put(.codes, sorted: codeEntries)
        // The filter is made when a write first reaches the limit, after the codes are written (from the
        // table, which holds them), not when a small write ends (it would read the whole table); once made,
        // it is kept up to date.
        if codeFilter != nil && codeFilter!.count + codes.count <= codeFilter!.capacity {
            for (digest, _) in codes { codeFilter!.insert(digest) }
        } else if codeFilter != nil || midWrite {
            try makeCodeFilter(holding: codes.count)
        }
        for (actor, added) in pending.actorScans.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            var entries = SortedEntries(keyWidth: actor.utf8.count + 5, valueWidth: 4, capacity: added.ordinals.count)
            for (i, ordinal) in added.ordinals.enumerated() {
                entries.append { bytes in
                    Models.appendActorScanKey(actor, added.firstN + UInt32(i), to: &bytes)
                    ordinal.appendBigEndianBytes(to: &bytes)
                }
            }
            try tables.put(.scansByActor, sorted: entries)
        }
        pending = PendingIndexes()
    }

    /// Writes every changed record to the tables.
    public func flush() throws {
        try writePendingIndexes()
        try accountCache.writeChanged { name, record in try tables.put(.accounts, Array(name.utf8), record.encoded()) }
        try statsCache.writeChanged { scope, record in try tables.put(.stats, scope.storedKey, record.encoded()) }
        try monthCache.writeChanged { key, record in try tables.put(.userMonths, key.storedKey, record.encoded()) }
        if totalsDirty, let cachedTotals { try tables.put(.meta, Array("totals".utf8), cachedTotals.encoded()) }
        totalsDirty = false
    }

    // MARK: Scans

    static func ordinalKey(_ ordinal: UInt32) -> [UInt8] { ordinal.bigEndianBytes }

    public func scanCount() throws -> UInt32 { try totals().scans }

    /// Calls `body` with the stored row of scan `ordinal` (1-based).
    private func withScanRow<R>(_ ordinal: UInt32, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try tables.withValue(.scans, Models.ordinalKey(ordinal)) { bytes in
            guard let bytes else { throw FieldError(path: "scan \(ordinal)", rule: "missing from the read models") }
            return try body(bytes)
        }
    }

    /// Calls `body` with the header of scan `ordinal`, as the models see it (see `ScanRowHeader`).
    func withScanHeader<R>(_ ordinal: UInt32, _ body: (ScanRowHeader) throws -> R) throws -> R {
        try withScanRow(ordinal) { bytes in try body(try ScanRowHeader(bytes, reportsThrough: reportsThrough)) }
    }

    /// The `at` of scan `ordinal`.
    func scanAt(_ ordinal: UInt32) throws -> Timestamp {
        try withScanRow(ordinal) { ScanRowHeader.at($0) }
    }

    public func scanRow(_ ordinal: UInt32) throws -> ScanRow {
        try withScanRow(ordinal) { bytes in
            try ScanRow(decoding: bytes, reportsThrough: reportsThrough, scan: recordedScan)
        }
    }

    /// The scan recorded at `seq` in the log.
    private func recordedScan(at seq: UInt64) throws -> ScanRecorded {
        guard case .scanRecorded(let scan)? = try log.event(at: seq)?.event.payload else {
            throw FieldError(path: "seq \(seq)", rule: "the read models list a scan there, but the log has no scan")
        }
        return scan
    }

    public func scanOrdinal(_ scanId: String) throws -> UInt32? {
        let ordinal = try tables.withValue(.scanIds, Array(scanId.utf8)) { bytes in
            bytes.flatMap { UInt32(bigEndianBytes: $0) }
        }
        // A borrowed list holds the scans after the replayed prefix too.
        guard let ordinal, ordinal <= (try scanCount()) else { return nil }
        return ordinal
    }

    /// How many scans `actor` recorded.
    public func scanCount(actor: String) throws -> UInt32 { UInt32(try stats(.actor(actor)).total) }

    static func actorScanKey(_ actor: String, _ n: UInt32) -> [UInt8] {
        var key: [UInt8] = []
        appendActorScanKey(actor, n, to: &key)
        return key
    }

    /// The key of `actor`'s `n`-th scan in `scansByActor`: the actor, a 0 byte, `n` big-endian.
    static func appendActorScanKey(_ actor: String, _ n: UInt32, to key: inout [UInt8]) {
        key.append(contentsOf: actor.utf8)
        key.append(0)
        n.appendBigEndianBytes(to: &key)
    }

    /// The ordinal of `actor`'s `n`-th scan (1-based).
    public func scanOrdinal(actor: String, _ n: UInt32) throws -> UInt32 {
        if let added = pending.actorScans[actor], n >= added.firstN, n - added.firstN < added.ordinals.count {
            return added.ordinals[Int(n - added.firstN)]
        }
        return try tables.withValue(.scansByActor, Models.actorScanKey(actor, n)) { bytes in
            guard let bytes, let ordinal = UInt32(bigEndianBytes: bytes) else {
                throw FieldError(path: "scansByActor", rule: "missing from the read models")
            }
            return ordinal
        }
    }

    /// A code filter of every code in the `codes` table, which holds the codes of the filter before (if
    /// any) and `more`, with room for as many again (and at least a million): the table is read once, and
    /// again only when the filter is full. (A table with codes from before this write may hold more: the
    /// filter is then full sooner, and made again.)
    private func makeCodeFilter(holding more: Int) throws {
        var filter = CodeFilter(capacity: max(2 * ((codeFilter?.count ?? 0) + more), 1 << 20))
        try tables.forEach(.codes, prefix: []) { key, _ in
            key.withUnsafeBytes { filter.insert(CodeDigest(storedKey: $0)) }
            return true
        }
        codeFilter = filter
    }

    /// How many scans had the code with this digest.
    private func codeCount(_ digest: CodeDigest) throws -> UInt32 {
        if let count = pending.codeCounts[digest] { return count }
        if let codeFilter, !codeFilter.mayContain(digest) { return 0 }
        return try tables.withValue(.codes, digest.storedKey) { bytes in bytes.flatMap { UInt32(bigEndianBytes: $0) } } ?? 0
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
        try tables.withValue(.emails, Models.digestKey(CaseFolding.lowercased(email), bytes: 32)) { bytes in
            bytes.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    public func scanIsReported(_ scanId: String) throws -> Bool? {
        guard let ordinal = try scanOrdinal(scanId) else { return nil }
        return try withScanHeader(ordinal) { $0.isReported }
    }

    static func sessionKey(_ username: String, _ sessionId: String) -> [UInt8] {
        var key = Array(username.utf8)
        key.append(0)
        key.append(contentsOf: sessionId.utf8)
        return key
    }

    public func hasSession(username: String, sessionId: String) throws -> Bool {
        try tables.withValue(.sessions, Models.sessionKey(username, sessionId)) { $0 != nil }
    }

    public func activeAdminCount() throws -> Int { try totals().activeAdmins }

    public func lastAt() throws -> Timestamp? { try totals().lastAt }

    // MARK: Applying events

    /// Changes the models by one event that has passed the rules and is in the log at `logged.seq`.
    /// `prepared` is the event's scan made ready on another thread before its seq was known (an import's
    /// decoding thread: `PreparedScan.init(at:actor:scan:)`), when it is a scan.
    public func apply(_ logged: LoggedEvent, prepared: PreparedScan? = nil) throws {
        let e = logged.event
        try count(e.type, at: e.at, seq: logged.seq)
        switch e.payload {
        case .accountRegistered(let p):
            put(AccountRecord(registered: p, at: e.at, by: e.actor))
            try tables.put(.emails, Models.digestKey(CaseFolding.lowercased(p.email), bytes: 32), Array(p.username.utf8))
            if p.role == .admin { try updateTotals { $0.activeAdmins += 1 } }

        case .accountUpdated(let p):
            guard var a = try account(p.username) else { return }
            if let v = p.name { a.name = v }
            if let v = p.phone { a.phone = v }
            if let v = p.website { a.website = v }
            if let v = p.address { a.address = v }
            if let v = p.geo { a.geo = v }
            if let v = p.company { a.company = v }
            put(a)

        case .accountDeleted(let p):
            guard var a = try account(p.username) else { return }
            a.deleted = true
            put(a)
            try tables.delete(.emails, Models.digestKey(CaseFolding.lowercased(a.email), bytes: 32))
            if a.role == .admin { try updateTotals { $0.activeAdmins -= 1 } }

        case .passcodeSet(let p):
            guard var a = try account(p.username) else { return }
            a.lockout.passcodeSet(at: e.at)
            a.credential = p.credential
            put(a)

        case .passcodeAttempted(let p):
            guard var a = try account(p.username) else { return }
            a.lockout.attempt(p.outcome, at: e.at)
            put(a)

        case .scanRecorded(let p):
            if mode == .replaying {
                _ = try count(CountedScan(at: e.at, actor: e.actor, category: p.category, isCounterfeit: p.result == .counterfeit))
            } else {
                let scan = prepared ?? PreparedScan(at: e.at, actor: e.actor, scan: p)
                try list(scan, seq: logged.seq, place: try count(scan.counted))
            }

        case .counterfeitReported(let p):
            guard let ordinal = try scanOrdinal(p.scanId) else { return }
            let actor: String
            if mode == .replaying {
                actor = try withScanHeader(ordinal) { String(decoding: $0.actor, as: UTF8.self) }
            } else {
                var row = try scanRow(ordinal)
                let report = ScanRow.Report(seq: logged.seq, reason: p.reason, message: p.message, at: e.at, by: e.actor)
                if mode == .rebuilding {
                    // The stored row is taken as it was before this report; were it stale, the sums differ.
                    row.report = nil
                    let before = row.encodedParts()
                    scanListDigest.removeRow(key: EntryHash.of(ordinal), header: EntryHash.of(before.header),
                                             tail: EntryHash.of(before.tail))
                    row.report = report
                    let after = row.encodedParts()
                    scanListDigest.addRow(key: EntryHash.of(ordinal), header: EntryHash.of(after.header),
                                          tail: EntryHash.of(after.tail))
                } else {
                    row.report = report
                    try tables.put(.scans, Models.ordinalKey(ordinal), row.encoded())
                }
                actor = row.actor
            }
            try update(stats: .all) { $0.reported += 1 }
            try update(stats: .actor(actor)) { $0.reported += 1 }

        case .settingsChanged(let p):
            guard var a = try account(p.username) else { return }
            if let v = p.flash { a.settings.flash = v }
            if let v = p.captureMode { a.settings.captureMode = v }
            if let v = p.historyWindow { a.settings.historyWindow = v }
            if let v = p.color { a.settings.color = v }
            put(a)

        case .searchPerformed(let p):
            guard var a = try account(p.username) else { return }
            let folded = CaseFolding.lowercasedUTF8(p.query)
            a.searches.removeAll { CaseFolding.lowercasedUTF8($0) == folded }
            a.searches.insert(p.query, at: 0)
            if a.searches.count > 10 { a.searches.removeLast(a.searches.count - 10) }
            put(a)

        case .statusChanged(let p):
            guard var a = try account(p.username) else { return }
            a.statusHistory.append(AccountRecord.StatusEntry(status: p.status, at: e.at, by: e.actor, note: p.note))
            put(a)

        case .fitnessUpdated(let p):
            guard var a = try account(p.username) else { return }
            a.fitness = AccountRecord.Fitness(bodyType: p.bodyType, heightInches: p.heightInches)
            put(a)

        case .goalSet(let p):
            try update(p.username, p.month) { $0.targets[Int(p.metric.storedIndex)] = p.target }

        case .sessionRecorded(let p):
            try tables.insert(.sessions, Models.sessionKey(p.username, p.sessionId), [])
            let summary = UserMonthRecord.SessionSummary(seq: logged.seq, session: p)
            try update(p.username, p.date.month) { m in
                m.jumps += p.jumps
                m.calories += p.calories
                if m.lastSession.map({ summary.isAfter($0) }) ?? true { m.lastSession = summary }
            }
        }
    }

    /// Applies a scan made ready on another thread (a rebuild): the same as `apply(_:)` with its event.
    public func apply(_ scan: PreparedScan) throws {
        precondition(mode != .replaying, "a replay over a borrowed scan list counts scans (apply(counted:seq:))")
        try count(.scanRecorded, at: scan.counted.at, seq: scan.seq)
        try list(scan, seq: scan.seq, place: try count(scan.counted))
    }

    /// Applies a scan to a replay over a borrowed scan list, which needs only the scan's counts.
    public func apply(counted scan: CountedScan, seq: UInt64) throws {
        precondition(mode == .replaying, "only a replay over a borrowed scan list may skip a scan's row")
        try count(.scanRecorded, at: scan.at, seq: seq)
        _ = try count(scan)
    }

    /// Counts an event in the log's totals.
    private func count(_ type: EventType, at: Timestamp, seq: UInt64) throws {
        if mode == .replaying { reportsThrough = seq }
        try updateTotals { t in
            t.events += 1
            if t.firstAt == nil { t.firstAt = at }
            t.lastAt = at
            t.byType[Int(type.storedIndex)] += 1
        }
    }

    /// Counts a scan in the totals, the stats and the actor's month; returns its place: its ordinal in the
    /// scan list and its number among its actor's scans.
    private func count(_ scan: CountedScan) throws -> (ordinal: UInt32, ofActor: UInt32) {
        var place: (ordinal: UInt32, ofActor: UInt32) = (0, 0)
        try updateTotals { t in
            t.scans += 1
            place.ordinal = t.scans
        }
        try update(stats: .all) { $0.add(category: scan.category, counterfeit: scan.isCounterfeit, at: scan.at) }
        try update(stats: .actor(scan.actor)) { s in
            s.add(category: scan.category, counterfeit: scan.isCounterfeit, at: scan.at)
            place.ofActor = UInt32(s.total)
        }
        try update(scan.actor, scan.at.month) { $0.scans += 1 }
        return place
    }

    /// Adds one to `count`; returns it as it was.
    private static func countOne(_ count: inout UInt32) -> UInt32 {
        defer { count += 1 }
        return count
    }

    /// Adds a scan to the scan list and its indexes (by scanId, by actor, by code); a rebuild only sums
    /// the list's entries. The row's header gets its `seq` here: a scan made ready before it was logged
    /// has none.
    private func list(_ scan: PreparedScan, seq: UInt64, place: (ordinal: UInt32, ofActor: UInt32)) throws {
        let seen: UInt32
        if mode == .rebuilding {
            // A rebuild holds every code (see below), and the codes table stays empty until `flush`: one
            // lookup, in place.
            seen = Models.countOne(&pending.codeCounts[scan.code, default: 0])
        } else {
            seen = try codeCount(scan.code)
            pending.codeCounts[scan.code] = seen + 1
        }
        tailBuffer.removeAll(keepingCapacity: true)
        ScanRow.appendTail(seenBefore: Int(seen), report: nil, to: &tailBuffer)
        try scan.withHeaderAndScanId { header, scanId in
            if mode == .rebuilding {
                let ordinal = EntryHash.of(place.ordinal), hashes = scan.entryHashes()
                scanListDigest.addRow(key: ordinal, header: hashes.header, tail: EntryHash.of(tailBuffer))
                scanListDigest.addScanId(hashes.scanId, ordinal: ordinal)
                scanListDigest.addActorScan(actor: hashes.actor, n: EntryHash.of(place.ofActor), ordinal: ordinal)
            } else {
                var row: [UInt8] = []
                row.reserveCapacity(header.count + tailBuffer.count)
                row.append(contentsOf: header)
                ScanRow.setSeq(seq, inHeader: &row)
                row.append(contentsOf: tailBuffer)
                try tables.insert(.scans, Models.ordinalKey(place.ordinal), row)
                try tables.insert(.scanIds, Array(scanId), place.ordinal.bigEndianBytes)
                pending.actorScans[scan.counted.actor, default: (firstN: place.ofActor, ordinals: [])].ordinals.append(place.ordinal)
            }
        }
        // Held entries cost memory: a long import writes them every so many scans. A rebuild holds every
        // code (about 50 bytes each, with the dictionary's spare room), so that it never looks one up in the
        // table it is writing.
        if mode != .rebuilding && pending.codeCounts.count >= PendingIndexes.limit { try writePendingIndexes(midWrite: true) }
    }
}
