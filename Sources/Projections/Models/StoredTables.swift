import LMDB

/// The model tables as LMDB databases, used inside one transaction of the log's environment, so that an
/// event and its effect on every read model commit together or not at all.
public final class StoredTables: ModelTables {
    let transaction: Transaction
    let databases: [Database]

    public init(transaction: Transaction, databases: [Database]) {
        self.transaction = transaction
        self.databases = databases
    }

    /// Opens (creating when asked) the models' databases in `environment`.
    public static func openDatabases(in environment: Environment, create: Bool) throws -> [Database] {
        try ModelTable.allCases.map { try environment.openDatabase($0.name, flags: create ? [.create] : []) }
    }

    public func withValue<R>(_ table: ModelTable, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        try body(try transaction.get(databases[table.rawValue], key))
    }

    public func put(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        try transaction.put(databases[table.rawValue], key, value)
    }

    public func delete(_ table: ModelTable, _ key: [UInt8]) throws {
        try transaction.delete(databases[table.rawValue], key)
    }

    public func forEach(_ table: ModelTable, prefix: [UInt8], _ body: ([UInt8], UnsafeRawBufferPointer) throws -> Bool) throws {
        let cursor = try transaction.cursor(databases[table.rawValue])
        var entry = try prefix.isEmpty ? cursor.first() : cursor.seek(atLeast: prefix)
        while let (key, value) = entry {
            guard key.starts(with: prefix) else { return }
            guard try body(Array(key), value) else { return }
            entry = try cursor.next()
        }
    }

    /// Empties every model table (for `rebuild`).
    public func dropAll() throws {
        for db in databases { try transaction.drop(db) }
    }
}
