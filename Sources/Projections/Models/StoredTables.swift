public import LMDB

/// The model tables as LMDB databases, used inside one transaction of the log's environment, so that an
/// event and its effect on every read model commit together or not at all.
public final class StoredTables: ModelTables {
    let transaction: Transaction
    let databases: [Database]

    public init(transaction: Transaction, databases: [Database]) {
        self.transaction = transaction
        self.databases = databases
    }

    /// How many rows of the tables read front to back (the scan list and its per-actor index) were read:
    /// a search reads a million scan rows, which would otherwise all count as the process's memory, so the
    /// pages read are released every `PageRelease.scanRows`. Reads of the other tables, which are read at
    /// random, do not count towards it.
    private var frontToBackReads = 0

    /// A cursor kept on the scan list and the ordinal it stands on (nil: unpositioned, or the list was written
    /// since). A search walks the list row by row, newest first, and a page reads rows side by side: stepping
    /// the cursor to the row next to the last one read costs a fraction of a lookup from the root, whose key
    /// comparisons were about half of a served search's time.
    private var scanCursor: Cursor?
    private var scanCursorOrdinal: UInt32?

    public func withValue<R>(_ table: ModelTable, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let value = try table == .scans && key.count == 4
            ? scanRow(key) : transaction.get(databases[table.rawValue], key)
        if value != nil && (table == .scans || table == .scansByActor) {
            frontToBackReads += 1
            if frontToBackReads % PageRelease.scanRows == 0 { transaction.releaseReadPages() }
        }
        return try body(value)
    }

    /// The scan row under `key` (an ordinal, 4 bytes big-endian), read through `scanCursor`: a step to the
    /// next or the previous row when the cursor stands beside it, else a seek.
    private func scanRow(_ key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        let ordinal = key.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) }
        let cursor = try scanCursor ?? transaction.cursor(databases[ModelTable.scans.rawValue])
        scanCursor = cursor
        var entry: Cursor.Entry?
        switch scanCursorOrdinal {
        case ordinal &+ 1: entry = try cursor.prev()
        case ordinal &- 1: entry = try cursor.next()
        case ordinal: entry = try cursor.current()
        default: break
        }
        if let found = entry, !found.key.elementsEqual(key) { entry = nil }
        if entry == nil { entry = try cursor.seek(key) }
        scanCursorOrdinal = entry == nil ? nil : ordinal
        return entry?.value
    }

    public func put(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        if table == .scans { scanCursorOrdinal = nil }
        try transaction.put(databases[table.rawValue], key, value)
    }

    public func insert(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        if table == .scans { scanCursorOrdinal = nil }
        try transaction.insert(databases[table.rawValue], key, value)
    }

    public func append(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        let db = databases[table.rawValue]
        if try !transaction.appendIfLast(db, key, value) { try transaction.put(db, key, value) }
    }

    /// Appends without searching the tree while the entries sort after every key in it (an emptied table,
    /// in `rebuild`), then puts the rest through one cursor: LMDB looks for a key in the leaf the cursor
    /// stands on before it searches from the root, and sorted keys mostly fall in the leaf of the one
    /// before (a million codes merged into a table of millions at random places: one search from the root
    /// for a leaf's worth of them, instead of one each).
    public func put(_ table: ModelTable, sorted entries: SortedEntries) throws {
        if table == .scans { scanCursorOrdinal = nil }
        let db = databases[table.rawValue]
        var appending = true
        var cursor: Cursor?
        try entries.forEach { key, value in
            if appending { appending = try transaction.appendIfLast(db, key, value) }
            guard !appending else { return }
            let putting = try cursor ?? transaction.cursor(db)
            cursor = putting
            try putting.put(key, value)
        }
    }

    public func delete(_ table: ModelTable, _ key: [UInt8]) throws {
        if table == .scans { scanCursorOrdinal = nil }
        try transaction.delete(databases[table.rawValue], key)
    }

    public func forEach(_ table: ModelTable, prefix: [UInt8], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        let cursor = try transaction.cursor(databases[table.rawValue])
        var entry = try prefix.isEmpty ? cursor.first() : cursor.seek(atLeast: prefix)
        while let (key, value) = entry {
            guard key.starts(with: prefix) else { return }
            guard try body(key, value) else { return }
            entry = try cursor.next()
        }
    }

    /// Calls `body` with every entry of `table` in key order, the bytes lent from the map for the call, while
    /// it returns true; the pages passed are released as it goes. Meanwhile checks that a lookup finds each
    /// key where the walk finds it (`LookupProbe`: a walk never reads the branch pages' keys, which every
    /// lookup follows). False when one is not found there, or `body` stopped the walk.
    func forEachReachableEntry(_ table: ModelTable, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        let database = databases[table.rawValue]
        let cursor = try transaction.cursor(database)
        var probe = LookupProbe(transaction, database)
        var entry = try cursor.first()
        var count = 0
        while let current = entry {
            guard try probe.visit(current) == nil, try body(current.key, current.value) else { return false }
            count += 1
            if count % PageRelease.scanRows == 0 { transaction.releaseReadPages() }
            entry = try cursor.next()
        }
        return try probe.finish() == nil
    }

    /// Empties `tables` (for `rebuild`).
    public func drop(_ tables: [ModelTable]) throws {
        scanCursorOrdinal = nil
        for table in tables { try transaction.drop(databases[table.rawValue]) }
    }

    /// How many entries `table` holds.
    public func count(_ table: ModelTable) throws -> Int {
        try transaction.count(databases[table.rawValue])
    }
}
