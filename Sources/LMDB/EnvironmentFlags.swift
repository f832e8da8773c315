internal import CLMDB

/// Options for opening an `Environment`, passed to `mdb_env_open`.
public struct EnvironmentFlags: OptionSet, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `path` names the data file itself (the lock file is `path` + "-lock")
    /// instead of a directory holding `data.mdb` and `lock.mdb`.
    ///
    /// The corresponding C flag is `MDB_NOSUBDIR`.
    public static let noSubdir = EnvironmentFlags(rawValue: UInt32(MDB_NOSUBDIR))

    /// Open read-only: write transactions fail.
    ///
    /// The corresponding C flag is `MDB_RDONLY`.
    public static let readOnly = EnvironmentFlags(rawValue: UInt32(MDB_RDONLY))

    /// Skip the fsync after commit: faster, but the last transactions may be
    /// lost (never corrupted) on a system crash. Call `Environment.sync(force:)` to persist.
    ///
    /// The corresponding C flag is `MDB_NOSYNC`.
    public static let noSync = EnvironmentFlags(rawValue: UInt32(MDB_NOSYNC))

    /// Skip the fsync of the meta page after commit: a system crash may undo
    /// the last transaction, but keeps the database consistent.
    ///
    /// The corresponding C flag is `MDB_NOMETASYNC`.
    public static let noMetaSync = EnvironmentFlags(rawValue: UInt32(MDB_NOMETASYNC))

    /// Write through a writable memory map instead of `write(2)`: faster
    /// commits, but stray pointer writes in the process can corrupt the file.
    ///
    /// The corresponding C flag is `MDB_WRITEMAP`.
    public static let writeMap = EnvironmentFlags(rawValue: UInt32(MDB_WRITEMAP))

    /// With `writeMap`, flush asynchronously.
    ///
    /// The corresponding C flag is `MDB_MAPASYNC`.
    public static let mapAsync = EnvironmentFlags(rawValue: UInt32(MDB_MAPASYNC))

    /// Tie reader slots to transactions instead of threads, so one thread may
    /// hold several read transactions and a read transaction may move between
    /// threads (as Swift tasks do).
    ///
    /// The corresponding C flag is `MDB_NOTLS`.
    public static let noTLS = EnvironmentFlags(rawValue: UInt32(MDB_NOTLS))

    /// Do no locking: the caller guarantees a single writer and no readers
    /// of pages being reused.
    ///
    /// The corresponding C flag is `MDB_NOLOCK`.
    public static let noLock = EnvironmentFlags(rawValue: UInt32(MDB_NOLOCK))

    /// Turn off OS read-ahead: helps random reads of databases larger than RAM.
    ///
    /// The corresponding C flag is `MDB_NORDAHEAD`.
    public static let noReadAhead = EnvironmentFlags(rawValue: UInt32(MDB_NORDAHEAD))

    /// Don't zero malloc'd pages before writing them: faster, may write stale heap bytes to unused file space.
    ///
    /// The corresponding C flag is `MDB_NOMEMINIT`.
    public static let noMemoryInit = EnvironmentFlags(rawValue: UInt32(MDB_NOMEMINIT))
}
