internal import CLMDB
internal import CLMDBGuard
internal import SystemCalls

/// A transaction: a consistent snapshot to read from and, unless read-only,
/// a batch of writes that becomes visible atomically when it commits.
///
/// `Environment.read` and `Environment.write` create it, pass it to their body
/// and end it when the body finishes; that scoping is what lets the
/// environment resize the map safely, so there is no public initializer.
/// Do not keep it beyond the body: once it has ended, its operations throw
/// `LMDBError.badTransaction`, and buffers it returned point at pages LMDB may reuse.
///
/// It is not `Sendable`: LMDB ties a transaction to the thread that began it.
public final class Transaction {
    /// Kept so the environment stays open while this object or its cursors exist.
    let environment: Environment

    /// LMDB's transaction, `nil` once committed or aborted.
    @exclusivity(unchecked)
    private var handle: OpaquePointer?

    /// True for transactions begun by `Environment.read`.
    public let isReadOnly: Bool

    /// Set when LMDB reported `MDB_MAP_FULL`: such a transaction can only be
    /// aborted, and `Environment.write` then grows the map and runs it again
    /// even if the body caught the error.
    @exclusivity(unchecked)
    private(set) var ranOutOfMap = false

    /// The pages of the map this transaction has read since they were last released (`releaseReadPages`).
    @exclusivity(unchecked)
    private var read = MappedSpan()

    /// The pager of a large write (`Environment.write(large:)`), told how far into the map this
    /// transaction has written.
    private let pager: MapPager?

    /// The highest address of the map this transaction has told `pager` it wrote to.
    @exclusivity(unchecked)
    private var reportedWrite: UInt = 0

    init(environment: Environment, handle: OpaquePointer, isReadOnly: Bool, pager: MapPager? = nil) {
        self.environment = environment
        self.handle = handle
        self.isReadOnly = isReadOnly
        self.pager = pager
    }

    /// The LMDB transaction, or `LMDBError.badTransaction` once it has ended.
    var live: OpaquePointer {
        @inline(__always) get throws(LMDBError) {
            guard let handle else { throw LMDBError.badTransaction }
            return handle
        }
    }

    /// Whether the transaction has been committed or aborted.
    var hasEnded: Bool { handle == nil }

    /// The longest key the environment holds (`Environment.maxKeySize`).
    var maxKeySize: Int { environment.maxKeySize }

    /// Whether a key of `count` bytes can be stored at all.
    @inline(__always)
    func canHoldKey(_ count: Int) -> Bool { count > 0 && count <= environment.maxKeySize }

    /// How much of its work a large write's body has done, from 0 to 1, when it can tell (an import: the
    /// share of its input read). When the write fills the map, the map grows by what the rest will take at
    /// the rate so far (`Environment.grownSize`), so that the write runs again once, not at every step.
    public var workDone: Double?

    /// What the rest of a large write's body will take of the map, in bytes, when it can tell better than its
    /// rate so far (an import: three times the input it has not read, as a new store's map is sized; a batch:
    /// three times the canonical forms of the rows left, at their size so far). A map
    /// that fills grows by at least this (`Environment.grownSize`): the rate misses what the write holds in
    /// memory and writes later (an import's search sets of four chunks, its counts of 131,072 codes), and an
    /// import of a million events into a store of two ran again from the start at 85 % of its input.
    public var bytesLeft: Int?

    /// Set by `rollBack()`: the write ends without committing when its body returns.
    public private(set) var rollsBack = false

    /// Ends this write transaction without committing when its body returns, as if it had thrown, but
    /// letting the body return a value (for example: "these events pass every rule, but the actor must
    /// unlock first"). The writes made so far are still visible to the body until it returns.
    public func rollBack() { rollsBack = true }

    /// `check` for operations that write: remembers a full map for `Environment.write`.
    @inline(__always)
    func checkWrite(_ code: Int32) throws(LMDBError) {
        if code == MDB_MAP_FULL { ranOutOfMap = true }
        try check(code)
    }

    /// Makes the writes durable and visible; LMDB frees the transaction even when this fails.
    ///
    /// The corresponding C function is `mdb_txn_commit`.
    func commit() throws(LMDBError) {
        let handle = try live
        self.handle = nil
        try checkWrite(mdb_txn_commit(handle))
    }

    /// Discards the writes and releases the snapshot.
    ///
    /// The corresponding C function is `mdb_txn_abort`.
    func abort() {
        guard let handle else { return }
        self.handle = nil
        mdb_txn_abort(handle)
    }

    /// Opens (with `.create`, creates) a database; `Environment.openDatabase` commits it for later transactions.
    ///
    /// The corresponding C function is `mdb_dbi_open`.
    func openDatabase(_ name: String?, flags: DatabaseFlags) throws(LMDBError) -> Database {
        let txn = try live
        var dbi: MDB_dbi = 0
        if let name {
            try check(mdb_dbi_open(txn, name, flags.rawValue, &dbi))
        } else {
            try check(mdb_dbi_open(txn, nil, flags.rawValue, &dbi))
        }
        return Database(dbi: dbi)
    }

