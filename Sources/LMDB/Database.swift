/// A handle to one key/value database (B-tree) inside an `Environment`.
///
/// Obtain it once with `Environment.openDatabase(_:flags:)` and keep it:
/// the handle stays valid for every later transaction of that environment.
public struct Database: Sendable, Hashable {
    /// LMDB's handle (`MDB_dbi`).
    internal let dbi: UInt32

    /// LMDB's own database of free pages (`FREE_DBI`): its pages are read by every write that allocates.
    public static let freePages = Database(dbi: 0)
    /// LMDB's main database (`MAIN_DBI`), which names the others.
    public static let main = Database(dbi: 1)
}
