internal import CLMDB
internal import SystemCalls

/// Damage in a B-tree of the environment, found by `PageAudit`.
public struct DamagedPage: Error, Sendable, CustomStringConvertible {
    /// The database: a named one, `main` (LMDB's, which names the others) or `free pages` (LMDB's list of
    /// the pages a write may reuse).
    public var database: String
    /// The page where the damage shows (0 when the database's own record, in `main`, is damaged).
    public var page: UInt64
    public var reason: String
    /// How far the damage reaches, which says what may still read or free the tree.
    public var extent: Extent

    public enum Extent: Sendable {
        /// Records (values) that do not decode, in a leaf page whose nodes and keys are sound: a walk with a
        /// cursor reads the page, and freeing the tree's pages (`Transaction.drop`, as a `rebuild` does)
        /// frees the tree's own.
        case records
        /// A leaf page's bounds, nodes or keys: a cursor reading the page runs off its nodes or meets its keys
        /// out of order, but a drop never reads a leaf (LMDB frees the pages the branch pages name, when the
        /// tree has no overflow pages).
        case leafPage
        /// A branch page, a page pointer, a large value's pages, the tree's record, the free list or a meta
        /// page: a drop would put pages still in use, or past the end of the file, on the free list. Keys
        /// outside the range their branch keys route to are counted here too: a flipped child pointer leads
        /// to a page of other keys just as a flipped branch key does, and a rebuild's drop of the first put
        /// pages in use on the free list (the flip campaign found it).
        case tree
    }

    public var description: String { "\(database), page \(page): \(reason)" }
}

