internal import CLMDB
import SystemCalls

/// The page audit of tables whose every record a sweep reads anyway (`log verify`: the log's events and the
/// Merkle tree): the sweep audits each leaf page as its cursor comes to it, while the page is in memory, and the
/// page audit (`PageAudit.run(_:leavingLeavesTo:records:)`) walks every other page of the store. Read once
/// instead of twice, the log's pages cost one map and one first read each.
///
/// Nothing the audit checks is left out, and the checks are the audit's own (`PageAudit.descend`):
/// - before the sweep, `mapLeaves` walks the tables' branch pages as the audit does, and lists their leaf pages in
///   key order with the range of keys their branch keys route to each (a leaf page is found in the file and
///   reached once there);
/// - each chunk of the sweep (`Leaves`) checks every leaf page its cursor comes to against that list (the page
///   the list gives next, or the one a branch key routes its first key to), and audits it as the audit would:
///   header, bounds, nodes, keys in order and in range, large values' pages. A leaf page belongs to the chunk
///   whose keys hold its first key: the chunks' leaves must then be the list's, each once, in order;
/// - `complete` puts it together with the rest of the audit: every leaf page audited, and the tables'
///   counts of leaf and overflow pages and of entries those of their records, no page in use twice or on
///   the free list.
///
/// Any difference, damage or not (a page another snapshot wrote, a chunk that stopped early on a broken chain),
/// makes `complete` false: the caller then runs the whole audit (`PageAudit.run`), whose answer is the answer.
/// So the audit finds what it found, with the same words, and a sweep only ever makes it cheaper.
public final class SweptLeaves: @unchecked Sendable {
    /// The tables whose leaves the sweep audits.
    public let tables: [String]
    private let lock = ConditionLock()
    private var maps: Maps?
    private var reports: [Report] = []

    public init(tables: [String]) {
        self.tables = tables
    }

    /// The tables' leaf pages, listed by walking their branch pages in one snapshot.
    struct Maps: Sendable {
        var snapshot: UInt64
        /// The map's address, its page size and the snapshot's last page in use.
        var base: UInt, pageSize: Int, lastPage: UInt64
        var leaves: [String: LeafMap]
        /// The tables' branch and leaf pages.
        var pages: PageSet
    }

    /// One table's leaf pages in key order.
    struct LeafMap: Sendable {
        var record: TreeRecord
        var pages: [UInt64]
        /// The least key the branch keys route to each leaf page, as a big-endian number (the first page's is 0,
        /// no bound); the next page's is the bound above. Branch keys of other sizes are never listed.
        var lows: [UInt64]

        /// The leaf page a lookup of `key` (8 bytes) is routed to.
        func leaf(routing key: UInt64) -> Int {
            var low = 0, high = lows.count
            // The last page whose least key is at most `key`.
            while high - low > 1 {
                let middle = (low + high) / 2
                if lows[middle] <= key { low = middle } else { high = middle }
            }
            return low
        }
    }

    /// What one chunk found of one table's leaves: the pages whose first key lies in the chunk, in order.
    struct Report: Sendable {
        var table: String
        var snapshot: UInt64
        /// The first of the chunk's leaf pages in the table's list, and how many follow it.
        var first = 0, count = 0
        var entries: UInt64 = 0
        var overflowPages: [(first: UInt64, count: UInt64)] = []
        /// False when anything differed from the list or did not check.
        var sound = true
    }

    /// Lists the tables' leaf pages in `transaction`'s snapshot, before the sweep; lists none when a table is
    /// missing, damaged or keyed otherwise than by 8 bytes (the sweep then audits nothing, and `complete` is
    /// false).
    public func mapLeaves(_ transaction: Transaction) throws {
        let found = try Self.leafMaps(transaction, tables: tables)
        lock.lock()
        defer { lock.unlock() }
        maps = found
    }

    private static func leafMaps(_ transaction: Transaction, tables: [String]) throws -> Maps? {
        guard case .opened(var opened) = try PageAudit.open(transaction),
              let bounds = transaction.environment.mapBounds(try transaction.live) else { return nil }
        let lastPage = opened.audit.lastPage
        // Only the tables' own pages, which `complete` adds to the rest of the audit's.
        opened.audit.inUse = PageSet(count: Int(lastPage) + 1)
        var leaves: [String: LeafMap] = [:]
        for name in tables {
            guard let record = opened.named.first(where: { $0.name == name })?.record else { return nil }
            var map = LeafMap(record: record, pages: [], lows: [])
            var counted = PageAudit.Counts()
            let damage = opened.audit.descend(record, name, nodeFlags: Node.bigData, listing: { visit in
                let low: UInt64
                if let key = visit.low {
                    guard key.count == 8 else { return false }
                    low = UInt64(bigEndian: key.loadUnaligned(as: UInt64.self))
                } else {
                    // Only the first page has no bound below.
                    guard map.pages.isEmpty else { return false }
                    low = 0
                }
                map.pages.append(visit.page)
                map.lows.append(low)
                return true
            }, counting: &counted) { _, _, _ in nil }
            guard damage == nil, counted.branch == record.branchPages, counted.leaf == record.leafPages else { return nil }
            leaves[name] = map
        }
        guard let pages = opened.audit.inUse else { return nil }
        return Maps(snapshot: opened.snapshot, base: bounds.start, pageSize: opened.audit.pageSize, lastPage: lastPage,
                    leaves: leaves, pages: pages)
    }

