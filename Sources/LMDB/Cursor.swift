internal import CLMDB
internal import CLMDBGuard

/// A position in one database of a transaction, for ordered scans and seeks.
///
/// Moves return the entry they land on, or `nil` when there is none
/// (before the first, after the last, or no key matches). The buffers point
/// into the memory map: valid until the transaction ends or its next write.
///
/// LMDB frees a write transaction's cursors when the transaction ends, but
/// leaves a read-only transaction's to the caller. `deinit` follows that
/// rule, so a cursor may outlive its transaction without a leak or a double free;
/// after the transaction ends its moves throw `LMDBError.badTransaction`.
public final class Cursor {
    /// A key and its value, both pointing into the memory map.
    public typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    /// Retained so the transaction's state (and the environment) outlive the cursor.
    private let transaction: Transaction

    /// LMDB's cursor.
    private let handle: OpaquePointer

    init(transaction: Transaction, handle: OpaquePointer) {
        self.transaction = transaction
        self.handle = handle
    }

    /// The corresponding C function is `mdb_cursor_close`.
    deinit {
        if !transaction.hasEnded || transaction.isReadOnly {
            mdb_cursor_close(handle)
        }
    }

    /// Performs one `mdb_cursor_get` with `operation`, reading the key from `key` when given.
    @inline(__always)
    private func move(_ operation: MDB_cursor_op, _ key: UnsafeRawBufferPointer? = nil) throws(LMDBError) -> Entry? {
        _ = try transaction.live
        var foundKey = key.map(MDB_val.init) ?? MDB_val()
        var foundValue = MDB_val()
        let code = vt_mdb_cursor_get(handle, &foundKey, &foundValue, operation)
        if code == MDB_NOTFOUND { return nil }
        try check(code)
        transaction.noteRead(foundValue.buffer)
        return (foundKey.buffer, foundValue.buffer)
    }

    /// Moves to the first entry.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_FIRST`.
    public func first() throws(LMDBError) -> Entry? {
        try move(MDB_FIRST)
    }

    /// Moves to the last entry.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_LAST`.
    public func last() throws(LMDBError) -> Entry? {
        try move(MDB_LAST)
    }

    /// Moves to the next entry; from an unpositioned cursor, to the first.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_NEXT`.
    public func next() throws(LMDBError) -> Entry? {
        try move(MDB_NEXT)
    }

    /// Moves to the previous entry; from an unpositioned cursor, to the last.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_PREV`.
    public func prev() throws(LMDBError) -> Entry? {
        try move(MDB_PREV)
    }

    /// The entry at the cursor, without moving.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_GET_CURRENT`.
    public func current() throws(LMDBError) -> Entry? {
        try move(MDB_GET_CURRENT)
    }

    /// Moves to the entry whose key equals `key`.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_SET_KEY`.
    /// A key LMDB could not hold (empty, or longer than `Environment.maxKeySize`) is never found.
    public func seek(_ key: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        guard transaction.canHoldKey(key.count) else { return nil }
        return try move(MDB_SET_KEY, key)
    }

    /// Moves to the entry whose key equals `key`.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_SET_KEY`.
    public func seek(_ key: [UInt8]) throws(LMDBError) -> Entry? {
        try key.withUnsafeBufferPointer { (key) throws(LMDBError) in try seek(UnsafeRawBufferPointer(key)) }
    }

    /// Moves to the first entry whose key is greater than or equal to `key`:
    /// the start of a range scan.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_SET_RANGE`.
    /// An empty key seeks the first entry; a key longer than any LMDB holds seeks past its prefix of the
    /// longest length, so that the answer is the same as if such a key could be compared.
    public func seek(atLeast key: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        if key.isEmpty { return try first() }
        let longest = transaction.maxKeySize
        guard key.count > longest else { return try move(MDB_SET_RANGE, key) }
        var entry = try move(MDB_SET_RANGE, UnsafeRawBufferPointer(rebasing: key.prefix(longest)))
        while let (found, _) = entry, found.lexicographicallyPrecedes(key) { entry = try next() }
        return entry
    }

    /// Moves to the first entry whose key is greater than or equal to `key`.
    ///
    /// The corresponding C function is `mdb_cursor_get` with `MDB_SET_RANGE`.
    public func seek(atLeast key: [UInt8]) throws(LMDBError) -> Entry? {
        try key.withUnsafeBufferPointer { (key) throws(LMDBError) in try seek(atLeast: UnsafeRawBufferPointer(key)) }
    }

    /// Stores `value` under `key` and leaves the cursor on it.
    /// With `.current`, replaces the value at the cursor (the key must be the cursor's).
    ///
    /// The corresponding C function is `mdb_cursor_put`.
    public func put(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: WriteFlags = []) throws(LMDBError) {
        _ = try transaction.live
        var key = MDB_val(key)
        var value = MDB_val(value)
        try transaction.checkWrite(vt_mdb_cursor_put(handle, &key, &value, flags.rawValue))
    }

    /// Deletes the entry at the cursor. A following `next()` returns the entry
    /// after the deleted one, so a scan can delete as it goes.
    ///
    /// The corresponding C function is `mdb_cursor_del`.
    public func delete() throws(LMDBError) {
        _ = try transaction.live
        try transaction.checkWrite(vt_mdb_cursor_del(handle, 0))
    }
}

/// A cursor belongs to its transaction's thread.
@available(*, unavailable)
extension Cursor: Sendable {}
