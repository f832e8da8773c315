/// The scan list of a replay of a prefix of the log: the stored list, only read. The list only grows and a
/// row changes only by its report, so the prefix's scans are the first rows of the stored list, read as
/// they were then: a row keeps its report's seq, and a report made after the last event replayed is left
/// out (`reportsThrough`). A replay so needs a scan's counts only (`Models.apply(counted:seq:)`).
public final class BorrowedScanList: ScanListStrategy {
    public private(set) var reportsThrough: UInt64 = 0

    /// `reportsThrough`: the seq the models start from (a snapshot's), before any event is replayed.
    public init(reportsThrough: UInt64 = 0) { self.reportsThrough = reportsThrough }

    public func willApply(seq: UInt64) { reportsThrough = seq }

    /// The stored list has the row already.
    public func add(_ scan: () -> PreparedScan, seq: UInt64, place: ScanPlace, in models: Models) throws {}

    public func report(_ report: ScanRow.Report, onScan ordinal: UInt32, in models: Models) throws -> String {
        try models.withScanHeader(ordinal) { String(decoding: $0.actor, as: UTF8.self) }
    }
}