    /// The value stored under `key`, or `nil` if there is none.
    ///
    /// The buffer points into the memory map, not a copy: it is valid only
    /// until the transaction ends or its next write, so copy what you keep.
    ///
    /// The corresponding C function is `mdb_get`.
    /// A key LMDB could not hold (empty, or longer than `Environment.maxKeySize`) is never found, rather than
    /// an error: a lookup of an empty username or a 600-byte id simply finds nothing.
    public func get(_ db: Database, _ key: UnsafeRawBufferPointer) throws(LMDBError) -> UnsafeRawBufferPointer? {
        guard canHoldKey(key.count) else { return nil }
        var key = MDB_val(key)
        var value = MDB_val()
        let code = vt_mdb_get(try live, db.dbi, &key, &value)
        if code == MDB_NOTFOUND { return nil }
        try check(code)
        noteRead(value.buffer)
        return value.buffer
    }

    /// Adds a value read from the map to the span `releaseReadPages` drops.
    @inline(__always)
    func noteRead(_ value: UnsafeRawBufferPointer) { read.include(value) }

    /// Drops the pages of the map this transaction has read, from the lowest to the highest, from the
    /// resident set (see `MappedSpan`), and starts over. For work that reads at random all over a large
    /// store: the kernel maps the pages around each one read too, so much of the store would stay mapped.
    public func releaseReadPages() {
        // A handle that has ended, or a map that can not be found: nothing is dropped.
        guard let handle, let bounds = environment.mapBounds(handle) else {
            read = MappedSpan()
            return
        }
        read.release(within: bounds)
    }

    /// Drops every page of the map from the resident set, read or written (`MADV_DONTNEED`: with
    /// `MDB_WRITEMAP` the map is shared, so written pages stay in the page cache and are mapped again when
    /// touched). For a large write that updates indexes at random all over what it wrote (a batch of
    /// scans): the pager drops only what lies behind the log's end, and each page looked up maps its
    /// neighbours too. Does nothing when the map can not be found.
    ///
    /// The corresponding C function is `madvise`.
    public func releaseMappedPages() {
        guard let handle, let (map, _, _) = environment.mapping(handle), let base = map.baseAddress else { return }
        try? MemoryMap.advise(UnsafeMutableRawPointer(mutating: base), count: map.count, .dontNeed)
        read = MappedSpan()
    }

    /// The value stored under `key`, or `nil`; see `get(_:_:)` for how long the buffer lives.
    ///
    /// The corresponding C function is `mdb_get`.
    public func get(_ db: Database, _ key: [UInt8]) throws(LMDBError) -> UnsafeRawBufferPointer? {
        try key.withUnsafeBufferPointer { (key) throws(LMDBError) in try get(db, UnsafeRawBufferPointer(key)) }
    }

    /// Stores `value` under `key`, replacing any value unless `flags` say otherwise.
    /// With `.noOverwrite` an existing key throws `LMDBError.keyExists`.
    ///
    /// The corresponding C function is `mdb_put`.
    public func put(_ db: Database, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: WriteFlags = []) throws(LMDBError) {
        var key = MDB_val(key)
        var value = MDB_val(value)
        try checkWrite(vt_mdb_put(try live, db.dbi, &key, &value, flags.rawValue))
    }

    /// Stores `value` under `key`; see `put(_:_:_:flags:)`.
    ///
    /// The corresponding C function is `mdb_put`.
    public func put(_ db: Database, _ key: [UInt8], _ value: [UInt8], flags: WriteFlags = []) throws(LMDBError) {
        try key.withUnsafeBufferPointer { (key) throws(LMDBError) in
            try value.withUnsafeBufferPointer { (value) throws(LMDBError) in
                try put(db, UnsafeRawBufferPointer(key), UnsafeRawBufferPointer(value), flags: flags)
            }
        }
    }

    /// Stores `value` under `key`, which must be new: appended without a search of the tree when it sorts
    /// after every key (as seqs, ordinals and most generated ids do), inserted otherwise. An existing key
    /// throws `LMDBError.keyExists`.
    ///
    /// The corresponding C function is `mdb_put` with `MDB_APPEND`, then with `MDB_NOOVERWRITE`.
    public func insert(_ db: Database, _ key: [UInt8], _ value: [UInt8]) throws(LMDBError) {
        try key.withUnsafeBufferPointer { (key) throws(LMDBError) in
            try value.withUnsafeBufferPointer { (value) throws(LMDBError) in
                try insert(db, UnsafeRawBufferPointer(key), UnsafeRawBufferPointer(value))
            }
        }
    }

