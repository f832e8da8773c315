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
