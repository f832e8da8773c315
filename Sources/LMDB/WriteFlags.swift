internal import CLMDB

/// Options for a single write, passed to `mdb_put` and `mdb_cursor_put`.
public struct WriteFlags: OptionSet, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Fail with `LMDBError.keyExists` instead of replacing an existing key.
    ///
    /// The corresponding C flag is `MDB_NOOVERWRITE`.
    public static let noOverwrite = WriteFlags(rawValue: UInt32(MDB_NOOVERWRITE))

    /// With `dupSort`, fail with `LMDBError.keyExists` if this exact pair is stored.
    ///
    /// The corresponding C flag is `MDB_NODUPDATA`.
    public static let noDupData = WriteFlags(rawValue: UInt32(MDB_NODUPDATA))

    /// Cursor writes only: replace the value at the cursor's position; the key must match it.
    ///
    /// The corresponding C flag is `MDB_CURRENT`.
    public static let current = WriteFlags(rawValue: UInt32(MDB_CURRENT))

    /// The key sorts after every stored key: LMDB appends without searching,
    /// which makes bulk loading of sorted keys fast and the pages dense.
    /// Fails with `LMDBError.keyExists` if the key does not sort last.
    ///
    /// The corresponding C flag is `MDB_APPEND`.
    public static let append = WriteFlags(rawValue: UInt32(MDB_APPEND))

    /// As `append`, for the values of one key in a `dupSort` database.
    ///
    /// The corresponding C flag is `MDB_APPENDDUP`.
    public static let appendDup = WriteFlags(rawValue: UInt32(MDB_APPENDDUP))
}
