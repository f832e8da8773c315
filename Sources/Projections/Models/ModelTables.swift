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
    /// gram or label, chunk → the scans of the chunk that hold it (`SearchIndex`)
    case search
    /// seq (8 bytes big-endian) → the small models after that event (`Models.snapshotIfDue`)
    case snapshots

    /// The LMDB database's name. Spelled out, not `"model.\(self)"`: every command opens every table, and an
    /// enum case's name read through reflection cost each start ~0.2 ms of the runtime's conformance scans.
    public var name: String {
        switch self {
        case .accounts: "model.accounts"
        case .emails: "model.emails"
        case .scans: "model.scans"
        case .scanIds: "model.scanIds"
        case .scansByActor: "model.scansByActor"
        case .codes: "model.codes"
        case .stats: "model.stats"
        case .userMonths: "model.userMonths"
        case .sessions: "model.sessions"
        case .meta: "model.meta"
        case .search: "model.search"
        case .snapshots: "model.snapshots"
        }
    }
}

public protocol ModelTables: AnyObject {
    /// Calls `body` with the value at `key`, or nil; the bytes live only for the call.
    func withValue<R>(_ table: ModelTable, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R
    func put(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws
    /// Stores a value under a key the table does not hold yet (cheaper than `put` for keys that grow).
    func insert(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws
    /// Stores a value under a key that sorts after every key the table holds, without searching for its
    /// place (or, when the key does not sort last, as `put` does).
    func append(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws
    /// Stores every entry, replacing existing ones; `entries` come in key order.
    func put(_ table: ModelTable, sorted entries: SortedEntries) throws
    func delete(_ table: ModelTable, _ key: [UInt8]) throws
    /// Calls `body` with every entry whose key starts with `prefix`, in key order, until it returns false; the
    /// key's and the value's bytes are lent for the call (a query walks tens of thousands of keys: a copy of
    /// each was an allocation each).
    func forEach(_ table: ModelTable, prefix: [UInt8], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws
}

extension ModelTables {
    /// Tables in memory gain nothing from knowing that a key is new: a plain `put`.
    public func insert(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        try put(table, key, value)
    }

    /// Tables in memory gain nothing from knowing that a key sorts last: a plain `put`.
    public func append(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        try put(table, key, value)
    }

    /// Tables in memory gain nothing from the order: one `put` each.
    public func put(_ table: ModelTable, sorted entries: SortedEntries) throws {
        try entries.forEach { key, value in try put(table, Array(key), Array(value)) }
    }
}

/// Index entries of one shape in key order, laid end to end in one buffer: each a key of `keyWidth` bytes,
/// then a value of `valueWidth` bytes. The held index entries of a large write (a million and more) are
/// written so, without an array for each key and each value.
public struct SortedEntries {
    private var bytes: [UInt8] = []
    private let keyWidth: Int
    private let valueWidth: Int

    init(keyWidth: Int, valueWidth: Int, capacity: Int) {
        self.keyWidth = keyWidth
        self.valueWidth = valueWidth
        bytes.reserveCapacity(capacity * (keyWidth + valueWidth))
    }

    /// Appends an entry, after every one before it in key order; `write` appends its key, then its value.
    mutating func append(_ write: (inout [UInt8]) -> Void) {
        let start = bytes.count
        write(&bytes)
        precondition(bytes.count - start == keyWidth + valueWidth, "an entry of the entries' shape")
    }

    /// Calls `body` with each entry's key and value, in order; the bytes live only for the call.
    func forEach(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { all in
            var at = 0
            while at < all.count {
                try body(UnsafeRawBufferPointer(rebasing: all[at..<(at + keyWidth)]),
                         UnsafeRawBufferPointer(rebasing: all[(at + keyWidth)..<(at + keyWidth + valueWidth)]))
                at += keyWidth + valueWidth
            }
        }
    }
}
