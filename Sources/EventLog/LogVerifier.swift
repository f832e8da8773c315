import Domain

/// Recomputes the hash chain from the first event (projections.md §7, `log verify`).
public enum LogVerifier {
    public enum Outcome: Sendable, Equatable {
        case ok(events: UInt64, head: LogHead)
        case broken(firstBadSeq: UInt64, reason: String)
    }

    /// Checks every event: seqs 1, 2, 3, … without gaps, each record decodable, and each stored hash equal to
    /// the chain value recomputed from the canonical form; with `digest`, also that the event at its seq
    /// still has its hash.
    public static func verify(_ reader: LogReader, digest: (seq: UInt64, hash: [UInt8])? = nil) throws -> Outcome {
        var expectedSeq: UInt64 = 1
        var previous = HashChain.genesis
        var lastAt: Timestamp?
        var failure: Outcome?
        var digestSeen = false
        try reader.forEachRecord { seq, bytes in
            guard seq == expectedSeq else {
                failure = .broken(firstBadSeq: expectedSeq, reason: "event \(expectedSeq) is missing (the next stored is \(seq))")
                return false
            }
            let canonical: [UInt8]
            do {
                canonical = try StoredEvent.canonical(bytes, seq: seq, withHash: false)
            } catch {
                failure = .broken(firstBadSeq: seq, reason: "the stored event is damaged (\(error))")
                return false
            }
            let recomputed = HashChain.next(after: previous, canonical: canonical)
            guard let stored = StoredEvent.hash(in: bytes), recomputed.elementsEqual(stored) else {
                failure = .broken(firstBadSeq: seq, reason: "hash mismatch: the event or an earlier one was changed")
                return false
            }
            let at = StoredEvent.at(in: bytes)
            if let lastAt, let at, at < lastAt {
                failure = .broken(firstBadSeq: seq, reason: "time runs backwards")
                return false
            }
            if let digest, digest.seq == seq {
                digestSeen = true
                guard digest.hash == recomputed else {
                    failure = .broken(firstBadSeq: seq, reason: "the digest's hash differs from the event's hash at seq \(seq)")
                    return false
                }
            }
            lastAt = at
            previous = recomputed
            expectedSeq += 1
            return true
        }
        if let failure { return failure }
        let events = expectedSeq - 1
        if let digest, !digestSeen {
            if digest.seq == 0 {
                guard digest.hash == HashChain.genesis else {
                    return .broken(firstBadSeq: 0, reason: "the digest for seq 0 must be 64 zeros")
                }
            } else {
                return .broken(firstBadSeq: digest.seq, reason: "the log holds only \(events) events, the digest names seq \(digest.seq)")
            }
        }
        return .ok(events: events, head: LogHead(seq: events, hash: previous, at: lastAt))
    }
}
