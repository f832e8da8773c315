internal import CLMDB
internal import CLMDBGuard
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
    ///     `write` grows it by a fifth (`grownSize`) whenever it fills.
    ///   - maxDatabases: How many named databases may be opened.
    ///   - maxReaders: How many read transactions may be open at once, across processes.
    ///   - growthStep: The least the map grows by when it fills (`grownSize`).
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
        fileMode: FileMode = 0o600,
        growthStep: Int = 64 << 20
    ) throws {
        self.growthStep = growthStep
        readOnly = flags.contains(.readOnly)
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
        var stat = MDB_stat()
        pageSize = mdb_env_stat(handle, &stat) == 0 ? Int(stat.ms_psize) : 0
        faultSlot = MapFaults.claimSlot()
        MapFaults.opened(path)
        // Slots of readers that were killed stay taken until someone clears them; with enough of them every
        // transaction fails with `MDB_READERS_FULL`.
        clearStaleReaders()
    }

    /// The corresponding C function is `mdb_env_close`.
    deinit {
        mdb_env_close(handle)
        faultAroundOff?.close()
        if let faultSlot { MapFaults.releaseSlot(faultSlot) }
    }

    /// LMDB's page size (the system's).
    private let pageSize: Int

    /// Where `MapFaults` finds this environment's map, to mend a page the data file no longer has (nil: every
    /// slot was taken, and such a fault ends the process). Marked from then on: see `attempt`.
    private let faultSlot: Int?

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
    /// grown (`grownSize`), and `body` run again from the start, so the store never
    /// stops at a fixed size. `body` must therefore be safe to re-run: keep
    /// its effects inside the transaction, or make them idempotent.
    ///
    /// The corresponding C functions are `mdb_txn_begin`, `mdb_txn_commit`,
    /// `mdb_txn_abort` and, to grow, `mdb_env_set_mapsize`.
    ///
    /// With `large`, for a transaction that adds many pages (an import), a companion thread faults the
    /// pages ahead of the writer in and drops the written pages from the process's resident set
    /// (`MapPager`); only with `.writeMap`, where the transaction writes to the map itself. Such a write also
    /// maps only the pages it touches (`turnOffFaultAround`), unless it `readsInOrder`: a rebuild,
    /// which reads the whole log from page to page, where the pages around each one are the next it reads.
    public func write<R>(large: Bool = false, readsInOrder: Bool = false, _ body: (Transaction) throws -> R) throws -> R {
        try run(readOnly: false, exclusive: false, paged: large, touchedPagesOnly: large && !readsInOrder, body)
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

    /// Turns fault-around off for the map that lies at `bounds` (`mapBounds`), until the returned descriptor is
    /// closed; nil where the kernel can not, or the map is registered already.
    ///
    /// Why a large write turns it off for each attempt (`attempt`; a map grown between attempts is a new map):
    /// besides the pages it appends, it reads pages at random all over what lies behind it (the codes table for
    /// a code seen before, the id index, a chunk's stored sets), and each such fault maps the 16 cached pages
    /// around it too. They all stay in the resident set until the pager's next drop: at ten million events
    /// they were a sixth of an import's peak (docs/BULK.md, "Fault-around off while a large write runs").
    private func turnOffFaultAround(_ bounds: (start: UInt, end: UInt)) -> FileDescriptor? {
        guard let base = UnsafeRawPointer(bitPattern: bounds.start) else { return nil }
        return try? FaultAround.turnOff(base, count: Int(bounds.end - bounds.start))
    }

    /// Runs `body`, which reads much of the store, with the kernel told to read ahead (`MADV_NORMAL` on the
    /// whole map), then as LMDB left it (`MDB_NORDAHEAD`: `MADV_RANDOM`, no read-ahead, which suits lookups).
    /// A fault maps the cached pages around it either way (the kernel's fault-around, which `MADV_RANDOM`
    /// does not turn off); read-ahead brings in those not cached with their neighbours. `log verify` reads
    /// every page of the store: at ten million events, the store partly out of the page cache, a fault for
    /// each 4 KiB page was a fifth of its time.
    ///
    /// The advice is the process's, for the whole map, so other threads reading meanwhile get it too: it
    /// changes how fast they read, never what. Calls that overlap (threads of one process) count themselves
    /// (`readersMuch`): the last to end advises `MADV_RANDOM` again. The corresponding C function is `madvise`.
    public func readingMuch<R>(_ body: () throws -> R) rethrows -> R {
        // Advice only: a map that can not be found now (a damaged store, every reader slot taken) is read as it is.
        let map = (try? read { txn in mapping(try txn.live)?.map }) ?? nil
        guard let map, let base = map.baseAddress else { return try body() }
        let start = UnsafeMutableRawPointer(mutating: base)
        // Fails only for a range that is not mapped, which leaves nothing to advise.
        readersMuchLock.lock()
        readersMuch += 1
        try? MemoryMap.advise(start, count: map.count, .normal)
        readersMuchLock.unlock()
        defer {
            readersMuchLock.lock()
            readersMuch -= 1
            if readersMuch == 0 { try? MemoryMap.advise(start, count: map.count, .random) }
            readersMuchLock.unlock()
        }
        return try body()
    }

    /// How many calls of `readingMuch` are running, under `readersMuchLock`.
    private var readersMuch = 0
    private let readersMuchLock = ConditionLock()

    /// Has the kernel map only the pages that reads touch, not the cached pages around each one
    /// (`FaultAround`): for a process that makes a few lookups and exits, which then maps, and unmaps at its
    /// exit, a sixteenth of the pages. A process that reads on from page to page (`log verify`, a rebuild) or
    /// keeps its map for many answers (a server) is better off with fault-around, and does not call this.
    /// It lasts until the map is resized (LMDB maps it anew); where the kernel can not, nothing changes.
    /// Returns whether it took.
    @discardableResult
    public func mapOnlyTouchedPages() -> Bool {
        // Found through `mapBounds`, which keeps where the map lies for `Transaction.releaseReadPages`: the
        // query's own reads then find it without reading `/proc/self/maps` again.
        guard let bounds = try? read({ txn in mapBounds(try txn.live) }) else { return false }
        boundsLock.lock()
        defer { boundsLock.unlock() }
        if faultAroundOff == nil { faultAroundOff = turnOffFaultAround(bounds) }
        return faultAroundOff != nil
    }

    /// The userfaultfd that keeps fault-around off for the map (`mapOnlyTouchedPages`), under `boundsLock`;
    /// closed in `deinit`.
    private var faultAroundOff: FileDescriptor?

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
        guard vt_mdb_cursor_get(cursor, &key, &value, MDB_FIRST) == 0 else { return nil }
        return UnsafeRawPointer(key.mv_data)
    }

    /// How one attempt at a transaction ended.
    private enum Attempt<R> {
        case finished(R)
        /// Another process grew the map: adopt its size, then retry.
        case adoptMapSize
        /// The map filled at `size` bytes, the transaction having taken `consumed` bytes of it and done
        /// `done` of its work (`Transaction.workDone`): grow it, then retry.
        case grow(from: Int, consumed: Int, done: Double?, left: Int?)
        /// Every reader slot was taken: clear those of dead processes, then retry.
        case readersFull
    }

    /// How many times one transaction is tried again (map growth, a map grown by another process, a full
    /// reader table) before giving up. Growth adds a quarter (at least 64 MiB), so 48 steps reach
    /// terabytes from nothing, far beyond any real store; a
    /// damaged meta page can make LMDB report a resized map for ever, and that must end in an error.
    private static let maxAttempts = 48

    /// Runs attempts until one finishes, resizing the map in between while no
    /// transaction of this process is open. `exclusive` also keeps other
    /// transactions out during the attempt (`mdb_dbi_open` needs that).
    private func run<R>(readOnly: Bool, exclusive: Bool, paged: Bool = false, touchedPagesOnly: Bool = false,
                        _ body: (Transaction) throws -> R) throws -> R {
        var clearedReaders = false
        // Before the file is allocated again: a map that lost a page is not the file's.
        try checkNoPageLost()
        for _ in 0..<Environment.maxAttempts {
            if !readOnly && reservedBytes < mapSize { try reserveFileSpace() }
            let outcome: Attempt<R>
            if exclusive {
                outcome = try resizeLock.withExclusive { () throws -> Attempt<R> in
                    try attempt(readOnly: readOnly, paged: paged, touchedPagesOnly: touchedPagesOnly, body)
                }
            } else {
                outcome = try resizeLock.withShared { () throws -> Attempt<R> in
                    try attempt(readOnly: readOnly, paged: paged, touchedPagesOnly: touchedPagesOnly, body)
                }
            }
            switch outcome {
            case .finished(let result):
                return result
            case .adoptMapSize:
                // The other process's map is the file's size (LMDB extends the file to its map), not the map
                // size its meta page records: that only ever grows (`mdb_env_write_meta`), and a new store's
                // file is trimmed below it (`trimToPagesInUse`). The meta page is checked against the file.
                guard let (meta, fileSize) = MetaPage.current(ofFileAt: dataFile) else { throw LMDBError.badTransaction }
                try meta.check(fileSize: fileSize, path: dataFile)
                try resize { (_: Int) throws(LMDBError) -> Int? in fileSize }
            case .grow(let size, let consumed, let done, let left):
                try growMap(filledAt: size, consumed: consumed, done: done, left: left)
            case .readersFull:
                // Once: a table full of live readers is a real limit, reported as such.
                guard !clearedReaders, clearStaleReaders() > 0 else { throw LMDBError.readersFull }
                clearedReaders = true
            }
        }
        throw RetriesExhausted(path: path, attempts: Environment.maxAttempts)
    }

    /// Grows the map that filled at `size` bytes (`grownSize`), unless another writer of this process has.
    ///
    /// What the write's rate asks for (`done`) may be more than the disk has left while the least step fits
    /// (the rate moves with how far the search index's worker lags the writer), and the least step more than
    /// it has left while the write needs less (on a disk nearly full, a batch into a store cut back to its
    /// pages and a step that needs a little more than the step). So a growth the disk refuses is tried again
    /// by the least step, then by halves of it (`smallestGrowth`), and the disk is full only when none of
    /// them fits. None is more than a step: the data file keeps its bar.
    private func growMap(filledAt size: Int, consumed: Int, done: Double?, left: Int?) throws(LMDBError) {
        let step = growthStep
        /// Grows to what `target` makes of `size`; false when the disk has no room for it.
        func grow(_ target: (Int) throws(LMDBError) -> Int) throws(LMDBError) -> Bool {
            do {
                try resize { (_: Int) throws(LMDBError) -> Int? in self.mapSize > size ? nil : try target(size) }
                return true
            } catch {
                guard error.code == Errno.noSpace.rawValue else { throw error }
                return false
            }
        }
        func stepped(at rate: Double?, left: Int?) -> (Int) throws(LMDBError) -> Int {
            { (size: Int) throws(LMDBError) in try Environment.grownSize(from: size, consumed: consumed, done: rate, left: left, step: step) }
        }
        if done != nil || left != nil, try grow(stepped(at: done, left: left)) { return }
        if try grow(stepped(at: nil, left: nil)) { return }
        var part = step / 2
        while part >= Environment.smallestGrowth(step: step) {
            let by = part
            if try grow({ ($0 + by + 0xFFFF) & ~0xFFFF }) { return }
            part /= 2
        }
        throw LMDBError(code: Errno.noSpace.rawValue)
    }

    /// The smallest growth tried when the disk has no room for a step (`growMap`): a sixty-fourth of the step
    /// (1 MiB of a store's 64), at least 64 KiB. From half a step, halved each time, six tries tell a full disk.
    static func smallestGrowth(step: Int) -> Int { max(step >> 6, 1 << 16) }

    /// Whether the environment was opened read-only (its file is never allocated).
    private let readOnly: Bool

    /// The least a full map grows by (`grownSize`), and what the data file may hold beyond a quarter more
    /// than its pages in use: 64 MiB unless the environment was opened with another.
    public let growthStep: Int

    /// The map after one that filled at `size` bytes: a fifth larger, at least `growthStep` more, so that
    /// the data file (as large as the map: LMDB extends it to the map, and `reserveFileSpace` allocates it)
    /// stays within 1.25 times its pages in use plus 64 MiB (doubling let it reach twice). A fifth, not a
    /// quarter: a write may end with fewer pages in use than filled the map (a rebuild writes the read
    /// models anew and frees the old ones' pages only as it commits), and a store cut back to its pages
    /// (`trimToPagesInUse`) fills with a step of them still free; a quarter then left a rebuild of ten
    /// million events at 1.257 times (docs/BULK.md). A write that said how much of its work it had done
    /// (`Transaction.workDone`, at least 1/64 of it) when it took `consumed` bytes gets room for all of it at
    /// that rate, with an eighth to spare, in one step: it runs again once, not once for every fifth. One
    /// that said what the rest will take (`Transaction.bytesLeft`) gets at least that much more.
    static func grownSize(from size: Int, consumed: Int, done: Double?, left: Int? = nil, step: Int) throws(LMDBError) -> Int {
        let (stepped, overflow) = size.addingReportingOverflow(max(step, size / 5))
        guard !overflow else { throw LMDBError.mapFull }
        var grown = stepped
        if let done, done >= 1.0 / 64, done < 1, consumed > 0 {
            let rest = Double(consumed) * (1 - done) / done
            if rest < Double(Int.max / 4) { grown = max(grown, size + Int(rest * 1.125) + step / 8) }
        }
        if let left, left > 0, left < Int.max / 4 { grown = max(grown, size + left) }
        return (grown + 0xFFFF) & ~0xFFFF
    }

    /// The attempt's outcome when `transaction` filled the map: grow, by what it took of the map and how far
    /// its work had got.
    private func grow<R>(_ transaction: Transaction) -> Attempt<R> {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        let size = mapSize
        guard mdb_env_info(handle, &info) == 0, mdb_env_stat(handle, &stat) == 0 else {
            return .grow(from: size, consumed: 0, done: nil, left: transaction.bytesLeft)
        }
        return .grow(from: size, consumed: size - (info.me_last_pgno + 1) * Int(stat.ms_psize), done: transaction.workDone,
                     left: transaction.bytesLeft)
    }

    /// Sets the map to what `target` makes of the data file's size (nil: leave it), never below that size,
    /// while no transaction of this process is open and no other process of the store resizes: LMDB cuts
    /// the file to the map it is given (`ftruncate` in `mdb_env_map`), and a file cut below another
    /// process's map kills that process with SIGBUS when it writes past the cut. The data file's advisory
    /// lock (`flock`, which LMDB does not use) is held from reading the file's size to the resize.
    ///
    /// The corresponding C functions are `mdb_env_get_fd`, `flock`, `fstat` and `mdb_env_set_mapsize`.
    private func resize(_ target: (_ fileSize: Int) throws(LMDBError) -> Int?) throws(LMDBError) {
        try resizeLock.withExclusive { () throws(LMDBError) in
            var raw: mdb_filehandle_t = -1
            try check(mdb_env_get_fd(handle, &raw))
            let fd = FileDescriptor(rawValue: raw)
            do throws(SystemError) { try fd.lockExclusively() } catch { throw LMDBError(code: error.errno.rawValue) }
            defer { try? fd.unlock() }
            let fileSize: Int
            do throws(SystemError) { fileSize = try fd.status().size } catch { throw LMDBError(code: error.errno.rawValue) }
            guard let wanted = try target(fileSize) else { return }
            let size = max(wanted, fileSize)
            // The file is allocated to the new size before the map reaches it: on a full disk the growth
            // fails here with the file as it was (`posix_fallocate` changes no size when it fails), rather
            // than leave a file that LMDB has extended with a hole every later writer must fill first.
            if size > fileSize && !readOnly {
                try FileSpace.reserve(fd, bytes: size)
                reservedBytes = max(reservedBytes, size)
            }
            try check(mdb_env_set_mapsize(handle, size))
            forgetBounds()
        }
    }

    /// Cuts the map, and with it the data file, to the pages in use and one least step of growth, so
    /// that a store made with a map sized for its first write (an import) keeps the bar of 1.25 times its
    /// pages in use plus 64 MiB. Only for a store no other process has open (a new store built aside,
    /// `Store.create`): a process whose map reaches past the cut would die of SIGBUS writing there. The meta
    /// page keeps the larger map size it recorded (LMDB never lowers it); nothing reads it but LMDB at open
    /// when no size is given, which this wrapper always gives, and `mdb_env_set_mapsize(0)`, which it never
    /// calls (a map grown by another process is adopted from the file's size).
    ///
    /// The corresponding C functions are `mdb_env_info`, `mdb_env_stat`, `mdb_env_set_mapsize`, `fstat` and
    /// `ftruncate` (by LMDB).
    public func trimToPagesInUse() throws(LMDBError) {
        try resizeLock.withExclusive { () throws(LMDBError) in
            var info = MDB_envinfo()
            var stat = MDB_stat()
            try check(mdb_env_info(handle, &info))
            try check(mdb_env_stat(handle, &stat))
            let inUse = (info.me_last_pgno + 1) * Int(stat.ms_psize)
            let trimmed = (inUse + growthStep + 0xFFFF) & ~0xFFFF
            guard trimmed < info.me_mapsize else { return }
            try check(mdb_env_set_mapsize(handle, trimmed))
            forgetBounds()
            reservedBytes = min(reservedBytes, trimmed)
        }
    }

    /// Grows the map, before a write transaction, so that `pages` pages lie free past the pages in use (at
    /// most as many as are in use): for a write that will take more new pages than the map has left, which
    /// would otherwise fill it late and run again from the start. A rebuild writes its small read models anew
    /// while their old pages are freed only at its commit, and a store just made is cut back to its pages and
    /// one step (`trimToPagesInUse`): right after an import of ten million events, the rebuild filled the map
    /// near its end and ran twice (docs/BULK.md). Nothing when the map has the room already, and nothing
    /// when the disk has not: the write then grows the map as it fills, as any write does.
    ///
    /// The corresponding C functions are `mdb_env_info` and `mdb_env_stat`, then as `resize`.
    public func makeRoom(pages: Int) throws(LMDBError) {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        try check(mdb_env_info(handle, &info))
        try check(mdb_env_stat(handle, &stat))
        let inUse = info.me_last_pgno + 1, pageSize = Int(stat.ms_psize)
        let room = min(max(pages, 0), inUse) * pageSize
        let wanted = (inUse * pageSize + room + 0xFFFF) & ~0xFFFF
        guard wanted > info.me_mapsize else { return }
        do {
            try resize { (_: Int) throws(LMDBError) -> Int? in self.mapSize < wanted ? wanted : nil }
        } catch where error.code == Errno.noSpace.rawValue {
            return
        }
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

    /// Refuses (`DamagedMetaPage`) a transaction on a data file cut shorter than the pages its meta page names:
    /// another program truncated it while the store was open, and the first read past its end would kill this
    /// process with SIGBUS (a server, with every request it was answering). Checked as each transaction
    /// begins, a `fstat`; a cut during a transaction is met by `MapFaults` (`MapPageLost`).
    ///
    /// The corresponding C functions are `mdb_env_info`, `mdb_env_stat`, `mdb_env_get_fd` and `fstat`.
    private func checkFileCoversPages() throws(DamagedMetaPage) {
        var info = MDB_envinfo(), stat = MDB_stat()
        var raw: mdb_filehandle_t = -1
        guard mdb_env_info(handle, &info) == 0, mdb_env_stat(handle, &stat) == 0, mdb_env_get_fd(handle, &raw) == 0,
              let size = try? FileDescriptor(rawValue: raw).status().size
        else { return }
        let pageSize = Int(stat.ms_psize)
        guard pageSize > 0, size < (info.me_last_pgno + 1) * pageSize else { return }
        throw DamagedMetaPage(path: dataFile, reason: "names page \(info.me_last_pgno) of a file of \(size / pageSize) pages "
                              + "(the file was cut while the store was open)")
    }

    /// Tells `MapFaults` where the map lies while transaction `txn` keeps it there (it moves only when resized,
    /// between transactions), so that a page the data file no longer has is mended instead of ending the
    /// process; refuses the transaction (`MapPageLost`) once a page of this map was: the map is not the file's.
    private func watchMap(_ txn: OpaquePointer) throws(MapPageLost) {
        guard let faultSlot else { return }
        try checkNoPageLost()
        guard let bounds = mapBounds(txn), pageSize > 0 else { return }
        MapFaults.watch(faultSlot, start: bounds.start, end: bounds.end, pageSize: pageSize)
    }

    /// Refuses what a transaction did once a page of the map was mended (`MapFaults`): it may have read the
    /// mended zeros, or written where the file no longer is.
    private func checkNoPageLost() throws(MapPageLost) {
        guard let faultSlot, MapFaults.lostPage(faultSlot) else { return }
        throw MapPageLost(path: dataFile)
    }

    /// Begins a transaction, runs `body`, then commits, or aborts if `body` throws or asked to roll back.
    private func attempt<R>(readOnly: Bool, paged: Bool, touchedPagesOnly: Bool,
                            _ body: (Transaction) throws -> R) throws -> Attempt<R> {
        var begun: OpaquePointer?
        let code = mdb_txn_begin(handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &begun)
        if code == MDB_MAP_RESIZED { return .adoptMapSize }
        if code == MDB_READERS_FULL { return .readersFull }
        try check(code)
        guard let begun else { throw LMDBError.badTransaction }
        do {
            try checkFileCoversPages()
            try watchMap(begun)
        } catch {
            mdb_txn_abort(begun)
            throw error
        }
        // The pager works on the map, so it stops before this attempt ends and the map may move.
        let pager = paged && !readOnly ? makePager(begun) : nil
        let faultAround = pager != nil && touchedPagesOnly ? mapBounds(begun).flatMap(turnOffFaultAround) : nil
        defer {
            faultAround?.close()
            pager?.stop()
        }
        let transaction = Transaction(environment: self, handle: begun, isReadOnly: readOnly, pager: pager)
        let result: R
        do {
            result = try body(transaction)
            try checkNoPageLost()
        } catch {
            transaction.abort()
            try checkNoPageLost()
            if transaction.ranOutOfMap { return grow(transaction) }
            throw error
        }
        if transaction.ranOutOfMap {
            // `body` swallowed the error, but LMDB will not commit this transaction.
            transaction.abort()
            return grow(transaction)
        }
        if transaction.rollsBack {
            transaction.abort()
            return .finished(result)
        }
        pager?.committing()
        do {
            try transaction.commit()
        } catch {
            try checkNoPageLost()
            if transaction.ranOutOfMap { return grow(transaction) }
            // The data may be in the map, and its meta page too, when only a flush failed.
            throw CommitFailed(underlying: error)
        }
        // A page lost while committing: what the commit wrote there is not in the file.
        try checkNoPageLost()
        return .finished(result)
    }
}
