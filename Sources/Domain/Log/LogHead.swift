/// The last event's position and chain value: `(0, 000…0)` for an empty log.
///
/// Pure data, in Domain so that every layer (the log, the library, its callers) speaks of a head alike.
public struct LogHead: Sendable, Equatable {
    /// The last event's seq (0 for an empty log).
    public var seq: UInt64
    /// The chain's hash after the last event, 32 bytes (events.md §2).
    public var hash: [UInt8]
    /// The `at` of the last event, nil for an empty log.
    public var at: Timestamp?

    /// The head of a log with no events: the chain's genesis value, 32 zero bytes (events.md §2).
    public static let empty = LogHead(seq: 0, hash: [UInt8](repeating: 0, count: 32), at: nil)

    /// The head after event `seq`, whose chain hash is `hash` and time `at`.
    public init(seq: UInt64, hash: [UInt8], at: Timestamp?) {
        self.seq = seq; self.hash = hash; self.at = at
    }

    /// `SEQ:HASH`, the digest an auditor writes down (events.md §2).
    public var digest: String { "\(seq):\(Hex.encode(hash))" }
}
