/// The filters of `history` (projections.md §1): which scans, newest first, and which page of them.
///
/// Pure data, here rather than beside the read models, so that a program (the command line, the library's
/// callers) can say what it asks without seeing how it is answered; `Projections` answers it.
public struct HistoryQuery: Sendable, Equatable {
    /// Which results: every scan, the authentic ones (`success`) or the counterfeit ones (`failed`).
    public enum ResultFilter: String, Sendable, CaseIterable { case all, success, failed }

    /// Which results (default: every scan).
    public var type = ResultFilter.all
    /// How far back; nil: the viewer's `historyWindow` when there is a viewer, else `all`.
    public var window: HistoryWindow?
    /// Only this category (exact).
    public var category: String?
    /// Text to look for in the scan's fields, case-insensitively.
    public var search: String?
    /// Only this user's scans.
    public var by: String?
    /// How many scans at most (the command line takes 1–1000).
    public var limit = 50
    /// How many matching scans to skip, newest first.
    public var offset = 0

    /// Every scan, the first 50.
    public init() {}
}
