import Dispatch
import Domain
import EventLog
import LMDB

/// The check `log verify` adds to the chain's (proofs.md §2): the kept checkpoint's signature under the
/// store's key, a log at least as long as it, the Merkle root of its first N events recomputed from their
/// canonical forms equal to its root, and the stored tree equal, node by node, to the tree of the events.
///
/// Large logs are swept in two ranges at once, one per core: [0, S) and [S, head) with S the largest power
/// of two below the head, so that each range's subtrees are its own but one, the top node of a log of
/// exactly 2S events, checked when both are done.
public enum CheckpointCheck {
    public struct Broken: Error, Sendable, Equatable {
        public var firstBadSeq: UInt64
        public var reason: String
    }

    /// Below this many events one thread does the whole job.
    static let splitThreshold: UInt64 = 50_000

    /// Nil when the store is consistent with its kept checkpoint (or has neither identity nor checkpoint: a
    /// store made before proofs existed and never written since); what is broken otherwise.
    public static func verify(log: EventLog, proofs: ProofStore) throws -> Broken? {
        let (identity, head, treeSize) = try log.read { reader in
            (try proofs.identity(reader.transaction), try reader.head().seq, try proofs.tree(reader.transaction).size())
        }
        let note = try proofs.file.read()
        guard let identity else {
            return note == nil ? nil : Broken(firstBadSeq: 1, reason: "the store has a signed checkpoint but no signing key: its data file was replaced")
        }
        guard let note else {
            return head == 0 ? nil : Broken(firstBadSeq: 1, reason: "the signed checkpoint \(proofs.file.path) is missing")
        }
        let checkpoint: Checkpoint
        do {
            checkpoint = try Checkpoint(text: try SignedNote.open(note, key: identity.verifier))
        } catch {
            return Broken(firstBadSeq: 1, reason: "the signed checkpoint does not verify under the store's key: \(error.message)")
        }
        guard checkpoint.size <= head else {
            return Broken(firstBadSeq: head + 1, reason: "the signed checkpoint covers \(checkpoint.size) events but the log holds \(head): committed events were lost")
        }
        guard treeSize == head else {
            return Broken(firstBadSeq: min(treeSize, head) + 1, reason: "the stored Merkle tree holds \(treeSize) leaves, the log \(head) events")
        }
        let split = head < splitThreshold ? head : MerkleMath.split(head)
        let ranges: [Range<UInt64>] = split == head ? [0..<head] : [0..<split, split..<head]
        let results = Results(count: ranges.count)
        DispatchQueue.concurrentPerform(iterations: ranges.count) { i in
            results.set(i, Result { try log.read { reader in
                try Sweep.run(reader, tree: proofs.tree(reader.transaction), ranges[i], rootAt: checkpoint.size)
            } })
        }
        let sweeps = try results.values().map { try $0.get() }
        if let bad = sweeps.compactMap(\.firstBadSeq).min() {
            return Broken(firstBadSeq: bad, reason: "the stored Merkle tree disagrees with event \(bad)")
        }
        var root = sweeps[0].rootAt ?? TreeHash.empty
        if sweeps.count == 2 {
            let left = sweeps[0].frontier.root
            if let right = sweeps[1].rootAt { root = TreeHash.node(left, right) }
            if let top = sweeps[1].deferredTop, top != TreeHash.node(left, sweeps[1].frontier.root) {
                return Broken(firstBadSeq: head, reason: "the stored Merkle tree disagrees with event \(head)")
            }
        }
        guard checkpoint.size == 0 || root == checkpoint.root else {
            return Broken(firstBadSeq: 1, reason: "the first \(checkpoint.size) events do not have the signed checkpoint's root: the log was rewritten")
        }
        return nil
    }

    /// One range of leaves swept: each leaf hash recomputed from its event, each stored node compared.
    private struct Sweep: Sendable {
        var frontier = TreeFrontier()
        /// The root of the range's leaves up to the checkpoint's size, when the size falls in the range.
        var rootAt: TreeHash?
        var firstBadSeq: UInt64?
        /// A stored node above the range's own subtrees (see `CheckpointCheck`), checked by the caller.
        var deferredTop: TreeHash?

        static func run(_ reader: LogReader, tree: StoredTree, _ range: Range<UInt64>, rootAt size: UInt64) throws -> Sweep {
            var sweep = Sweep()
            if size == range.lowerBound && range.lowerBound == 0 { sweep.rootAt = .empty }
            var canonical: [UInt8] = []
            canonical.reserveCapacity(2048)
            let cursor = try reader.transaction.cursor(tree.database)
            var record = try range.lowerBound.withBigEndianBytes { key in try cursor.seek(atLeast: key) }
            try reader.forEachRecord(from: range.lowerBound + 1, through: range.upperBound) { seq, bytes in
                let index = seq - 1
                guard let stored = record, UInt64(bigEndianBytes: stored.key) == index else {
                    sweep.firstBadSeq = seq
                    return false
                }
                try reader.decodingErrors(seq: seq) { () throws(FieldError) in
                    try StoredEvent.canonical(bytes, seq: seq, withHash: false, into: &canonical)
                }
                let expected = 32 * (1 + (~index).trailingZeroBitCount)
                var offset = 0, same = stored.value.count == expected
                sweep.frontier.append(TreeHash.leaf(canonical)) { hash in
                    if same { same = TreeHash(stored.value, at: offset) == hash }
                    offset += 32
                }
                if same && offset < expected {
                    sweep.deferredTop = TreeHash(stored.value, at: offset)
                    offset += 32
                }
                guard same && offset == expected else {
                    sweep.firstBadSeq = seq
                    return false
                }
                if seq == size { sweep.rootAt = sweep.frontier.root }
                record = try cursor.next()
                return true
            }
            return sweep
        }
    }

    /// The per-range results, written by the worker threads.
    private final class Results: @unchecked Sendable {
        private var slots: [Result<Sweep, Error>?]
        private let lock = DispatchQueue(label: "veritrail.checkpoint-check")

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ i: Int, _ result: Result<Sweep, Error>) { lock.sync { slots[i] = result } }

        func values() -> [Result<Sweep, Error>] { lock.sync { slots.compactMap { $0 } } }
    }
}
