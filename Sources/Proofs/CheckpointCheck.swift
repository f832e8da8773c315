import Dispatch
public import Domain
public import EventLog
import LMDB
import SystemCalls

/// `log verify` with the kept checkpoint (proofs.md §2): the chain of events.md §2 as `LogVerifier` checks
/// it, and the kept checkpoint's signature under the store's key, a log at least as long as it, the Merkle
/// root of its first N events recomputed from their canonical forms equal to its root, and the stored tree
/// equal, node by node, to the tree of the events.
///
/// Both are checked in one pass that makes each event's canonical form once, for its chain link and its leaf
/// hash (canonical forms are most of the cost). When that pass finds the chain broken, or a digest is to be
/// checked, `LogVerifier` runs too and its answer, with its reasons, is the chain's.
///
/// The pass goes through the log in chunks of 2^`Sweep.chunkLevel` events, which two threads (one per core)
/// take as they finish, so that both end together whatever the log's size; the nodes above the chunks are
/// checked once every chunk is done (`SweepTotal`). The id index is walked once, by whichever thread is free
/// first, and its entries compared with the events' ids and seqs as a whole (`IdIndexFingerprint`) instead of
/// one lookup per event; when they differ, `LogVerifier` looks every id up and says which event is first.
///
/// A caller's own work may run beside the sweep as its first job (`beside`: `log verify`'s page audit), on
/// one of the same two threads: on a third thread of its own, it shared the two cores with the sweep and,
/// having more than a third of the work, ran on alone after the sweep had ended (docs/VERIFY-SPEED.md).
public enum CheckpointCheck {
    /// Verifies the log, the tree and the kept checkpoint; `beside` is run once, in the sweep's first job,
    /// when the log is swept (when the tree and the log are of one size), and not at all otherwise.
    public static func verify(_ log: EventLog, proofs: ProofStore, digest: (seq: UInt64, hash: [UInt8])?,
                              beside: (@Sendable () -> Void)? = nil) throws -> LogVerifier.Outcome {
        try verify(log, proofs: proofs, digest: digest, chunkLevel: Sweep.chunkLevel, beside: beside)
    }

    /// `verify` in chunks of 2^`chunkLevel` events (tests give small ones).
    static func verify(_ log: EventLog, proofs: ProofStore, digest: (seq: UInt64, hash: [UInt8])?,
                       chunkLevel: Int, beside: (@Sendable () -> Void)? = nil) throws -> LogVerifier.Outcome {
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
        var total: SweepTotal?
        var index: IdIndexFingerprint?
        if treeSize == head.seq {
            (total, index) = try sweep(log, proofs: proofs, head: head.seq, rootAt: size.flatMap { $0 <= head.seq ? $0 : nil },
                                       chunkLevel: chunkLevel, beside: beside)
        }
        let indexDiffers = index != total?.ids
        if treeSize != head.seq || digest != nil || indexDiffers || total?.chainBroken == true {
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
        if let bad = total?.firstBadSeq {
            return broken(bad, "the stored Merkle tree disagrees with event \(bad)")
        }
        let root = total?.rootAt ?? TreeHash.empty
        guard root == signed.root else {
            return broken(1, "the first \(signed.size) events do not have the signed checkpoint's root: the log was rewritten")
        }
        return .ok(events: head.seq, head: head)
    }

    /// Sweeps the log's events and the stored tree's records chunk by chunk on two threads, after `beside`
    /// (job 0, on the thread that takes it first, before that thread's read transaction: `beside` opens its
    /// own, and `Environment` takes no read inside another's body), and fingerprints the id index on whichever
    /// is free first (job 1, so that it never comes last).
    private static func sweep(_ log: EventLog, proofs: ProofStore, head: UInt64, rootAt size: UInt64?,
                              chunkLevel: Int, beside: (@Sendable () -> Void)?) throws -> (SweepTotal, IdIndexFingerprint) {
        let chunks = (head + (UInt64(1) << UInt64(chunkLevel)) - 1) >> UInt64(chunkLevel)
        let key = IdIndexFingerprint.Key()
        let jobs = Jobs(count: chunks + 2)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            var job = jobs.take()
            if job == 0 {
                beside?()
                job = jobs.take()
            }
            let done = Result { () throws -> (sweeps: [Sweep], index: IdIndexFingerprint?) in
                var sweeps: [Sweep] = []
                var index: IdIndexFingerprint?
                guard job != nil else { return (sweeps, index) }
                try log.read { reader in
                    while let taken = job {
                        if taken == 1 {
                            index = try reader.idIndexFingerprint(key)
                        } else {
                            sweeps.append(try Sweep.run(reader, tree: proofs.tree(reader.transaction), chunk: taken - 2,
                                                        level: chunkLevel, head: head, rootAt: size, ids: key))
                        }
                        job = jobs.take()
                    }
                }
                return (sweeps, index)
            }
            jobs.finish(done)
        }
        let parts = try jobs.results.map { try $0.get() }
        guard let index = parts.compactMap(\.index).first else { throw StoreError("the id index was not walked") }
        return (SweepTotal(parts.flatMap(\.sweeps), rootAt: size), index)
    }

    /// The jobs of a sweep, handed out in order to the threads that ask, and what each thread found.
    private final class Jobs: @unchecked Sendable {
        private let lock = ConditionLock()
        private var next: UInt64 = 0
        private let count: UInt64
        private(set) var results: [Result<(sweeps: [Sweep], index: IdIndexFingerprint?), any Error>] = []

        init(count: UInt64) { self.count = count }

        /// The next job, or nil when none is left (or a thread failed: the others stop too).
        func take() -> UInt64? {
            lock.lock()
            defer { lock.unlock() }
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        func finish(_ result: Result<(sweeps: [Sweep], index: IdIndexFingerprint?), any Error>) {
            lock.lock()
            defer { lock.unlock() }
            if case .failure = result { next = count }
            results.append(result)
        }
    }
}
