import Domain
import EventLog
import Projections

/// How the replay loop (`Store.feed`) reads a stored scan and applies it: as far as the scan list of the
/// models it feeds needs. The engine picks the feed with the models' scan-list strategy.
protocol ScanFeed {
    associatedtype Scan
    /// The scan in the stored record `bytes`, or nil when the record is no scan.
    static func read(_ bytes: UnsafeRawBufferPointer, seq: UInt64) throws(FieldError) -> Scan?
    /// Applies the scan at `seq`; returns its `at`.
    static func apply(_ scan: borrowing Scan, seq: UInt64, to models: Models) throws -> Timestamp
}

/// Scans made ready for their row on the decoding thread (read in place, without a `String` per field),
/// for a scan list that is written or checked row by row (a rebuild).
enum RowFeed: ScanFeed {
    static func read(_ bytes: UnsafeRawBufferPointer, seq: UInt64) throws(FieldError) -> PreparedScan? {
        try StoredEvent.storedScan(bytes).map { PreparedScan(seq: seq, stored: $0) }
    }

    static func apply(_ scan: borrowing PreparedScan, seq: UInt64, to models: Models) throws -> Timestamp {
        try models.apply(scan)
        return scan.counted.at
    }
}

/// Scans made ready for a scan list that is checked (`CheckedScanList`) beside a search index that is kept
/// (a rebuild of a sound store): each row is hashed on the decoding thread and not kept, since neither the
/// list nor the index needs it (`PreparedScan.init(seq:stored:keepingRow:)`).
enum HashedRowFeed: ScanFeed {
    static func read(_ bytes: UnsafeRawBufferPointer, seq: UInt64) throws(FieldError) -> PreparedScan? {
        try StoredEvent.storedScan(bytes).map { PreparedScan(seq: seq, stored: $0, keepingRow: false) }
    }

    static func apply(_ scan: borrowing PreparedScan, seq: UInt64, to models: Models) throws -> Timestamp {
        try RowFeed.apply(scan, seq: seq, to: models)
    }
}

/// Scans read only as far as their counts need, for a borrowed scan list (a replay).
enum CountFeed: ScanFeed {
    static func read(_ bytes: UnsafeRawBufferPointer, seq: UInt64) throws(FieldError) -> CountedScan? {
        try StoredEvent.countedScan(bytes)
    }

    static func apply(_ scan: borrowing CountedScan, seq: UInt64, to models: Models) throws -> Timestamp {
        try models.apply(counted: scan, seq: seq)
        return scan.at
    }
}
