import LMDB
import Dispatch
public import Domain

/// Recomputes the hash chain from the first event (projections.md §7, `log verify`).
///
/// Each event's link is `hash(n) = SHA-256(hex(hash(n-1)) ++ "\n" ++ canonical(n))` over the stored hash of
/// the event before it, so links can be checked in any order: when every link holds, the whole chain holds
/// from the first event. Large logs are checked in two halves at once, one per core.
public enum LogVerifier {
    /// The outcome is Domain's, so that the library hands it on as it is.
    public typealias Outcome = VerificationOutcome

    /// Below this many events one thread does the whole job.
    static let splitThreshold: UInt64 = 50_000

    /// Checks every event: seqs 1, 2, 3, … without gaps, each record readable, each stored hash equal to the
    /// chain value recomputed from its canonical form, time never running backwards, the id index mapping
    /// each event's id to its seq and holding nothing else (a damaged index would let an id be appended
    /// twice); with `digest`, also that the event at its seq still has the digest's hash. With `through`,
    /// only events 1…`through` (`--as-of`), and the index only for those.
    public static func verify(_ log: EventLog, digest: (seq: UInt64, hash: [UInt8])? = nil, through: UInt64 = .max) throws -> Outcome {
        let whole = try log.read { try $0.head() }
        let head = through >= whole.seq ? whole
            : try log.read { LogHead(seq: through, hash: try $0.storedHash(at: through) ?? HashChain.genesis, at: try $0.storedAt(at: through)) }
        let ranges: [ClosedRange<UInt64>] = head.seq < splitThreshold
            ? [1...max(1, head.seq)]
            : [1...(head.seq / 2), (head.seq / 2 + 1)...head.seq]
        let results = Results(count: ranges.count)
        DispatchQueue.concurrentPerform(iterations: ranges.count) { i in
            results.set(i, Result { try log.read { reader in try check(reader, ranges[i], last: head.seq) } })
        }
        if let failure = try results.values().compactMap({ try $0.get() }).min(by: { $0.seq < $1.seq }) {
            return .broken(firstBadSeq: failure.seq, reason: failure.reason)
        }
        if head.seq == whole.seq, let failure = try log.read({ reader in try checkIndexSize(reader, head: head.seq) }) {
            return .broken(firstBadSeq: failure.seq, reason: failure.reason)
        }
        if let digest {
            let stored = digest.seq > head.seq ? nil : try log.read { reader in try reader.storedHash(at: digest.seq) }
            let expected = digest.seq == 0 ? HashChain.genesis : stored
            guard let expected else {
                return .broken(firstBadSeq: digest.seq, reason: "the log holds only \(head.seq) events, the digest names seq \(digest.seq)")
            }
            guard expected == digest.hash else {
                return .broken(firstBadSeq: digest.seq, reason: "the digest's hash differs from the log's hash at seq \(digest.seq)")
            }
        }
        return .ok(events: head.seq, head: head)
    }

    private struct Failure: Sendable {
        var seq: UInt64
        var reason: String
    }

    /// Checks the links of `range` (which may begin past the log's end when it is empty).
    private static func check(_ reader: LogReader, _ range: ClosedRange<UInt64>, last: UInt64) throws -> Failure? {
        var expectedSeq = range.lowerBound
        var previous = HashChain.genesis
        var lastAt: Timestamp?
        if range.lowerBound > 1 {
            guard let hash = try reader.storedHash(at: range.lowerBound - 1) else {
                return Failure(seq: range.lowerBound - 1, reason: "event \(range.lowerBound - 1) is missing")
            }
            previous = hash
            lastAt = try reader.storedAt(at: range.lowerBound - 1)
        }
        var failure: Failure?
        var canonical = CanonicalBuffer()
        try reader.forEachRecord(from: range.lowerBound, through: min(range.upperBound, last)) { seq, bytes in
            guard seq == expectedSeq else {
                failure = Failure(seq: expectedSeq, reason: "event \(expectedSeq) is missing (the next stored is \(seq))")
                return false
            }
            do {
                try StoredEvent.canonical(bytes, seq: seq, withHash: false, into: &canonical)
            } catch {
                failure = Failure(seq: seq, reason: "the stored event is damaged (\(error))")
                return false
            }
            guard let stored = StoredEvent.hash(in: bytes),
                  previous.withUnsafeBytes({ HashChain.link(after: $0, canonical: canonical.bytes, is: stored) }) else {
                failure = Failure(seq: seq, reason: "hash mismatch: the event or an earlier one was changed")
                return false
            }
            guard let id = StoredEvent.id(in: bytes), try reader.seq(forIdBytes: id) == seq else {
                failure = Failure(seq: seq, reason: "the id index does not lead to this event by its id")
                return false
            }
            let at = StoredEvent.at(in: bytes)
            if let lastAt, let at, at < lastAt {
                failure = Failure(seq: seq, reason: "time runs backwards")
                return false
            }
            lastAt = at
            // The link holds: the stored value is the chain's.
            previous.withUnsafeMutableBytes { $0.copyMemory(from: stored) }
            expectedSeq += 1
            return true
        }
        if failure == nil && last > 0 && expectedSeq <= range.upperBound {
            failure = Failure(seq: expectedSeq, reason: "event \(expectedSeq) is missing")
        }
        return failure
    }

    /// Every event's id leads to it (checked with the chain); the index holds nothing else when it has as
    /// many entries as there are events. Otherwise the first event that an extra entry names is reported.
    private static func checkIndexSize(_ reader: LogReader, head: UInt64) throws -> Failure? {
        guard try reader.idCount() != reader.count() else { return nil }
        var firstBad = head + 1
        try reader.forEachIdEntry { id, seq in
            guard let seq, seq >= 1, seq <= head else { return }
            let value = try seq.withBigEndianBytes { key in try reader.transaction.get(reader.log.events, key) }
            if let value, let stored = StoredEvent.id(in: value), stored.elementsEqual(id) { return }
            firstBad = min(firstBad, seq)
        }
        return Failure(seq: min(firstBad, max(head, 1)),
                       reason: "the id index holds \(try reader.idCount()) entries for \(try reader.count()) events")
    }

    /// The per-range results, written by the worker threads.
    private final class Results: @unchecked Sendable {
        private var slots: [Result<Failure?, any Error>?]
        private let lock = DispatchQueue(label: "veritrail.verify")

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ i: Int, _ result: Result<Failure?, any Error>) { lock.sync { slots[i] = result } }

        func values() -> [Result<Failure?, any Error>] { lock.sync { slots.compactMap { $0 } } }
    }
}