    /// The audit of `table`'s leaves for a chunk of the sweep that reads the keys `keys` in `transaction`; nil
    /// when the leaves were not listed (the chunk then reports nothing, and `complete` is false).
    public func chunk(_ table: String, keys: ClosedRange<UInt64>, _ transaction: Transaction) throws -> Leaves? {
        lock.lock()
        let maps = maps
        lock.unlock()
        let txn = try transaction.live
        guard let maps, let map = maps.leaves[table], let bounds = transaction.environment.mapBounds(txn),
              bounds.start == maps.base, let base = UnsafeRawPointer(bitPattern: bounds.start) else { return nil }
        let snapshot = UInt64(UInt(bitPattern: mdb_txn_id(txn)))
        return Leaves(table: table, map: map, keys: keys,
                      audit: PageAudit(map: base, pageSize: maps.pageSize, lastPage: maps.lastPage, inUse: nil),
                      report: Report(table: table, snapshot: snapshot, sound: snapshot == maps.snapshot))
    }

    /// Keeps what a chunk found.
    public func finish(_ leaves: Leaves) {
        lock.lock()
        defer { lock.unlock() }
        reports.append(leaves.report)
    }

    /// Whether every leaf page of the tables was audited sound by the chunks and, with the rest of the audit
    /// (`partial`, which found no damage), the store has none: every page in use reached once and not on the
    /// free list, each table's counts its record's. False says nothing of the store: run the whole audit.
    func complete(_ partial: PageAudit.Partial) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let maps, maps.snapshot == partial.snapshot, Set(partial.skipped.keys) == Set(tables),
              reports.allSatisfy({ $0.sound && $0.snapshot == maps.snapshot }) else { return false }
        var inUse = partial.inUse
        guard inUse.merge(maps.pages) else { return false }
        for (name, record) in partial.skipped {
            guard let map = maps.leaves[name], map.record == record else { return false }
            var next = 0, entries: UInt64 = 0, overflow: UInt64 = 0
            for report in reports.filter({ $0.table == name && $0.count > 0 }).sorted(by: { $0.first < $1.first }) {
                guard report.first == next else { return false }
                next += report.count
                entries += report.entries
                for (first, count) in report.overflowPages {
                    for page in first..<(first + count) { guard inUse.insert(page) else { return false } }
                    overflow += count
                }
            }
            guard next == map.pages.count, entries == record.entries, overflow == record.overflowPages else { return false }
        }
        return true
    }

    /// One chunk's audit of one table's leaf pages: `visit` is given the key of every record the chunk's
    /// cursor reads, in order.
    public struct Leaves {
        let table: String
        let map: LeafMap
        let keys: ClosedRange<UInt64>
        var audit: PageAudit
        var report: Report
        /// The page of the last record visited (never 0, a meta page, for a leaf).
        private var page: UInt64 = 0
        /// The place in the list of the page that must come next.
        private var next: Int?

        init(table: String, map: LeafMap, keys: ClosedRange<UInt64>, audit: PageAudit, report: Report) {
            self.table = table
            self.map = map
            self.keys = keys
            self.audit = audit
            self.report = report
        }

        /// Audits the page of `key`, a key the cursor read, when it comes to a new one.
        public mutating func visit(_ key: UnsafeRawBufferPointer) {
            guard report.sound, let address = key.baseAddress else { return }
            let offset = address - audit.map
            let page = offset >= 0 ? UInt64(offset / audit.pageSize) : 0
            guard page != self.page else { return }
            self.page = page
            let index: Int
            if let next {
                index = next
            } else {
                guard key.count == 8 else { return unsound() }
                index = map.leaf(routing: UInt64(bigEndian: key.loadUnaligned(as: UInt64.self)))
            }
            guard index < map.pages.count, map.pages[index] == page else { return unsound() }
            next = index + 1
            check(index)
        }

        /// Audits leaf page `index` of the list, and counts it when its first key is the chunk's.
        private mutating func check(_ index: Int) {
            var low = map.lows[index].bigEndian
            var high = index + 1 < map.lows.count ? map.lows[index + 1].bigEndian : 0
            var counted = PageAudit.Counts()
            audit.overflowPages.removeAll(keepingCapacity: true)
            let damage = withUnsafeBytes(of: &low) { low in
                withUnsafeBytes(of: &high) { high in
                    let visit = PageAudit.Visit(page: map.pages[index], level: Int(map.record.depth),
                                                low: index > 0 ? low : nil, high: index + 1 < map.lows.count ? high : nil)
                    return audit.descend(map.record, table, nodeFlags: Node.bigData, from: visit, counting: &counted) { _, _, _ in nil }
                }
            }
            guard damage == nil else { return unsound() }
            // A sound leaf page has a first node, at the offset its first slot gives.
            let page = audit.map + Int(map.pages[index]) * audit.pageSize
            let node = Node(page + Int(page.loadUnaligned(fromByteOffset: 16, as: UInt16.self)))
            guard node.keySize == 8 else { return unsound() }
            guard keys.contains(UInt64(bigEndian: (node.base + 8).loadUnaligned(as: UInt64.self))) else { return }
            guard report.count == 0 || report.first + report.count == index else { return unsound() }
            if report.count == 0 { report.first = index }
            report.count += 1
            report.entries += counted.entries
            report.overflowPages += audit.overflowPages
        }

        private mutating func unsound() { report.sound = false }
    }
}
