internal import CLMDB
public import SystemCalls

/// An LMDB environment: one memory-mapped file holding any number of named databases.
///
/// Open it once per process and share it: it is `Sendable`, and every
/// transaction runs inside `read` or `write`, which begin and end it around a
/// closure. That scoping lets the environment own map-size changes, which
/// LMDB allows only while the process has no transaction open: writes that
/// fill the map grow it and run again, and a map grown by another process is
/// adopted, so callers never see `mapFull` or `mapResized`.
///
/// Calling `read`, `write` or `openDatabase` from inside a body is not
/// supported (LMDB allows one write transaction at a time, and without
/// `.noTLS` one read transaction per thread): use the transaction you were given.
public final class Environment: @unchecked Sendable {
    /// The permission bits of created files, as `open(2)` takes them.
    public typealias FileMode = SystemCalls.FileMode

    /// LMDB's environment, closed in `deinit`.
    private let handle: OpaquePointer

    /// Held shared by transactions and exclusively while the map is resized.
    private let resizeLock = ReadWriteLock()

    /// The directory (or, with `.noSubdir`, the file) the environment was opened at.
    public let path: String
    /// The data file.
    private let dataFile: String

    /// Opens the environment in the existing directory `path`, creating
    /// `data.mdb` and `lock.mdb` with permissions `fileMode` if they are missing.
    ///
    /// - Parameters:
    ///   - mapSize: The initial size of the memory map in bytes, a multiple of
    ///     the page size. It only bounds the file until the next growth:
    ///     `write` doubles it whenever it fills.
    ///   - maxDatabases: How many named databases may be opened.
    ///   - maxReaders: How many read transactions may be open at once, across processes.
    ///
    /// A data file whose meta page claims more than the file holds is refused (`DamagedMetaPage`) before
    /// LMDB maps it: LMDB would size the map, and this wrapper allocate the file, to what the damage asks.
    /// Otherwise LMDB's error (`LMDBError`).
    ///
    /// The corresponding C functions are `mdb_env_create`, `mdb_env_set_mapsize`,
    /// `mdb_env_set_maxdbs`, `mdb_env_set_maxreaders` and `mdb_env_open`.
    public init(
        path: String,
        mapSize: Int = 64 << 20,
        maxDatabases: UInt32 = 32,
        maxReaders: UInt32 = 126,
        flags: EnvironmentFlags = [],
        fileMode: FileMode = 0o600
    ) throws {
        let dataFile = flags.contains(.noSubdir) ? path : path + "/data.mdb"
        if let (meta, fileSize) = MetaPage.current(ofFileAt: dataFile) { try meta.check(fileSize: fileSize, path: dataFile) }
        var created: OpaquePointer?
        try check(mdb_env_create(&created))
        guard let handle = created else { throw LMDBError(code: Errno.noMemory.rawValue) }
        do {
            try check(mdb_env_set_mapsize(handle, mapSize))
            try check(mdb_env_set_maxdbs(handle, maxDatabases))
            try check(mdb_env_set_maxreaders(handle, maxReaders))
            try check(mdb_env_set_assert(handle, MapFaults.lmdbAssertion))
            if !flags.contains(.noSubdir) && !flags.contains(.readOnly) {
                try FileSpace.prepareLockFile(path + "/lock.mdb", maxReaders: maxReaders, mode: fileMode)
            }
            try check(mdb_env_open(handle, path, flags.rawValue, fileMode))
        } catch {
            mdb_env_close(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        self.dataFile = dataFile
        maxKeySize = Int(mdb_env_get_maxkeysize(handle))
        MapFaults.opened(path)
        // Slots of readers that were killed stay taken until someone clears them; with enough of them every
        // transaction fails with `MDB_READERS_FULL`.
        clearStaleReaders()
    }

    /// The corresponding C function is `mdb_env_close`.
    deinit {
        mdb_env_close(handle)
    }

    /// The current size of the memory map in bytes; grows as `write` needs.
    ///
    /// The corresponding C function is `mdb_env_info`.
    public var mapSize: Int {
        var info = MDB_envinfo()
        // Fails only for a null environment, which `handle` never is.
        _ = mdb_env_info(handle, &info)
        return info.me_mapsize
    }

    /// The longest key (and `dupSort` value) LMDB accepts, in bytes.
    ///
    /// The corresponding C function is `mdb_env_get_maxkeysize`.
    public let maxKeySize: Int

    /// How many bytes of the data file are known to be allocated on disk (`FileSpace.reserve`), so that
    /// writes through the map never meet a hole the disk has no room for. Changed under `resizeLock`.
    private var reservedBytes = 0

    /// Frees the reader slots of processes that no longer exist.
    ///
    /// The corresponding C function is `mdb_reader_check`.
    @discardableResult
    public func clearStaleReaders() -> Int {
        var dead: Int32 = 0
        // Fails only for a null environment, which `handle` never is.
        _ = mdb_reader_check(handle, &dead)
        return Int(dead)
    }

    /// Grows the map, before a large write, so that `bytes` more than the pages in use fit in it. A write
    /// that fills the map runs again from its start once the map has doubled, so a write that knows its
    /// size (an import into an open store, as the server's) asks for it up front instead of running its
    /// first part again at each doubling. Never shrinks the map.
    ///
    /// The corresponding C functions are `mdb_env_info`, `mdb_env_stat` and `mdb_env_set_mapsize`.
    public func reserveMap(forAnother bytes: Int) throws(LMDBError) {
        try resizeLock.withExclusive { () throws(LMDBError) in
            var info = MDB_envinfo()
            var stat = MDB_stat()
            try check(mdb_env_info(handle, &info))
            try check(mdb_env_stat(handle, &stat))
            let inUse = (info.me_last_pgno + 1) * Int(stat.ms_psize)
            let (wanted, overflow) = inUse.addingReportingOverflow(bytes)
            guard !overflow else { throw LMDBError.mapFull }
            let rounded = (wanted + 0xFFFF) & ~0xFFFF
            if rounded > info.me_mapsize {
                try check(mdb_env_set_mapsize(handle, rounded))
                forgetBounds()
            }
        }
    }

    /// Flushes written data to disk; needed for durability only with `.noSync`
    /// or `.mapAsync`. With `force`, flushes synchronously even then.
    ///
    /// The corresponding C function is `mdb_env_sync`.
    public func sync(force: Bool = true) throws(LMDBError) {
        try check(mdb_env_sync(handle, force ? 1 : 0))
    }

    /// Opens the database `name` (`nil` for the environment's main database),
    /// creating it when `flags` contain `.create`, and returns a handle valid
    /// for every later transaction. Throws `LMDBError.notFound` when the
    /// database does not exist and `.create` is absent.
    ///
    /// It runs in its own transaction (a write transaction with `.create`,
    /// read-only otherwise) while no other transaction of this process is open,
    /// as LMDB requires. Open databases once, not per transaction.
    ///
    /// The corresponding C function is `mdb_dbi_open`.
    public func openDatabase(_ name: String?, flags: DatabaseFlags = []) throws -> Database {
        try run(readOnly: !flags.contains(.create), exclusive: true) { transaction throws(LMDBError) in
            try transaction.openDatabase(name, flags: flags)
        }
    }

    /// Opens (with `.create` in `flags`, creates) several databases in one transaction, so that a new
    /// environment gets all of them in one commit or none.
    ///
    /// The corresponding C function is `mdb_dbi_open`.
    public func openDatabases(_ names: [String], flags: DatabaseFlags = []) throws -> [Database] {
        try run(readOnly: !flags.contains(.create), exclusive: true) { transaction throws(LMDBError) in
            var databases: [Database] = []
            for name in names { databases.append(try transaction.openDatabase(name, flags: flags)) }
            return databases
        }
    }

    /// Runs `body` in a read-only transaction (a consistent snapshot) and ends it
    /// when `body` returns or throws. Buffers read must not escape `body`.
    ///
    /// The corresponding C functions are `mdb_txn_begin` with `MDB_RDONLY` and `mdb_txn_commit`/`mdb_txn_abort`.
    public func read<R>(_ body: (Transaction) throws -> R) throws -> R {
        try run(readOnly: true, exclusive: false, body)
    }

    /// Runs `body` in a write transaction, committing it when `body` returns
    /// and aborting it when `body` throws.
    ///
    /// When the map fills (`MDB_MAP_FULL` from any write in `body` or from the
    /// commit, even if `body` caught it), the transaction is aborted, the map
    /// size doubled, and `body` run again from the start, so the store never
    /// stops at a fixed size. `body` must therefore be safe to re-run: keep
    /// its effects inside the transaction, or make them idempotent.
    ///
    /// The corresponding C functions are `mdb_txn_begin`, `mdb_txn_commit`,
    /// `mdb_txn_abort` and, to grow, `mdb_env_set_mapsize`.
    ///
    /// With `large`, for a transaction that adds many pages (an import), a companion thread faults the
    /// pages ahead of the writer in and drops the written pages from the process's resident set
    /// (`MapPager`); only with `.writeMap`, where the transaction writes to the map itself.
    public func write<R>(large: Bool = false, _ body: (Transaction) throws -> R) throws -> R {
        try run(readOnly: false, exclusive: false, paged: large, body)
    }

    /// A pager for the write transaction `txn`, just begun, or nil when writes do not go to the map (or the
    /// map can not be found).
    ///
    /// The corresponding C functions are `mdb_env_get_flags`, `mdb_env_info`, `mdb_env_stat`, and to find the
    /// map, `mdb_cursor_open` and `mdb_cursor_get` on the main database.
    private func makePager(_ txn: OpaquePointer) -> MapPager? {
        var flags: UInt32 = 0
        guard mdb_env_get_flags(handle, &flags) == 0, flags & UInt32(MDB_WRITEMAP) != 0,
              let (map, pageSize, lastPage) = mapping(txn)
        else { return nil }
        // The transaction takes its new pages after the last page in use when it began.
        return MapPager(map: map, firstNew: (lastPage + 1) * pageSize, pageSize: pageSize)
    }

    /// Runs `body`, which reads much of the store, with the kernel told to map the cached pages around each
    /// page touched and to read ahead (`MADV_NORMAL` on the whole map), then as LMDB left it (`MDB_NORDAHEAD`:
    /// `MADV_RANDOM`, one fault per page touched, which suits lookups). `log verify` reads every page of the
    /// store: at ten million events one fault per 4 KiB page was a fifth of its time.
    ///
    /// The advice is the process's, for the whole map, so other threads reading meanwhile get it too: it
    /// changes how fast they read, never what. The corresponding C function is `madvise`.
    public func readingMuch<R>(_ body: () throws -> R) throws -> R {
        let map = try read { txn in mapping(try txn.live)?.map }
        guard let map, let base = map.baseAddress else { return try body() }
        let start = UnsafeMutableRawPointer(mutating: base)
        // Fails only for a range that is not mapped, which leaves nothing to advise.
        try? MemoryMap.advise(start, count: map.count, .normal)
        defer { try? MemoryMap.advise(start, count: map.count, .random) }
        return try body()
    }

    /// Forgets where the map lies, after a resize.
    private func forgetBounds() {
        boundsLock.lock()
        knownBounds = nil
        boundsLock.unlock()
    }

    /// Where the map lies (start, end), found once per map size: `mapBounds`. Reset whenever the map is
    /// resized (which may move it), under `resizeLock` held exclusively.
    private var knownBounds: (size: Int, start: UInt, end: UInt)?
    private let boundsLock = ConditionLock()

    /// Where the map lies as transaction `txn` sees it (start, end), or nil when it can not be found.
    /// `Transaction.releaseReadPages` keeps to it: a damaged page can make LMDB hand out a value that points
    /// outside the map, and dropping that range from the process's memory would drop its heap or its code.
    func mapBounds(_ txn: OpaquePointer) -> (start: UInt, end: UInt)? {
        let size = mapSize
        boundsLock.lock()
        defer { boundsLock.unlock() }
        if let known = knownBounds, known.size == size { return (known.start, known.end) }
        guard let map = mapping(txn)?.map, let base = map.baseAddress else { return nil }
        let start = UInt(bitPattern: base)
        knownBounds = (size, start, start + UInt(map.count))
        return (start, start + UInt(map.count))
    }

    /// The map as transaction `txn` sees it, its page size and the environment's last page in use; nil
    /// when the map can not be found (off Linux, or a store without named databases).
    ///
    /// The corresponding C functions are `mdb_env_info`, `mdb_env_stat`, and to find the map,
    /// `mdb_cursor_open` and `mdb_cursor_get` on the main database.
    func mapping(_ txn: OpaquePointer) -> (map: UnsafeRawBufferPointer, pageSize: Int, lastPage: Int)? {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        guard mdb_env_info(handle, &info) == 0, mdb_env_stat(handle, &stat) == 0,
              let inMap = Environment.addressInMap(txn),
              let map = MemoryMap.sharedMapping(containing: inMap, size: info.me_mapsize)
        else { return nil }
        return (map, Int(stat.ms_psize), info.me_last_pgno)
    }

    /// An address inside the map: that of the first key of the main database (which names the databases),
    /// or nil when it has none. LMDB tells where its map begins only for a fixed map (`me_mapaddr`).
    private static func addressInMap(_ txn: OpaquePointer) -> UnsafeRawPointer? {
        var cursor: OpaquePointer?
        // The main database's handle is 1 in every environment (`MAIN_DBI`).
        guard mdb_cursor_open(txn, 1, &cursor) == 0, let cursor else { return nil }
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val(), value = MDB_val()
        guard mdb_cursor_get(cursor, &key, &value, MDB_FIRST) == 0 else { return nil }
        return UnsafeRawPointer(key.mv_data)
    }

    /// How one attempt at a transaction ended.
    private enum Attempt<R> {
        case finished(R)
        /// Another process grew the map: adopt its size, then retry.
        case adoptMapSize
        /// The map filled at `size` bytes: grow it, then retry.
        case grow(from: Int)
        /// Every reader slot was taken: clear those of dead processes, then retry.
        case readersFull
    }

    /// How many times one transaction is tried again (map growth, a map grown by another process, a full
    /// reader table) before giving up. Growth doubles the map, so this is far beyond any real store; a
    /// damaged meta page can make LMDB report a resized map for ever, and that must end in an error.
    private static let maxAttempts = 48

    /// Runs attempts until one finishes, resizing the map in between while no
    /// transaction of this process is open. `exclusive` also keeps other
    /// transactions out during the attempt (`mdb_dbi_open` needs that).
    private func run<R>(readOnly: Bool, exclusive: Bool, paged: Bool = false, _ body: (Transaction) throws -> R) throws -> R {
        var clearedReaders = false
        for _ in 0..<Environment.maxAttempts {
            if !readOnly && reservedBytes < mapSize { try reserveFileSpace() }
            let outcome: Attempt<R>
            if exclusive {
                outcome = try resizeLock.withExclusive { () throws -> Attempt<R> in try attempt(readOnly: readOnly, paged: paged, body) }
            } else {
                outcome = try resizeLock.withShared { () throws -> Attempt<R> in try attempt(readOnly: readOnly, paged: paged, body) }
            }
            switch outcome {
            case .finished(let result):
                return result
            case .adoptMapSize:
                // LMDB takes the size from the meta page: checked against the file first.
                if let (meta, fileSize) = MetaPage.current(ofFileAt: dataFile) {
                    try meta.check(fileSize: fileSize, mapInFile: true, path: dataFile)
                }
                try resizeLock.withExclusive { () throws(LMDBError) in
                    try check(mdb_env_set_mapsize(handle, 0))
                    forgetBounds()
                }
            case .grow(let size):
                try resizeLock.withExclusive { () throws(LMDBError) in
                    // Another writer of this process may have grown it already.
                    if mapSize <= size {
                        let (doubled, overflow) = size.multipliedReportingOverflow(by: 2)
                        guard !overflow else { throw LMDBError.mapFull }
                        try check(mdb_env_set_mapsize(handle, doubled))
                        forgetBounds()
                    }
                }
            case .readersFull:
                // Once: a table full of live readers is a real limit, reported as such.
                guard !clearedReaders, clearStaleReaders() > 0 else { throw LMDBError.readersFull }
                clearedReaders = true
            }
        }
        throw RetriesExhausted(path: path, attempts: Environment.maxAttempts)
    }

    /// Allocates the data file on disk up to the map's size before a write may touch it: with `MDB_WRITEMAP`
    /// the file is sparse, and a write to a page the disk has no room for would kill the process with
    /// SIGBUS instead of failing. A full disk so refuses the write here, with the store as it was.
    private func reserveFileSpace() throws(LMDBError) {
        try resizeLock.withExclusive { () throws(LMDBError) in
            let size = mapSize
            guard reservedBytes < size else { return }
            var fd: mdb_filehandle_t = -1
            try check(mdb_env_get_fd(handle, &fd))
            try FileSpace.reserve(FileDescriptor(rawValue: fd), bytes: size)
            reservedBytes = size
        }
    }

    /// Begins a transaction, runs `body`, then commits, or aborts if `body` throws or asked to roll back.
    private func attempt<R>(readOnly: Bool, paged: Bool, _ body: (Transaction) throws -> R) throws -> Attempt<R> {
        var begun: OpaquePointer?
        let code = mdb_txn_begin(handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &begun)
        if code == MDB_MAP_RESIZED { return .adoptMapSize }
        if code == MDB_READERS_FULL { return .readersFull }
        try check(code)
        guard let begun else { throw LMDBError.badTransaction }
        // The pager works on the map, so it stops before this attempt ends and the map may move.
        let pager = paged && !readOnly ? makePager(begun) : nil
        defer { pager?.stop() }
        let transaction = Transaction(environment: self, handle: begun, isReadOnly: readOnly, pager: pager)
        let result: R
        do {
            result = try body(transaction)
        } catch {
            transaction.abort()
            if transaction.ranOutOfMap { return .grow(from: mapSize) }
            throw error
        }
        if transaction.ranOutOfMap {
            // `body` swallowed the error, but LMDB will not commit this transaction.
            transaction.abort()
            return .grow(from: mapSize)
        }
        if transaction.rollsBack {
            transaction.abort()
            return .finished(result)
        }
        pager?.committing()
        do {
            try transaction.commit()
        } catch {
            if transaction.ranOutOfMap { return .grow(from: mapSize) }
            // The data may be in the map, and its meta page too, when only a flush failed.
            throw CommitFailed(underlying: error)
        }
        return .finished(result)
    }
}
