/// The tables the read models live in, and the byte-level store that holds them: LMDB databases in the
/// log's own write transaction (`StoredTables`), or dictionaries for what a replay builds in memory
/// (`MemoryTables`, `ReplayTables`).
///
/// Everything above this protocol (how events change the models, and every query) is written once.
public enum ModelTable: Int, CaseIterable, Sendable {
    /// username → `AccountRecord`
    case accounts
    /// SHA-256 of the lower-cased e-mail → username, for accounts that are not deleted
    case emails
    /// scan ordinal (4 bytes big-endian) → `ScanRow`
    case scans
    /// scanId → scan ordinal
    case scanIds
    /// actor ++ 0 ++ n (4 bytes big-endian) → scan ordinal: each actor's scans in order
    case scansByActor
    /// SHA-256 of a code (first 16 bytes) → how many scans had that code
    case codes
    /// "*" (all scans) or "@" ++ actor → `StatsRecord`
    case stats
    /// username ++ 0 ++ month (4 bytes big-endian) → `UserMonthRecord`
    case userMonths
    /// username ++ 0 ++ sessionId → empty
    case sessions
    /// "totals" → `LogTotals`
    case meta

    var name: String { "model.\(self)" }
}

public protocol ModelTables: AnyObject {
    /// Calls `body` with the value at `key`, or nil; the bytes live only for the call.
    func withValue<R>(_ table: ModelTable, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R
    func put(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws
    /// Stores a value under a key the table does not hold yet (cheaper than `put` for keys that grow).
    func insert(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws
    /// Stores every entry, replacing existing ones; `entries` come in key order.
    func put(_ table: ModelTable, sorted entries: [([UInt8], [UInt8])]) throws
    func delete(_ table: ModelTable, _ key: [UInt8]) throws
    /// Calls `body` with every entry whose key starts with `prefix`, in key order, until it returns false.
    func forEach(_ table: ModelTable, prefix: [UInt8], _ body: ([UInt8], UnsafeRawBufferPointer) throws -> Bool) throws
}

extension ModelTables {
    /// Tables in memory gain nothing from knowing that a key is new: a plain `put`.
    public func insert(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        try put(table, key, value)
    }

    /// Tables in memory gain nothing from the order: one `put` each.
    public func put(_ table: ModelTable, sorted entries: [([UInt8], [UInt8])]) throws {
        for (key, value) in entries { try put(table, key, value) }
    }
}
