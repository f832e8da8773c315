internal import CLMDB

/// An error reported by LMDB: one of its own `MDB_*` codes or a system `errno`.
///
/// The raw code is kept so nothing LMDB says is lost; the named constants
/// cover the codes callers act on. Match them in `catch` clauses:
///
/// ```swift
/// do {
///     try txn.put(db, key, value, flags: .noOverwrite)
/// } catch LMDBError.keyExists {
///     // already stored
/// }
/// ```
///
/// "Not found" is not reported as an error by lookups and cursor moves:
/// they return `nil`.
public struct LMDBError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw LMDB result code (an `MDB_*` code, or an `errno` value).
    public let code: Int32

    /// Creates an error from a raw LMDB result code.
    public init(code: Int32) {
        self.code = code
    }

    /// LMDB's own explanation of the code.
    ///
    /// The corresponding C function is `mdb_strerror`.
    public var description: String {
        String(cString: mdb_strerror(code))
    }

    /// Returns true when `error` is an `LMDBError` with the same code,
    /// so `catch LMDBError.keyExists` works where the thrown type is `any Error`.
    public static func ~= (pattern: LMDBError, error: any Error) -> Bool {
        (error as? LMDBError)?.code == pattern.code
    }

    /// The key (or key/value pair) is already stored and the write asked not to overwrite it.
    ///
    /// The corresponding C code is `MDB_KEYEXIST`.
    public static let keyExists = LMDBError(code: MDB_KEYEXIST)

    /// The key, database or pair does not exist. Lookups return `nil` instead;
    /// this is thrown only where absence means the request cannot be honoured,
    /// such as opening a named database that does not exist without `.create`.
    ///
    /// The corresponding C code is `MDB_NOTFOUND`.
    public static let notFound = LMDBError(code: MDB_NOTFOUND)

    /// A page LMDB expected is missing: the file is probably corrupt.
    ///
    /// The corresponding C code is `MDB_PAGE_NOTFOUND`.
    public static let pageNotFound = LMDBError(code: MDB_PAGE_NOTFOUND)

    /// A page has the wrong type: the file is corrupt.
    ///
    /// The corresponding C code is `MDB_CORRUPTED`.
    public static let corrupted = LMDBError(code: MDB_CORRUPTED)

    /// The environment had a fatal error and must be closed.
    ///
    /// The corresponding C code is `MDB_PANIC`.
    public static let panic = LMDBError(code: MDB_PANIC)

    /// The files were written by an incompatible LMDB version.
    ///
    /// The corresponding C code is `MDB_VERSION_MISMATCH`.
    public static let versionMismatch = LMDBError(code: MDB_VERSION_MISMATCH)

    /// The file is not an LMDB file.
    ///
    /// The corresponding C code is `MDB_INVALID`.
    public static let invalid = LMDBError(code: MDB_INVALID)

    /// The memory map is full. `Environment.write` handles this itself by
    /// growing the map and running the transaction again; callers see it only
    /// from code that bypasses that loop.
    ///
    /// The corresponding C code is `MDB_MAP_FULL`.
    public static let mapFull = LMDBError(code: MDB_MAP_FULL)

    /// More named databases were opened than `maxDatabases` allows.
    ///
    /// The corresponding C code is `MDB_DBS_FULL`.
    public static let databasesFull = LMDBError(code: MDB_DBS_FULL)

    /// Every reader slot is taken: more concurrent read transactions than `maxReaders`.
    ///
    /// The corresponding C code is `MDB_READERS_FULL`.
    public static let readersFull = LMDBError(code: MDB_READERS_FULL)

    /// The write transaction has too many dirty pages; split it into smaller ones.
    ///
    /// The corresponding C code is `MDB_TXN_FULL`.
    public static let transactionFull = LMDBError(code: MDB_TXN_FULL)

    /// Another process grew the map beyond this process's mapping.
    /// `Environment` handles this itself by adopting the new size and retrying.
    ///
    /// The corresponding C code is `MDB_MAP_RESIZED`.
    public static let mapResized = LMDBError(code: MDB_MAP_RESIZED)

    /// The operation does not fit the database's flags, or the database
    /// was reopened with different flags.
    ///
    /// The corresponding C code is `MDB_INCOMPATIBLE`.
    public static let incompatible = LMDBError(code: MDB_INCOMPATIBLE)

    /// A thread tried to hold two read transactions at once (see `EnvironmentFlags.noTLS`).
    ///
    /// The corresponding C code is `MDB_BAD_RSLOT`.
    public static let badReaderSlot = LMDBError(code: MDB_BAD_RSLOT)

    /// The transaction has ended, already failed, or is otherwise unusable.
    /// Also thrown when a `Transaction` or `Cursor` is used after its scope.
    ///
    /// The corresponding C code is `MDB_BAD_TXN`.
    public static let badTransaction = LMDBError(code: MDB_BAD_TXN)

    /// A key is empty or longer than `Environment.maxKeySize`, or a value has the wrong size.
    ///
    /// The corresponding C code is `MDB_BAD_VALSIZE`.
    public static let badValueSize = LMDBError(code: MDB_BAD_VALSIZE)

    /// The database handle is not valid in this transaction.
    ///
    /// The corresponding C code is `MDB_BAD_DBI`.
    public static let badDatabase = LMDBError(code: MDB_BAD_DBI)
}

/// Throws the `LMDBError` for `code` unless it is `MDB_SUCCESS`.
///
/// This is the one place where an LMDB result code becomes a Swift error;
/// every wrapper passes its C function's result through here.
@inline(__always)
internal func check(_ code: Int32) throws(LMDBError) {
    guard code == MDB_SUCCESS else { throw LMDBError(code: code) }
}
