internal import CLMDB

/// Options for opening a `Database`, passed to `mdb_dbi_open`.
///
/// Everything except `create` is stored with the database: reopen it with the same flags.
public struct DatabaseFlags: OptionSet, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Create the database if it does not exist.
    ///
    /// The corresponding C flag is `MDB_CREATE`.
    public static let create = DatabaseFlags(rawValue: UInt32(MDB_CREATE))

    /// Compare keys as byte strings read from the end.
    ///
    /// The corresponding C flag is `MDB_REVERSEKEY`.
    public static let reverseKey = DatabaseFlags(rawValue: UInt32(MDB_REVERSEKEY))

    /// Allow several sorted values per key.
    ///
    /// The corresponding C flag is `MDB_DUPSORT`.
    public static let dupSort = DatabaseFlags(rawValue: UInt32(MDB_DUPSORT))

    /// Keys are native-endian `UInt32` or `UInt` (size_t), compared as numbers.
    /// For portable numeric order prefer big-endian keys (`withBigEndianBytes`).
    ///
    /// The corresponding C flag is `MDB_INTEGERKEY`.
    public static let integerKey = DatabaseFlags(rawValue: UInt32(MDB_INTEGERKEY))

    /// With `dupSort`, all values have the same size, which packs them tightly.
    ///
    /// The corresponding C flag is `MDB_DUPFIXED`.
    public static let dupFixed = DatabaseFlags(rawValue: UInt32(MDB_DUPFIXED))

    /// With `dupSort`, values are native-endian integers compared as numbers.
    ///
    /// The corresponding C flag is `MDB_INTEGERDUP`.
    public static let integerDup = DatabaseFlags(rawValue: UInt32(MDB_INTEGERDUP))

    /// With `dupSort`, values are compared as byte strings read from the end.
    ///
    /// The corresponding C flag is `MDB_REVERSEDUP`.
    public static let reverseDup = DatabaseFlags(rawValue: UInt32(MDB_REVERSEDUP))
}
