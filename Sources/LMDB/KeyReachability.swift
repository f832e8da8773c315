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
    /// The corresponding C functions are `mdb_cursor_get` (`MDB_FIRST`, `MDB_NEXT`, `MDB_SET_KEY`).
    public func firstUnreachableKey(in db: Database) throws(LMDBError) -> [UInt8]? {
        let walk = try cursor(db)
        let lookup = try cursor(db)
        /// Whether a lookup of `key` (an address in a page of the map) finds that very key.
        func found(_ key: UnsafeRawBufferPointer) throws(LMDBError) -> Bool {
            try lookup.seek(key)?.key.baseAddress == key.baseAddress
        }
        var previous: UnsafeRawBufferPointer?
        var page = -1
        var count = 0
        var entry = try walk.first()
        while let (key, _) = entry {
            let here = Int(bitPattern: key.baseAddress) >> 12
            if here != page {
                if let previous, try !found(previous) { return Array(previous) }
                if try !found(key) { return Array(key) }
                page = here
            }
            previous = key
            count += 1
            if count % 65_536 == 0 { releaseReadPages() }
            entry = try walk.next()
        }
        if let previous, try !found(previous) { return Array(previous) }
        return nil
    }
}