/// Walks every B-tree of an environment page by page, in one read transaction, and checks everything a
/// later read or write would trust: the structure LMDB itself never checks.
///
/// A walk with a cursor (`Cursor.next`) reads the leaves only; a lookup descends by the branch pages' keys;
/// a write splits, merges and frees pages by their headers and node sizes, and takes pages from the free
/// list. LMDB 0.9 trusts all of it: one flipped byte can route a lookup to the wrong page, make a node run
/// off its page, or hand a write a page that is still in use. This audit reads the pages themselves, from
/// the map, as LMDB lays them out on a 64-bit machine (the layout `MetaPage` and
/// `scripts/reliability/lmdb_pages.py` also read), starting from the transaction's meta page:
///
/// - every page a tree reaches lies in the file (≤ the last page in use), is reached once, carries its
///   own number, and is a branch page above the tree's depth and a leaf page at it;
/// - a page's bounds (`lower`, `upper`) and every node offset and size stay inside the page;
/// - keys are in order within each page and inside the range the parent's branch keys route to the page,
///   under the database's comparison, so that a lookup of every key finds it;
/// - a large value's overflow pages carry their number, their kind and enough pages for the value (more
///   when it was rewritten smaller in the transaction that wrote it: LMDB keeps the run);
/// - each tree's record (its depth, its counts of branch, leaf and overflow pages and of entries) is what
///   the walk counted, and its flags are those Veritrail uses (none, or `MDB_INTEGERKEY` for the free list);
/// - every page the free list names is in the file, listed once, and not in use by any tree: a write takes
///   its pages from there and would overwrite a live page.
///
/// It costs one pass over the store's pages with a few comparisons per node, and no lookup. Every named
/// database is found in `main`, so a table added later is walked too. `records` may check the records of
/// a database too (the read models decode theirs).
public struct PageAudit {
    /// Checks one database's records, key and value (a large value whole): a reason when one is damaged.
    public typealias RecordCheck = (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> String?

    private let map: UnsafeRawPointer
    private let pageSize: Int
    private let lastPage: UInt64
    private var inUse: PageSet
    private var released = MappedSpan()
    /// Bytes the pages read since the last release may keep mapped (`note`).
    private var mayBeMapped = 0
    /// Pages noted since the resident set was last measured (`note`).
    private var notesSinceMeasure = 0
    /// Whether the process mapped more than `mappedBudget` when last measured (`note`).
    private var overBudget = false

    /// Walks every tree of `transaction`'s snapshot: `main`, every database it names, and the free list,
    /// calling `records(name)`'s check, when it gives one, with each record of that database. Returns the
    /// damage found: the first of each damaged database (the walk goes on with the others, so that a caller
    /// knows whether the damage is confined to databases it can make again). Throws `SnapshotMoved` when
    /// other processes committed twice since the transaction began, before its meta page was read: run it
    /// again in a new transaction.
    ///
    /// With `only`, just the database of that name is walked (and `main`, which names it), not the free list:
    /// whether a rebuild may keep that table (`Store.rebuild`, the search index).
    public static func run(_ transaction: Transaction, only: String? = nil,
                           records: (String) -> RecordCheck? = { _ in nil }) throws -> [DamagedPage] {
        let txn = try transaction.live
        guard let (map, pageSize, _) = transaction.environment.mapping(txn), let base = map.baseAddress else {
            // No named database (the main database is empty): nothing but the meta pages.
            return []
        }
        // The meta page of this snapshot: LMDB writes transaction N's meta to page N mod 2.
        // LMDB's `size_t`, which Swift reads as `Int`: a damaged meta page can make it negative.
        let txnid = UInt64(UInt(bitPattern: mdb_txn_id(txn)))
        let meta = base + Int(txnid & 1) * pageSize
        // Two commits since the transaction began write over its meta page (a busy writer): try again.
        guard meta.load(UInt64.self, at: 144) == txnid else { throw SnapshotMoved() }
        let lastPage = meta.load(UInt64.self, at: 136)
        guard lastPage < UInt64(map.count / pageSize) else {
            return [DamagedPage(database: "meta", page: txnid & 1, reason: "names page \(lastPage), past the map", extent: .tree)]
        }
        var audit = PageAudit(map: base, pageSize: pageSize, lastPage: lastPage, inUse: PageSet(count: Int(lastPage) + 1))
        let free = TreeRecord(meta + 40), main = TreeRecord(meta + 88)
        defer { audit.release() }
        var named: [(name: String, record: TreeRecord)] = []
        if let damage = audit.walk(main, "main", nodeFlags: Node.subData, leaf: { key, value, flags in
            guard flags & Node.subData != 0, flags & Node.dupData == 0, value.count == TreeRecord.size else {
                return "holds a record that names no database"
            }
            named.append((String(decoding: key, as: UTF8.self), TreeRecord(value.baseAddress!)))
            return nil
        }) { return [damage] }
        var found: [DamagedPage] = []
        for (name, record) in named where only == nil || only == name {
            let check = records(name)
            if let damage = audit.walk(record, name, nodeFlags: Node.bigData, leaf: { key, value, _ in
                check?(key, value)
            }) { found.append(damage) }
        }
        if only != nil { return found }
        var freeLists: [UnsafeRawBufferPointer] = []
        if let damage = audit.walk(free, "free pages", nodeFlags: Node.bigData, leaf: { _, value, _ in
            freeLists.append(value)
            return nil
        }) ?? audit.checkFree(freeLists) { found.append(damage) }
        return found
    }

    private init(map: UnsafeRawPointer, pageSize: Int, lastPage: UInt64, inUse: PageSet) {
        self.map = map
        self.pageSize = pageSize
        self.lastPage = lastPage
        self.inUse = inUse
    }

    /// One page to visit: its number, its level (1: the root), and the keys its parent routes to it
    /// (`low` ≤ key < `high`; nil: unbounded).
    private struct Visit {
        var page: UInt64
        var level: Int
        var low: UnsafeRawBufferPointer?
        var high: UnsafeRawBufferPointer?
    }

    /// Walks the tree of `record`, keys in order, calling `leaf` with each record's key, value (from its
    /// overflow pages when large) and node flags (at most `nodeFlags`); returns the first damage.
    private mutating func walk(_ record: TreeRecord, _ name: String, nodeFlags: UInt16,
                               leaf: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UInt16) -> String?) -> DamagedPage? {
        // A drop reads the leaves of a tree with large values (to free their pages), so damage to a leaf of
        // one reaches the tree; a value that does not check, in a leaf and overflow pages found sound, does not
        // (the snapshots of `model.snapshots` are large values).
        func damaged(_ page: UInt64, _ reason: String, _ extent: DamagedPage.Extent = .tree) -> DamagedPage {
            DamagedPage(database: name, page: page, reason: reason,
                        extent: record.overflowPages == 0 || extent == .records ? extent : .tree)
        }
        let integerKeys: Bool
        switch record.flags {
        case 0: integerKeys = false
        case TreeRecord.integerKey: integerKeys = true
        default: return damaged(0, "the database's record has flags \(record.flags), which Veritrail never sets")
        }
        guard record.root != TreeRecord.noPage else {
            guard record.depth == 0, record.branchPages == 0, record.leafPages == 0, record.overflowPages == 0,
                  record.entries == 0 else { return damaged(0, "an empty database's record counts pages or entries") }
            return nil
        }
        guard record.depth >= 1, record.depth <= 32 else { return damaged(0, "the database's record has a depth of \(record.depth)") }
        let compare = integerKeys ? PageAudit.compareIntegers(_:_:) : PageAudit.compareBytes(_:_:)
        var counted = (branch: UInt64(0), leaf: UInt64(0), overflow: UInt64(0), entries: UInt64(0))
        var stack = [Visit(page: record.root, level: 1, low: nil, high: nil)]
        var previousKey: UnsafeRawBufferPointer?
        // The keys the walk compares with after it has left their page (a branch page's, which bound every page
        // below it; a leaf's last, before the next leaf's first) are read from copies: read from the map after
        // a release (`releaseIfDue`), they would map their pages' folios again, outside any span released
        // (docs/VERIFY-SPEED.md, "Peak memory whatever the page cache holds"). A branch page is copied into its
        // level's slot: the next branch page of a level is visited once every page below this one has been.
        let copies = UnsafeMutableRawPointer.allocate(byteCount: (Int(record.depth) + 1) * pageSize, alignment: 16)
        defer { copies.deallocate() }
        let lastKey = copies + Int(record.depth) * pageSize
        while let visit = stack.popLast() {
            guard visit.page >= 2, visit.page <= lastPage else {
                return damaged(visit.page, "a page number past the last page in use (\(lastPage))")
            }
            guard inUse.insert(visit.page) else { return damaged(visit.page, "the page is reached twice") }
            releaseIfDue()
            let page = map + Int(visit.page) * pageSize
            note(page)
            let isLeaf = visit.level == Int(record.depth)
            guard page.load(UInt64.self, at: 0) == visit.page else { return damaged(visit.page, "the page's header carries another page number") }
            let kind = page.load(UInt16.self, at: 10)
            guard kind == (isLeaf ? PageKind.leaf : PageKind.branch) else {
                return damaged(visit.page, "a \(isLeaf ? "leaf" : "branch") page's header says kind \(kind)")
            }
            let lower = Int(page.load(UInt16.self, at: 12)), upper = Int(page.load(UInt16.self, at: 14))
            guard lower >= 16 + 2, lower & 1 == 0, lower <= upper, upper <= pageSize else {
                return damaged(visit.page, "the page's bounds (lower \(lower), upper \(upper)) are impossible", isLeaf ? .leafPage : .tree)
            }
            let count = (lower - 16) / 2
            let nodes: UnsafeRawPointer
            if isLeaf {
                nodes = page
            } else {
                let copy = copies + (visit.level - 1) * pageSize
                copy.copyMemory(from: page, byteCount: pageSize)
                nodes = UnsafeRawPointer(copy)
            }
            var keys: [UnsafeRawBufferPointer] = []
            var children: [UInt64] = []
            if !isLeaf {
                keys.reserveCapacity(count)
                children.reserveCapacity(count)
            }
            for i in 0..<count {
                let offset = Int(nodes.load(UInt16.self, at: 16 + 2 * i))
                guard offset >= upper, offset & 1 == 0, offset + 8 <= pageSize else {
                    return damaged(visit.page, "node \(i) lies at offset \(offset), outside the page's nodes", isLeaf ? .leafPage : .tree)
                }
                let node = Node(nodes + offset)
                let keySize = Int(node.keySize)
                let dataEnd = offset + 8 + keySize + (isLeaf ? (node.flags & Node.bigData != 0 ? 8 : node.dataSize) : 0)
                guard dataEnd <= pageSize else { return damaged(visit.page, "node \(i) runs past the end of its page", isLeaf ? .leafPage : .tree) }
                let key = UnsafeRawBufferPointer(start: nodes + offset + 8, count: keySize)
                if isLeaf {
                    if let why = checkKey(key, integerKeys: integerKeys) { return damaged(visit.page, "key \(i) \(why)", .leafPage) }
                    if let previousKey, compare(previousKey, key) >= 0 {
                        return damaged(visit.page, "key \(i) is not after the key before it", .leafPage)
                    }
                    // Outside the routed range: a damaged branch key, or a child pointer that leads to another
                    // page (which a drop would free too): the tree's pointers can not be trusted. Only the first
                    // key is compared with the range's low end: a later one is after the key before it (checked
                    // above), so it is below the range only if that one is too.
                    if i == 0, let low = visit.low, compare(key, low) < 0 { return damaged(visit.page, "key \(i) sorts before the range its branch key routes here") }
                    if let high = visit.high, compare(key, high) >= 0 { return damaged(visit.page, "key \(i) sorts after the range its branch key routes here") }
                    previousKey = key
                    var value = UnsafeRawBufferPointer(start: node.data, count: node.dataSize)
                    // Other flags make a cursor read the node as a nested database.
                    guard node.flags & ~nodeFlags == 0 else { return damaged(visit.page, "node \(i) has flags \(node.flags)", .leafPage) }
                    if node.flags & Node.bigData != 0 {
                        guard let (first, pages) = overflowPages(node) else {
                            return damaged(visit.page, "node \(i)'s large value points at damaged overflow pages")
                        }
                        counted.overflow += pages
                        value = UnsafeRawBufferPointer(start: map + Int(first) * pageSize + 16, count: node.dataSize)
                    }
                    if let why = leaf(key, value, node.flags) { return damaged(visit.page, "record \(i): \(why)", .records) }
                    counted.entries += 1
                } else {
                    // The first key of a branch page is never read: the page's range begins at its parent's.
                    if i > 0 {
                        if let why = checkKey(key, integerKeys: integerKeys) { return damaged(visit.page, "branch key \(i) \(why)") }
                        if let last = keys.last, i > 1, compare(last, key) >= 0 { return damaged(visit.page, "branch key \(i) is not after the one before it") }
                        if let low = visit.low, compare(key, low) <= 0 { return damaged(visit.page, "branch key \(i) sorts before its page's range") }
                        if let high = visit.high, compare(key, high) >= 0 { return damaged(visit.page, "branch key \(i) sorts after its page's range") }
                    }
                    keys.append(key)
                    children.append(node.child)
                }
            }
            if isLeaf {
                counted.leaf += 1
                if let last = previousKey, last.baseAddress != UnsafeRawPointer(lastKey) {
                    lastKey.copyMemory(from: last.baseAddress!, byteCount: last.count)
                    previousKey = UnsafeRawBufferPointer(start: lastKey, count: last.count)
                }
            } else {
                counted.branch += 1
                // Children in reverse, so that the stack visits them, and their keys, in order.
                for i in stride(from: count - 1, through: 0, by: -1) {
                    stack.append(Visit(page: children[i], level: visit.level + 1,
                                       low: i == 0 ? visit.low : keys[i], high: i == count - 1 ? visit.high : keys[i + 1]))
                }
            }
        }
        guard counted.branch == record.branchPages, counted.leaf == record.leafPages,
              counted.overflow == record.overflowPages, counted.entries == record.entries else {
            return damaged(0, "the database's record counts \(record.branchPages) branch, \(record.leafPages) leaf, "
                + "\(record.overflowPages) overflow pages and \(record.entries) entries; its tree has \(counted.branch), "
                + "\(counted.leaf), \(counted.overflow) and \(counted.entries)")
        }
        return nil
    }

