internal import SystemCalls

/// Disk space for the files LMDB maps, allocated before the map is written.
///
/// With `MDB_WRITEMAP` the data file is as large as the map and sparse, and LMDB's lock file is mapped too:
/// a store writes to them through memory, so a page the disk has no room for is not an error code but a
/// SIGBUS that kills the process. Allocating the space first turns a full disk into an ordinary error.
enum FileSpace {
    /// Allocates the first `bytes` of `fd` on disk, extending it if shorter.
    /// Throws `ENOSPC` (as an `LMDBError` carrying the errno) when the disk is full.
    ///
    /// The corresponding C function is `posix_fallocate` (`FileDescriptor.allocate`).
    static func reserve(_ fd: FileDescriptor, bytes: Int) throws(LMDBError) {
        do {
            try fd.allocate(bytes: bytes)
        } catch {
            // A file system without allocation (rare on Linux) is left as LMDB makes it.
            guard error.errno != .notSupported else { return }
            throw LMDBError(code: error.errno.rawValue)
        }
    }

    /// The size of LMDB's lock file for `maxReaders` slots: a header of three 64-byte lines
    /// (`MDB_txninfo`, with its first reader slot) and a 64-byte line per further slot.
    static func lockFileSize(maxReaders: UInt32) -> Int { 192 + 64 * (Int(maxReaders) - 1) }

    /// Creates LMDB's lock file with its space allocated, before `mdb_env_open` maps it and writes to it.
    /// A lock file that exists already is left as it is (LMDB sizes its reader table from it).
    ///
    /// The corresponding C functions are `open`, `fstat` and `posix_fallocate`.
    static func prepareLockFile(_ path: String, maxReaders: UInt32, mode: FileMode) throws(LMDBError) {
        // When it can not be opened, LMDB opens it itself and reports what is wrong (a read-only
        // directory, say).
        guard let fd = try? FileDescriptor.open(path, .readWrite, options: [.create, .closeOnExec], permissions: mode)
        else { return }
        defer { fd.close() }
        guard let status = try? fd.status(), status.size == 0 else { return }
        try reserve(fd, bytes: lockFileSize(maxReaders: maxReaders))
    }
}
