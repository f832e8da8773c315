/// One event a write appended, or found already logged under its id (an idempotent retry).
public struct AppendedEvent: Sendable, Equatable {
    /// Its place in the log.
    public var seq: UInt64
    /// Its id (given, or drawn by the log).
    public var id: String
    /// Its type.
    public var type: EventType
    /// False when the event was in the log already: nothing was written for it.
    public var isNew: Bool

    /// An event as the log numbered it.
    public init(seq: UInt64, id: String, type: EventType, isNew: Bool) {
        self.seq = seq
        self.id = id
        self.type = type
        self.isNew = isNew
    }
}

/// The events of a write too large to tell one by one (a batch of millions of scans), as runs of
/// consecutive seqs: a batch appended in one write is one run, whatever its size, so what the write answers
/// stays small. Each event's id follows from its place in the write (the write's id, `ID.2`, `ID.3`, …).
public struct AppendedRuns: Sendable, Equatable {
    /// Events at consecutive seqs, all written or all found logged already.
    public struct Run: Sendable, Equatable {
        /// The seq of its first event.
        public var firstSeq: UInt64
        /// The place of its first event in the write, from 0.
        public var firstIndex: Int
        /// How many events it holds.
        public var count: Int
        /// False when its events were in the log already (a retry): nothing was written for them.
        public var isNew: Bool
    }

    /// The runs, in the write's order.
    public private(set) var runs: [Run] = []
    /// How many events the write holds.
    public private(set) var count = 0

    public init() {}

    /// Adds the write's next event, at `seq`.
    public mutating func add(seq: UInt64, isNew: Bool) {
        if let last = runs.last, last.isNew == isNew, last.firstSeq + UInt64(last.count) == seq {
            runs[runs.count - 1].count += 1
        } else {
            runs.append(Run(firstSeq: seq, firstIndex: count, count: 1, isNew: isNew))
        }
        count += 1
    }

    /// Whether the write found every one of its events logged already (a retry under its id): it wrote nothing.
    public var alreadyRecorded: Bool { count > 0 && !runs.contains(where: \.isNew) }
}