    /// Why `key` can not be a key of its database, or nil: empty, longer than LMDB stores, or not an integer
    /// of a database of integer keys.
    @inline(__always)
    private func checkKey(_ key: UnsafeRawBufferPointer, integerKeys: Bool) -> String? {
        if integerKeys { return key.count == 8 || key.count == 4 ? nil : "is \(key.count) bytes, not an integer" }
        return key.count >= 1 && key.count <= 511 ? nil : "is \(key.count) bytes long"
    }

    /// The first overflow page of a leaf node's large value and how many there are, checked and marked in
    /// use; nil when they are not the value's.
    private mutating func overflowPages(_ node: Node) -> (first: UInt64, count: UInt64)? {
        let first = node.data.loadUnaligned(as: UInt64.self)
        guard first >= 2, first <= lastPage else { return nil }
        let page = map + Int(first) * pageSize
        let pages = UInt64(page.load(UInt32.self, at: 12))
        // LMDB's OVPAGES: the header and the value, in whole pages. A run may hold more: a value rewritten
        // smaller in the transaction that wrote it keeps its pages (`mdb_cursor_put` overwrites a dirty
        // overflow run in place), as the free list's records are while a large commit saves them.
        let needed = UInt64((16 + node.dataSize + pageSize - 1) / pageSize)
        guard page.load(UInt64.self, at: 0) == first, page.load(UInt16.self, at: 10) == PageKind.overflow,
              pages >= needed, first + pages - 1 <= lastPage else { return nil }
        for p in first..<(first + pages) { guard inUse.insert(p) else { return nil } }
        note(page, pages: Int(pages))
        return (first, pages)
    }

