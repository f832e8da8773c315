/// Checks, as a walk of a database goes, that random access finds what the walk finds.
///
/// A walk (`Cursor.next`) goes from leaf to leaf through the parents' child pointers and never reads a
/// branch page's keys; a lookup (`get`, `Cursor.seek`: random access) descends by them. A damaged branch
/// key lets a walk read every record while lookups of some keys land on another page, or on none — a store
/// that verifies by walking, then fails a read. Every lookup routes a contiguous range of keys to each page,
/// so looking up the first and the last key of each page the walk meets (where the key's address moves to
/// another 4 KiB page of the map) finds such damage at two lookups a page, not one a record.
///
/// Each lookup is made by a new cursor, which descends from the root: a cursor that is on a page searches that
/// page first when the key falls in its range, and would not read the branch pages at all. (Not `mdb_get`,
/// which refuses LMDB's own databases, `Database.freePages` and `Database.main`.)
public struct LookupProbe {
    private let transaction: Transaction
    private let database: Database
    private var previous: Cursor.Entry?
    private var page = -1

    /// A probe of `database`'s walk in `transaction`.
    public init(_ transaction: Transaction, _ database: Database) {
        self.transaction = transaction
        self.database = database
    }

    /// Takes the walk's next entry; returns the key of an entry a lookup does not find (this one, or the
    /// last one of the page the walk left), or nil.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_SET_KEY`.
    public mutating func visit(_ entry: Cursor.Entry) throws(LMDBError) -> UnsafeRawBufferPointer? {
        let here = Int(bitPattern: entry.key.baseAddress) >> 12
        defer { previous = entry }
        guard here != page else { return nil }
        page = here
        if let previous, try !found(previous) { return previous.key }
        return try found(entry) ? nil : entry.key
    }

    /// At the end of the walk: the key of its last entry when a lookup does not find it, or nil.
    public func finish() throws(LMDBError) -> UnsafeRawBufferPointer? {
        guard let previous, try !found(previous) else { return nil }
        return previous.key
    }

    /// Whether a lookup of `entry`'s key finds the value the walk found with it (the same bytes of the map).
    private func found(_ entry: Cursor.Entry) throws(LMDBError) -> Bool {
        try transaction.cursor(database).seek(entry.key)?.value.baseAddress == entry.value.baseAddress
    }
}
