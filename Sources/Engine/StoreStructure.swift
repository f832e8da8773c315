import EventLog
import LMDB
import Projections

extension Store {
    /// A key of one of the store's databases that random access does not find where a walk finds it
    /// (`Transaction.firstUnreachableKey`): damaged branch pages.
    public struct UnreachableKey: Sendable, Equatable {
        /// The database: `events`, `ids`, `tree`, `meta`, a read model's table (`model.…`), `free pages` or `main`.
        public var database: String
        public var key: [UInt8]
        /// The event's seq, when the database is the log's.
        public var seq: UInt64? { database == "events" ? key.withUnsafeBytes { UInt64(bigEndianBytes: $0) } : nil }
    }

    /// Checks that every database of the store — the log, its id index, the Merkle tree, the store's meta,
    /// every read model, and LMDB's own (the free pages a write allocates from, and the one that names the
    /// others) — answers a lookup of its keys where a walk finds them (`log verify`: a store it
    /// calls ok must answer every read, and reads look keys up). The first key that does not, or nil.
    public func firstUnreachableKey() throws -> UnreachableKey? {
        let names = ["events", "ids"] + ModelTable.allCases.map(\.name) + ["tree", "meta", "free pages", "main"]
        let databases = [log.events, log.ids] + modelDatabases + proofDatabases + [Database.freePages, Database.main]
        return try log.environment.read { txn in
            for (name, db) in zip(names, databases) {
                if let key = try txn.firstUnreachableKey(in: db) { return UnreachableKey(database: name, key: key) }
            }
            return nil
        }
    }
}