    /// Checks the free list's records (`MDB_IDL`s: a count, then that many page numbers in descending
    /// order): every page listed lies in the file, is listed once and is in use by no tree.
    private mutating func checkFree(_ lists: [UnsafeRawBufferPointer]) -> DamagedPage? {
        func damaged(_ reason: String) -> DamagedPage {
            DamagedPage(database: "free pages", page: 0, reason: reason, extent: .tree)
        }
        for list in lists {
            guard list.count >= 8, list.count % 8 == 0 else { return damaged("a record of \(list.count) bytes is no list of pages") }
            let count = list.loadUnaligned(as: UInt64.self)
            guard count == UInt64(list.count / 8 - 1) else { return damaged("a record counts \(count) pages in \(list.count) bytes") }
            var previous = UInt64.max
            for i in 1..<(list.count / 8) {
                let page = list.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                guard page < previous else { return damaged("a record's pages are out of order") }
                previous = page
                guard page >= 2, page <= lastPage else { return damaged("names page \(page), past the last page in use (\(lastPage))") }
                guard inUse.insert(page) else { return damaged("names page \(page), which is in use or listed twice") }
            }
        }
        return nil
    }

    /// Remembers the pages read, one page or a large value's run of `pages`, for the next release
    /// (`releaseIfDue`). What they may map is counted: the kernel maps up to 16 pages around each page read
    /// (fault-around: the 64 KiB around it, when the map is not advised random, as during `log verify`), and
    /// a large value's check reads its whole run (counted as one page, a table of large values, the snapshots,
    /// stayed mapped).
    ///
    /// Where the page cache holds the store in large folios, a fault maps the whole folio, up to 2 MiB with
    /// transparent huge pages: 32 times what is counted here. So every 16 pages the resident set is measured
    /// too, and a release is due as soon as the process maps more than `mappedBudget`.
    @inline(__always)
    private mutating func note(_ page: UnsafeRawPointer, pages: Int = 1) {
        released.include(UnsafeRawBufferPointer(start: page, count: pages * pageSize))
        mayBeMapped += pages * pageSize + 65_536
        notesSinceMeasure += 1
        if notesSinceMeasure == 16 {
            notesSinceMeasure = 0
            if let mapped = ResidentSet.mappedFileBytes(), mapped >= PageAudit.mappedBudget { overBudget = true }
        }
    }

