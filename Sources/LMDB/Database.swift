/// A handle to one key/value database (B-tree) inside an `Environment`.
///
/// Obtain it once with `Environment.openDatabase(_:flags:)` and keep it:
/// the handle stays valid for every later transaction of that environment.
public struct Database: Sendable, Hashable {
    /// LMDB's handle (`MDB_dbi`).
    internal let dbi: UInt32
}
