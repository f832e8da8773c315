import Domain
import EventLog
import LMDB

/// Snapshots of the small read models (accounts, e-mails, stats, months, totals), taken every `interval`
/// events in the write transaction that applies the event (table `snapshots`), so that an answer as of any
/// point of the log (`--as-of`, a `--now` before the head) replays at most `interval` events from the last
/// snapshot before it, whatever the log's size; the scan list and the search index are borrowed from the
/// store as they are (`BorrowedScanList`). The `sessions` table, which the rules read and no query does, is
/// left out: it grows with the log.
///
/// A snapshot is the entries of each of `tables`, in order: per table a count, then each key and value
/// with its length.
extension Models {
    /// How many events apart the snapshots are (`snapshotInterval`, by default): the longest replay an
    /// answer as of a point needs.
    public static let defaultSnapshotInterval: UInt64 = 16_384

    static let snapshotTables: [ModelTable] = [.accounts, .emails, .stats, .userMonths, .meta]

    /// Takes the snapshot of the models after event `seq` when it falls on the interval.
    func snapshotIfDue(after seq: UInt64) throws {
        guard keepsIndexes, seq % snapshotInterval == 0 else { return }
        try flushRecords()
        // Each table's entries are written as they are walked, into a buffer of their own since their count
        // comes first; not as an array for each key and each value, two allocations an entry at every snapshot.
        var sink = BinaryFieldSink(), entries = BinaryFieldSink()
        for table in Models.snapshotTables {
            var count: UInt64 = 0
            entries.bytes.removeAll(keepingCapacity: true)
            try tables.forEach(table, prefix: []) { key, value in
                entries.varint(UInt64(key.count)); entries.bytes.append(contentsOf: key)
                entries.varint(UInt64(value.count)); entries.bytes.append(contentsOf: value)
                count += 1
                return true
            }
            sink.varint(count)
            sink.bytes.append(contentsOf: entries.bytes)
        }
        let key = seq.bigEndianBytes
        try tables.put(.snapshots, key, SealedValue.seal(key: key, sink.bytes))
    }

    /// Calls `body` with each entry of a snapshot's `bytes` (without its check) and its table, in order.
    static func forEachEntry(ofSnapshot bytes: UnsafeRawBufferPointer,
                             _ body: (ModelTable, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        var source = BinaryFieldSource(bytes: bytes)
        for table in snapshotTables {
            let count = try source.varint("entries")
            for _ in 0..<count {
                let key = try source.rawBytes("key")
                let value = try source.rawBytes("value")
                try body(table, key, value)
            }
        }
        guard source.position == bytes.count else { throw FieldError(path: "snapshot", rule: "bytes after its last entry") }
    }

    /// The seq of the last snapshot at or before `seq` (nil: none).
    public func lastSnapshot(atOrBefore seq: UInt64) throws -> UInt64? {
        var found: UInt64?
        try tables.forEach(.snapshots, prefix: []) { key, _ in
            guard let s = UInt64(bigEndianBytes: key), s <= seq else { return false }
            found = s
            return true
        }
        return found
    }

    /// Empty models for replaying the events after snapshot `seq` of the stored models `stored` (the same
    /// snapshot of the store), filled with that snapshot.
    public static func replaying(over stored: Models, fromSnapshot seq: UInt64, log: any RecordedScans) throws -> Models {
        let memory = MemoryTables()
        let key = seq.bigEndianBytes
        try stored.tables.withValue(.snapshots, key) { bytes in
            guard let bytes else { throw FieldError(path: "snapshot \(seq)", rule: "missing from the read models") }
            guard SealedValue.isSound(key: key, value: bytes) else {
                throw FieldError(path: "snapshot \(seq)", rule: "damaged (its check does not match): run `veritrail rebuild`")
            }
            try forEachEntry(ofSnapshot: SealedValue.body(bytes)) { table, key, value in try memory.put(table, Array(key), Array(value)) }
        }
        return Models(tables: ReplayTables(stored: stored.tables, memory: memory), scans: log,
                      scanList: BorrowedScanList(reportsThrough: seq), indexing: false)
    }
}
