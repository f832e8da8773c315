import Domain
public import EventLog

/// What `log reseal --accept-loss` (proofs.md §2) signs over: the head, and what it can and can not prove of
/// what the store signed before. Made on one snapshot, before anything is signed, so that the command says
/// it first.
public struct ResealPlan: Sendable {
    /// The head: the size of the tree it signs.
    public var head: UInt64
    /// The root of that tree.
    public var root: TreeHash
    /// How far the store's data says it signed (nil for a store made before version 2 said so).
    public var signedSize: UInt64?
    /// The last size whose signed checkpoint the store can still check against its log: the kept
    /// checkpoint's, when it holds; 0 when none does.
    public var provable: UInt64
    /// Why the kept checkpoint is not enough (missing, not a file, another tree), or nil when it holds and
    /// there is nothing to reseal.
    public var loss: String?
}

extension ProofStore {
    /// The plan of a reseal on `reader`'s snapshot, whose kept checkpoint `kept` was read before it began (or
    /// inside the write transaction). Nil when the store has no identity or tree yet (nothing was signed).
    public func resealPlan(_ reader: LogReader, kept: CheckpointFile.Kept) throws -> ResealPlan? {
        let txn = reader.transaction
        let head = try reader.head().seq
        guard let identity = try identity(txn), try tree(txn).size() == head else { return nil }
        var plan = ResealPlan(head: head, root: try MerkleMath.root(size: head, tree(txn)), signedSize: try signedSize(txn),
                              provable: 0, loss: nil)
        switch kept {
        case .missing:
            if try hasSigned(txn, identity: identity, head: head) { plan.loss = "its kept checkpoint \(file.path) is missing" }
        case .refused(let why):
            plan.loss = why
        case .note(let note):
            do {
                plan.provable = try check(note, tree: tree(txn), identity: identity, size: head).size
            } catch {
                plan.loss = "its kept checkpoint disagrees with the log: \(error.message)"
            }
        }
        return plan
    }
}
