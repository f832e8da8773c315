import Domain

/// How the scan list and its indexes (the `scans`, `scanIds`, `scansByActor` and `codes` tables: nearly
/// all of the models' pages) are kept: the one thing that differs between models kept event by event, a
/// rebuild, and a replay of a prefix of the log.
///
/// The engine picks the strategy when it makes the models (`Models.init(tables:log:)`,
/// `Models.rebuilding`, `Models.replaying`); the projectors call it the same way whichever it is:
///
/// - `WrittenScanList` writes every row and index entry (the store's own models, and a rebuild that
///   starts from empty tables);
/// - `CheckedScanList` writes nothing and sums the entries the log gives, for the rebuild to check the
///   stored list against (`ScanListDigest`);
/// - `BorrowedScanList` lends a replay the stored list, read as it was at the end of the replayed prefix.
public protocol ScanListStrategy: AnyObject {
    /// The last seq whose report a stored row shows: a report made later is left out of the row
    /// (`ScanRowHeader(_:reportsThrough:)`).
    var reportsThrough: UInt64 { get }
    /// Called with the seq of every event before the models apply it.
    func willApply(seq: UInt64)
    /// Lists a new scan at `place` (its ordinal in the list, its number among its actor's scans): its
    /// row, its id, its place among its actor's scans, and one more scan of its code. `scan` makes the
    /// scan's row ready, when it is needed.
    func add(_ scan: () -> PreparedScan, seq: UInt64, place: ScanPlace, in models: Models) throws
    /// Records `report` on the row of scan `ordinal`, and returns the scan's actor.
    func report(_ report: ScanRow.Report, onScan ordinal: UInt32, in models: Models) throws -> String
    /// The ordinal of `actor`'s `n`-th scan when the strategy holds it in memory (not written yet).
    func heldOrdinal(actor: String, _ n: UInt32) -> UInt32?
    /// Writes what the strategy holds to the tables.
    func flush(_ tables: any ModelTables) throws
}

/// Where a new scan goes: its ordinal in the scan list, and its number among its actor's scans (both
/// 1-based).
public struct ScanPlace: Sendable {
    public var ordinal: UInt32
    public var ofActor: UInt32
}

extension ScanListStrategy {
    public var reportsThrough: UInt64 { .max }
    public func willApply(seq: UInt64) {}
    public func heldOrdinal(actor: String, _ n: UInt32) -> UInt32? { nil }
    public func flush(_ tables: any ModelTables) throws {}
}
