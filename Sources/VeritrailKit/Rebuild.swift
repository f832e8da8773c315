/// What a rebuild did (`VeritrailStore.rebuild`), as `veritrail rebuild` reports it.
public struct RebuildSummary: Sendable, Equatable {
    /// How many events it applied: every event of the log.
    public var events: UInt64
    /// Whether the stored scan list was not what the log gives (stale or damaged), so that every table,
    /// the scan list included, was written again; false when only the other read models were.
    public var rewroteScanList: Bool

    /// A summary as a rebuild gives it.
    public init(events: UInt64, rewroteScanList: Bool) {
        self.events = events
        self.rewroteScanList = rewroteScanList
    }
}

/// How far a rebuild is, given to its `progress` as events are applied: enough to draw a bar.
public struct RebuildProgress: Sendable, Equatable {
    /// Events applied so far.
    public var applied: UInt64
    /// Events there are to apply: the log's head seq when the rebuild began.
    public var total: UInt64

    /// A rebuild's progress.
    public init(applied: UInt64, total: UInt64) {
        self.applied = applied
        self.total = total
    }
}
