import EventLog
import LMDB

extension Store {
    /// A key of one of the store's small databases that random access does not find where a walk finds it
    /// (`Transaction.firstUnreachableKey`): damaged branch pages.
    public struct UnreachableKey: Sendable, Equatable {
        /// The database: `meta` (the store's identity), `free pages` or `main` (LMDB's own).
        public var database: String
        public var key: [UInt8]
    }

    /// Checks that the databases `log verify` does not walk otherwise — the store's meta, and LMDB's own: the
    /// free pages every write allocates from, and the one that names the others — answer a lookup of their
    /// keys where a walk finds them. The log and the Merkle tree are probed as the verify walks them
    /// (`LogReader.forEachRecord(probing:)`), the id index by a lookup of every event's id; the read models
    /// are made again from the log by `rebuild`. The first key that is not found, or nil.
    public func firstUnreachableKey() throws -> UnreachableKey? {
        let databases = [("meta", storeMeta), ("free pages", Database.freePages), ("main", Database.main)]
        return try log.environment.read { txn in
            for (name, db) in databases {
                if let key = try txn.firstUnreachableKey(in: db) { return UnreachableKey(database: name, key: key) }
            }
            return nil
        }
    }
}
