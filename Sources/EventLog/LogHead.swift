public import Domain

/// The last event's position and chain value: `(0, 000…0)` for an empty log.
public struct LogHead: Sendable, Equatable {
    public var seq: UInt64
    public var hash: [UInt8]
    /// The `at` of the last event, nil for an empty log.
    public var at: Timestamp?

    public static let empty = LogHead(seq: 0, hash: HashChain.genesis, at: nil)

    public init(seq: UInt64, hash: [UInt8], at: Timestamp?) {
        self.seq = seq; self.hash = hash; self.at = at
    }

    /// `SEQ:HASH`, the digest an auditor writes down (events.md §2).
    public var digest: String { "\(seq):\(Hex.encode(hash))" }
}
