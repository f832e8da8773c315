import Dispatch
public import Domain
public import EventLog
import LMDB

/// `log verify` with the kept checkpoint (proofs.md §2): the chain of events.md §2 as `LogVerifier` checks
/// it, and the kept checkpoint's signature under the store's key, a log at least as long as it, the Merkle
/// root of its first N events recomputed from their canonical forms equal to its root, and the stored tree
/// equal, node by node, to the tree of the events.
///
/// Both are checked in one pass that makes each event's canonical form once, for its chain link and its leaf
/// hash (canonical forms are most of the cost). When that pass finds the chain broken, or a digest is to be
/// checked, `LogVerifier` runs too and its answer, with its reasons, is the chain's.
///
/// Large logs are swept in two ranges at once, one per core: [0, S) and [S, head) with S the largest power
/// of two below the head, so that every subtree of each range is its own but one, the top node of a log of
/// exactly 2S events, checked when both are done.
public enum CheckpointCheck {
    /// Below this many events one thread does the whole job.
    static let splitThreshold: UInt64 = 50_000

    public static func verify(_ log: EventLog, proofs: ProofStore, digest: (seq: UInt64, hash: [UInt8])?) throws -> LogVerifier.Outcome {
        // Read before the log: a checkpoint is signed after its commit, so it never covers more than the log
        // holds afterwards, even while another process writes.
        let kept = proofs.file.read()
        let (identity, head, treeSize) = try log.read { reader in
            (try proofs.identity(reader.transaction), try reader.head(), try proofs.tree(reader.transaction).size())
        }
        let chain = { try LogVerifier.verify(log, digest: digest) }
        // A store made before proofs existed, never written since: only its chain can be checked.
        if identity == nil && kept == .missing { return try chain() }
        var checkpoint: Result<Checkpoint, NoteError>?
        if let identity, case .note(let note) = kept {
            checkpoint = Result { () throws(NoteError) in try Checkpoint(text: try SignedNote.open(note, key: identity.verifier)) }
        }
        let size = (try? checkpoint?.get())?.size
        var sweeps: [Sweep] = []
        if treeSize == head.seq {
            sweeps = try sweep(log, proofs: proofs, head: head.seq, rootAt: size.flatMap { $0 <= head.seq ? $0 : nil })
        }
        // An id index with entries for no event is found by the chain's own check (LogVerifier).
        let indexHoldsMore = try log.read { reader in try reader.idCount() != reader.count() }
        if treeSize != head.seq || digest != nil || indexHoldsMore || sweeps.contains(where: \.chainBroken) {
            let outcome = try chain()
            if case .broken = outcome { return outcome }
        }
        let broken = { (seq: UInt64, reason: String) in LogVerifier.Outcome.broken(firstBadSeq: seq, reason: reason) }
        guard identity != nil else { return broken(1, "the store has a signed checkpoint but no verifier key: its data file was replaced") }
        if case .refused(let why) = kept { return broken(1, "the signed checkpoint can not be used: \(why)") }
        guard let checkpoint else { return head.seq == 0 ? .ok(events: 0, head: head) : broken(1, "the signed checkpoint \(proofs.file.path) is missing") }
        let signed: Checkpoint
        switch checkpoint {
        case .success(let c): signed = c
        case .failure(let error): return broken(1, "the signed checkpoint does not verify under the store's key: \(error.message)")
        }
        guard signed.size <= head.seq else {
            return broken(head.seq + 1, "the signed checkpoint covers \(signed.size) events but the log holds \(head.seq): committed events were lost")
        }
        guard treeSize == head.seq else {
            return broken(min(treeSize, head.seq) + 1, "the stored Merkle tree holds \(treeSize) leaves, the log \(head.seq) events")
        }
        if let bad = sweeps.compactMap(\.firstBadSeq).min() {
            return broken(bad, "the stored Merkle tree disagrees with event \(bad)")
        }
        var root = sweeps.first?.rootAt ?? TreeHash.empty
        if sweeps.count == 2 {
            let left = sweeps[0].frontier.root
            if let right = sweeps[1].rootAt { root = TreeHash.node(left, right) }
            if let top = sweeps[1].deferredTop, top != TreeHash.node(left, sweeps[1].frontier.root) {
                return broken(head.seq, "the stored Merkle tree disagrees with event \(head.seq)")
            }
        }
        guard root == signed.root else {
            return broken(1, "the first \(signed.size) events do not have the signed checkpoint's root: the log was rewritten")
        }
        return .ok(events: head.seq, head: head)
    }

    /// Sweeps the log's events and the stored tree's records, in two ranges on two threads when large.
    private static func sweep(_ log: EventLog, proofs: ProofStore, head: UInt64, rootAt size: UInt64?) throws -> [Sweep] {
        let split = head < splitThreshold ? head : MerkleMath.split(head)
        let ranges: [Range<UInt64>] = split == head ? [0..<head] : [0..<split, split..<head]
        let results = Results(count: ranges.count)
        DispatchQueue.concurrentPerform(iterations: ranges.count) { i in
            results.set(i, Result { try log.read { reader in
                try Sweep.run(reader, tree: proofs.tree(reader.transaction), ranges[i], rootAt: size)
            } })
        }
        return try results.values().map { try $0.get() }
    }

    /// The per-range results, written by the worker threads.
    private final class Results: @unchecked Sendable {
        private var slots: [Result<Sweep, any Error>?]
        private let lock = DispatchQueue(label: "veritrail.checkpoint-check")

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ i: Int, _ result: Result<Sweep, any Error>) { lock.sync { slots[i] = result } }

        func values() -> [Result<Sweep, any Error>] { lock.sync { slots.compactMap { $0 } } }
    }
}