    /// Lets go of the pages read since the last release once they may map 32 MiB or the process maps more
    /// than its budget (`note`). Called before a page is visited, never while one is read: a page read after
    /// the release that dropped it would be mapped again outside any span released.
    @inline(__always)
    private mutating func releaseIfDue() {
        if mayBeMapped >= 32 << 20 || overBudget { release() }
    }

    /// Lets go of the pages read since the last release, within the pages in use.
    private mutating func release() {
        let start = UInt(bitPattern: map)
        released.release(within: (start, start + UInt((Int(lastPage) + 1) * pageSize)))
        mayBeMapped = 0
        overBudget = false
    }

    /// The bytes of mapped files the process may hold before the audit lets go of what it read, whatever it
    /// counted (`note`): the binary's code, and, during `log verify`, the chunks the sweep's threads are reading
    /// (each lets go of its own after every chunk), count too. Under `log verify`'s bar of 300 MB with room for
    /// what 16 pages can map between two measures.
    static let mappedBudget = 160 << 20

    /// LMDB's default order: bytes compared as unsigned, a prefix before the longer key (`mdb_cmp_memn`).
    private static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        // Most keys (seqs, leaf indices, ids) differ in their first 8 bytes: compared as one big-endian number,
        // without a call.
        if a.count >= 8, b.count >= 8 {
            let x = UInt64(bigEndian: a.loadUnaligned(as: UInt64.self)), y = UInt64(bigEndian: b.loadUnaligned(as: UInt64.self))
            if x != y { return x < y ? -1 : 1 }
        }
        let common = min(a.count, b.count)
        if common > 0 {
            let order = ByteSearch.order(a.baseAddress!, b.baseAddress!, count: common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    /// `MDB_INTEGERKEY`: native integers of 4 or 8 bytes compared as numbers (`mdb_cmp_int`, `mdb_cmp_long`).
    private static func compareIntegers(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        func value(_ k: UnsafeRawBufferPointer) -> UInt64 {
            k.count == 8 ? k.loadUnaligned(as: UInt64.self) : UInt64(k.loadUnaligned(as: UInt32.self))
        }
        let x = value(a), y = value(b)
        return x < y ? -1 : (x > y ? 1 : 0)
    }
}

/// The meta page of a transaction was written over before `PageAudit` read it (LMDB keeps two, and each
/// commit writes the older one): the audit is to run again in a new transaction.
public struct SnapshotMoved: Error, Sendable {}

/// Page kinds of LMDB's page header (`mp_flags`) as a committed page carries them.
private enum PageKind {
    static let branch: UInt16 = 0x01
    static let leaf: UInt16 = 0x02
    static let overflow: UInt16 = 0x04
}

/// A node of a B-tree page: `mn_lo`, `mn_hi` (a leaf's value size, or with `mn_flags` a branch's child
/// page), `mn_flags`, `mn_ksize`, then the key and the value.
private struct Node {
    static let bigData: UInt16 = 0x01
    static let subData: UInt16 = 0x02
    static let dupData: UInt16 = 0x04

    let base: UnsafeRawPointer
    init(_ base: UnsafeRawPointer) { self.base = base }

    var low: UInt16 { base.load(UInt16.self, at: 0) }
    var high: UInt16 { base.load(UInt16.self, at: 2) }
    var flags: UInt16 { base.load(UInt16.self, at: 4) }
    var keySize: UInt16 { base.load(UInt16.self, at: 6) }
    var dataSize: Int { Int(low) | Int(high) << 16 }
    var child: UInt64 { UInt64(low) | UInt64(high) << 16 | UInt64(flags) << 32 }
    var data: UnsafeRawPointer { base + 8 + Int(keySize) }
}

/// A database's record (`MDB_db`, 48 bytes): in the meta page for LMDB's two, in `main` for named ones.
private struct TreeRecord {
    static let size = 48
    static let noPage = UInt64.max
    static let integerKey: UInt16 = 0x08

    var flags: UInt16, depth: UInt16
    var branchPages: UInt64, leafPages: UInt64, overflowPages: UInt64, entries: UInt64, root: UInt64

    init(_ p: UnsafeRawPointer) {
        flags = p.loadUnaligned(fromByteOffset: 4, as: UInt16.self)
        depth = p.loadUnaligned(fromByteOffset: 6, as: UInt16.self)
        branchPages = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        leafPages = p.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        overflowPages = p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        entries = p.loadUnaligned(fromByteOffset: 32, as: UInt64.self)
        root = p.loadUnaligned(fromByteOffset: 40, as: UInt64.self)
    }
}

/// One bit per page of the file: whether a tree or the free list has it.
private struct PageSet {
    private var words: [UInt64]
    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    /// Marks `page`; false when it was marked already.
    @inline(__always)
    mutating func insert(_ page: UInt64) -> Bool {
        let word = Int(page >> 6), bit = UInt64(1) << (page & 63)
        if words[word] & bit != 0 { return false }
        words[word] |= bit
        return true
    }
}

private extension UnsafeRawPointer {
    @inline(__always)
    func load<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T { loadUnaligned(fromByteOffset: offset, as: T.self) }
}
