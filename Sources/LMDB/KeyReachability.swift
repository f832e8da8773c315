extension Transaction {
    /// The first key of `db`, in key order, that a lookup does not find where a walk of the leaves finds it;
    /// nil when every key checked is found there.
    ///
    /// A walk (`Cursor.next`) goes from leaf to leaf through the parents' child pointers and never reads a
    /// branch page's keys; a lookup (`get`, `Cursor.seek`: random access) descends by them. A damaged branch
    /// key lets a walk read every record while lookups of some keys land on another page, or on none — a
    /// store that verifies by walking, then fails a read. Every lookup routes a contiguous range of keys to
    /// each page, so checking the first and the last key of each page the walk meets (where the key's address
    /// moves to another 4 KiB page of the map) finds such damage at a few lookups a page, not one a record.
    ///
    /// Each lookup is made by a new cursor, which descends from the root: a cursor that is on a page searches
    /// that page first when the key falls in its range, and would not read the branch pages at all. (Not
    /// `mdb_get`, which refuses LMDB's own databases, `Database.freePages` and `Database.main`.)
    ///
    /// The corresponding C function is `mdb_cursor_get` (`MDB_FIRST`, `MDB_NEXT`, `MDB_SET_KEY`).
    public func firstUnreachableKey(in db: Database) throws(LMDBError) -> [UInt8]? {
        let walk = try cursor(db)
        /// Whether a lookup of `key` finds the value the walk found with it (the same bytes of the map).
        func found(_ entry: Cursor.Entry) throws(LMDBError) -> Bool {
            try cursor(db).seek(entry.key)?.value.baseAddress == entry.value.baseAddress
        }
        var previous: Cursor.Entry?
        var page = -1
        var count = 0
        var entry = try walk.first()
        while let current = entry {
            let here = Int(bitPattern: current.key.baseAddress) >> 12
            if here != page {
                if let previous, try !found(previous) { return Array(previous.key) }
                if try !found(current) { return Array(current.key) }
                page = here
            }
            previous = current
            count += 1
            if count % 65_536 == 0 { releaseReadPages() }
            entry = try walk.next()
        }
        if let previous, try !found(previous) { return Array(previous.key) }
        return nil
    }
}
