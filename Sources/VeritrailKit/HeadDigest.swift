import EventLog

/// The log's head as an auditor writes it down and the command line prints it (events.md §2): its seq,
/// its hash in lower-case hex, and `SEQ:HASH` as its description. A type of the library's own, so that a
/// program reads it with `import VeritrailKit` alone (`StoreHead` is the log's type).
public struct HeadDigest: Sendable, Equatable, CustomStringConvertible {
    /// The last event's seq, 0 for an empty log.
    public var seq: UInt64
    /// The chain hash of the last event, in hex.
    public var hash: String

    /// The digest of `head`.
    public init(_ head: StoreHead) {
        seq = head.seq
        hash = Hex.encode(head.hash)
    }

    /// `SEQ:HASH`.
    public var description: String { "\(seq):\(hash)" }
}
