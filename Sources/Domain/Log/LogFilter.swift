/// Which events `export` and `log tail` write (cli.md §7): a seq range, a time range, actors and types
/// (any of those given), and at most the last `last` of them.
///
/// Pure data, in Domain so that a caller of the library fills it in; the engine reads the log with it
/// (`forEach`, in Engine).
public struct LogFilter: Sendable, Equatable {
    /// The first seq to keep.
    public var from: UInt64 = 1
    /// The last seq to keep.
    public var through: UInt64 = .max
    /// `at ≥ since`.
    public var since: Timestamp?
    /// `at ≤ until`.
    public var until: Timestamp?
    /// Empty: every actor.
    public var actors: Set<String> = []
    /// Empty: every type.
    public var types: Set<EventType> = []
    /// Only the last this many of the events that match.
    public var last: Int?

    /// Every event.
    public init() {}

    /// The filter with the given bounds; those not given keep every event.
    public init(from: UInt64 = 1, through: UInt64 = .max, since: Timestamp? = nil, until: Timestamp? = nil,
                actors: Set<String> = [], types: Set<EventType> = [], last: Int? = nil) {
        self.from = from; self.through = through; self.since = since; self.until = until
        self.actors = actors; self.types = types; self.last = last
    }
}

extension LogFilter {
    /// The windows of seqs that read `low...high` from its end back, for the last matches of a filter: the first
    /// `first` seqs wide, each after it four times as wide as the one before (at most 2^24), side by side, the
    /// last starting at `low`; none when `low` is past `high`. A reader stops once it has the matches it wants,
    /// so that it reads about as far back as they lie, not the whole log (`forEach` with `last`, and `log tail`
    /// against a server).
    public static func windowsBack(from high: UInt64, to low: UInt64, first: Int) -> some Sequence<ClosedRange<UInt64>> {
        sequence(state: (upper: low <= high ? Optional(high) : nil, width: UInt64(max(first, 1)))) { state in
            guard let upper = state.upper else { return nil }
            let lower = upper - min(upper - low, state.width - 1)
            state.upper = lower > low ? lower - 1 : nil
            state.width = min(state.width * 4, 1 << 24)
            return lower...upper
        }
    }
}