    /// `insert(_:_:_:)` of bytes the caller holds.
    ///
    /// The corresponding C function is `mdb_put` with `MDB_APPEND`, then with `MDB_NOOVERWRITE`.
    public func insert(_ db: Database, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws(LMDBError) {
        if try !appendIfLast(db, key, value) { try put(db, key, value, flags: [.noOverwrite]) }
    }

    /// Appends `value` under `key` without a search of the tree when `key` sorts after every key of `db`;
    /// returns false, having written nothing, when it does not.
    ///
    /// The corresponding C function is `mdb_put` with `MDB_APPEND`.
    public func appendIfLast(_ db: Database, _ key: [UInt8], _ value: [UInt8]) throws(LMDBError) -> Bool {
        try key.withUnsafeBufferPointer { (key) throws(LMDBError) in
            try value.withUnsafeBufferPointer { (value) throws(LMDBError) in
                try appendIfLast(db, UnsafeRawBufferPointer(key), UnsafeRawBufferPointer(value))
            }
        }
    }

    /// `appendIfLast(_:_:_:)` of bytes the caller holds.
    ///
    /// The corresponding C function is `mdb_put` with `MDB_APPEND`.
    public func appendIfLast(_ db: Database, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws(LMDBError) -> Bool {
        do {
            try put(db, key, value, flags: [.append])
            return true
        } catch .keyExists {
            // MDB_APPEND refuses a key that does not sort last without changing anything.
            return false
        }
    }

    /// Makes room for a `count`-byte value under `key` and returns it for the
    /// caller to fill, saving the copy `put` makes: encode straight into the map.
    ///
    /// Fill the buffer before the next write in this transaction. Not for `dupSort` databases.
    ///
    /// The corresponding C function is `mdb_put` with `MDB_RESERVE`.
    public func reserve(_ db: Database, _ key: UnsafeRawBufferPointer, count: Int, flags: WriteFlags = []) throws(LMDBError) -> UnsafeMutableRawBufferPointer {
        var key = MDB_val(key)
        var value = MDB_val(mv_size: count, mv_data: nil)
        try checkWrite(vt_mdb_put(try live, db.dbi, &key, &value, flags.rawValue | UInt32(MDB_RESERVE)))
        // The pager hears how far into the map the transaction writes, every `PageRelease.pagerStep` bytes (tested
        // first: the pager is shared with its thread, and even taking a reference to it costs).
        let end = UInt(bitPattern: value.mv_data) + UInt(value.mv_size)
        if end > reportedWrite &+ PageRelease.pagerStep, let pager {
            reportedWrite = end
            pager.advance(to: end)
        }
        return UnsafeMutableRawBufferPointer(start: value.mv_data, count: value.mv_size)
    }

    /// Deletes `key` (in a `dupSort` database, only the pair with `value` when given).
    /// Returns false when there was nothing to delete.
    ///
    /// The corresponding C function is `mdb_del`.
    @discardableResult
    public func delete(_ db: Database, _ key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer? = nil) throws(LMDBError) -> Bool {
        let txn = try live
        var key = MDB_val(key)
        let code: Int32
        if let value {
            var value = MDB_val(value)
            code = vt_mdb_del(txn, db.dbi, &key, &value)
        } else {
            code = vt_mdb_del(txn, db.dbi, &key, nil)
        }
        if code == MDB_NOTFOUND { return false }
        try checkWrite(code)
        return true
    }

    /// Deletes `key`; see `delete(_:_:value:)`.
    ///
    /// The corresponding C function is `mdb_del`.
    @discardableResult
    public func delete(_ db: Database, _ key: [UInt8]) throws(LMDBError) -> Bool {
        try key.withUnsafeBufferPointer { (key) throws(LMDBError) in try delete(db, UnsafeRawBufferPointer(key)) }
    }

    /// Removes every entry from `db`, keeping the database and its handle.
    ///
    /// The corresponding C function is `mdb_drop` with `del` = 0.
    public func drop(_ db: Database) throws(LMDBError) {
        try checkWrite(vt_mdb_drop(try live, db.dbi, 0))
    }

    /// The number of entries in `db` as this transaction sees it. LMDB keeps
    /// the count in the B-tree's header, so this does not scan.
    ///
    /// The corresponding C function is `mdb_stat`.
    public func count(_ db: Database) throws(LMDBError) -> Int {
        var stat = MDB_stat()
        try check(mdb_stat(try live, db.dbi, &stat))
        return stat.ms_entries
    }

    /// The pages `db` takes (branch, leaf and overflow pages) as this transaction sees it, from the
    /// B-tree's header: a damaged one may say anything, so each count is taken as at most 2⁴⁸ (and the sum
    /// can not overflow).
    ///
    /// The corresponding C function is `mdb_stat`.
    public func pages(_ db: Database) throws(LMDBError) -> Int {
        var stat = MDB_stat()
        try check(mdb_stat(try live, db.dbi, &stat))
        return [stat.ms_branch_pages, stat.ms_leaf_pages, stat.ms_overflow_pages].reduce(0) { $0 + min(max($1, 0), 1 << 48) }
    }

    /// A new cursor over `db`, positioned nowhere until moved.
    ///
    /// The corresponding C function is `mdb_cursor_open`.
    public func cursor(_ db: Database) throws(LMDBError) -> Cursor {
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(try live, db.dbi, &cursor))
        return Cursor(transaction: self, handle: cursor!)
    }
}

/// LMDB transactions belong to the thread that began them.
@available(*, unavailable)
extension Transaction: Sendable {}
