public import Domain
import Engine
import EventLog
import LMDB
import Proofs
import SystemCalls

extension VeritrailStore {
    /// Recomputes every read model, and the Merkle tree, from the log (`veritrail rebuild`); `progress`
    /// gets the events applied so far, of how many.
    @discardableResult
    public func rebuild(progress: (RebuildProgress) -> Void = { _ in }) throws(VeritrailError) -> RebuildSummary {
        let summary = try VeritrailError.catching {
            let total = try store.read { reader, _ in try reader.head().seq }
            return try store.rebuild { progress(RebuildProgress(applied: $0, total: total)) }
        }
        return RebuildSummary(events: summary.events, rewroteScanList: summary.rewroteScanList)
    }

    /// Checks the log (`veritrail log verify`): the hash chain from the first event, the id index, and —
    /// without `asOf` — the Merkle tree and the kept signed checkpoint (proofs.md §2), all in one pass over
    /// the events; with `digest`, also that the event at its seq still has its hash. With `asOf`, only the
    /// events it keeps (1…N) and their chain: a checkpoint speaks of the whole log. Ok with the head, or the
    /// first bad seq and why: a log that does not hold is an answer, not an error; an error is a store that
    /// can not be read.
    ///
    /// Meanwhile every database of the store is walked page by page (`Store.auditPages`: the log's, the
    /// tree's, LMDB's own, and every read model's), so that a store called ok answers every read and takes
    /// every write: damage there is a damaged store (`.storeFailure`, exit 74), whose message says what to do
    /// (`rebuild` when only read models are damaged, since they are made from the log), and so is a secrets
    /// file that does not agree with the data (`ProofStore.checkSecretsAgree`). A broken log is
    /// reported first: its answer names the first bad seq. The audit is the first job of the sweep's two
    /// threads (`CheckpointCheck`); with `asOf`, whose check of the chain has two threads of its own, it has a
    /// third.
    public func verify(digest: LogDigest? = nil, asOf: AsOf? = nil) throws(VeritrailError) -> VerificationOutcome {
        let given = digest.map { (seq: $0.seq, hash: $0.hash) }
        // Every page of the store is read: with the kernel's read-ahead and fault-around (`readingMuch`).
        return try VeritrailError.catching { try store.log.environment.readingMuch {
            let audit = Store.PageAuditRun(store)
            let outcome: VerificationOutcome
            if let asOf {
                let beside = Pipeline<Never> { _ in audit.run() }
                defer { beside.cancel() }
                let through = try store.read { reader, _ in try reader.lastSeq(keptBy: asOf) }
                outcome = try LogVerifier.verify(store.log, digest: given, through: through)
            } else {
                outcome = try CheckpointCheck.verify(store.log, proofs: store.proofs, digest: given, beside: { audit.run() })
            }
            guard case .ok = outcome else { return outcome }
            if let damage = try audit.damage() { throw StoreError(damage.description) }
            if asOf == nil, let identity = try store.read({ reader, _ in try store.proofs.identity(reader.transaction) }) {
                try store.proofs.checkSecretsAgree(with: identity)
            }
            return outcome
        } }
    }

    /// Calls `line` with the out form of every event `filter` keeps (events.md §1: with `seq`, `id` and
    /// `hash`, one JSON object and its `\n`), in seq order, on one snapshot of the log. Returns how many.
    /// An actor of the filter that never had an account is refused (`.unknown`), as `tail` refuses it.
    /// With `proofs`, the lines after the events carry the signed checkpoint of the head and each event's
    /// inclusion proof in it (cli.md §8, `exportWithProofs`).
    @discardableResult
    public func export(filter: LogFilter = LogFilter(), proofs: Bool = false, _ line: ([UInt8]) throws -> Void) throws(VeritrailError) -> Int {
        proofs ? try exportWithProofs(filter: filter, line) : try tail(filter, line: line)
    }

    /// Writes the export (`veritrail export --output`) to the file at `path`, created 0600 (or emptied),
    /// and returns how many events it holds. Import it into an empty store to restore this one. The
    /// filter's actors are checked before the file is made, so a refused export writes nothing; the file
    /// is written 256 KiB at a time. A write that fails is `.storeFailure` ("can not write the output file").
    @discardableResult
    public func export(to path: String, filter: LogFilter = LogFilter(), proofs: Bool = false) throws(VeritrailError) -> Int {
        try VeritrailError.catching { try store.read { _, models in try Self.checkActors(filter, models) } }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: 0o600)
        } catch {
            throw .unknown("can not write \(path): \(error.errno)", cause: error)
        }
        defer { file.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 18)
        let count = try export(filter: filter, proofs: proofs) { bytes in
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 18 { try Self.write(&buffer, to: file) }
        }
        try VeritrailError.catching { try Self.write(&buffer, to: file) }
        return count
    }

    /// Writes all of `buffer` to `file` and empties it.
    private static func write(_ buffer: inout [UInt8], to file: FileDescriptor) throws {
        do {
            try file.writeAll(buffer)
        } catch {
            throw StoreError("can not write the output file: \(error.errno)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
