import Domain
public import EventLog
import LMDB

/// An inclusion proof of one event (proofs.md §3): everything `log prove` prints.
public struct InclusionProof: Sendable {
    public var seq: UInt64
    public var size: UInt64
    public var leafHash: TreeHash
    public var path: [TreeHash]
    public var root: TreeHash
    /// The signed checkpoint of `size`, verbatim.
    public var checkpoint: String

    /// The C2SP `tlog-proof@v1` text.
    public var text: String {
        "c2sp.org/tlog-proof@v1\nindex \(seq - 1)\n" + path.map { $0.base64 + "\n" }.joined() + "\n" + checkpoint
    }
}

/// A consistency proof between two sizes (proofs.md §3): everything `log consistency` prints.
public struct ConsistencyProof: Sendable {
    public var old: UInt64
    public var size: UInt64
    public var oldRoot: TreeHash
    public var root: TreeHash
    public var path: [TreeHash]
    public var checkpoint: String

    /// The body of a tlog-witness `add-checkpoint` request.
    public var text: String {
        "old \(old)\n" + path.map { $0.base64 + "\n" }.joined() + "\n" + checkpoint
    }
}

/// Answers the proof commands from a snapshot of a store whose tree is complete (`ProofStore.reader`):
/// every answer reads O(log N) stored nodes, and the kept checkpoint was checked before anything is signed.
public struct ProofReader {
    public let tree: StoredTree
    public let identity: StoreIdentity
    /// The log's head seq, which is the tree's size.
    public let head: UInt64
    /// The store's secrets, loaded when something is signed (`log key` needs none).
    let secrets: () throws -> StoreSecrets

    /// The signed checkpoint of the tree of `size` leaves (0 ≤ size ≤ head).
    public func checkpoint(size: UInt64) throws -> (checkpoint: Checkpoint, note: String) {
        let checkpoint = Checkpoint(origin: identity.origin, size: size, root: try MerkleMath.root(size: size, tree))
        return (checkpoint, try secrets().sign(checkpoint.text, name: identity.origin))
    }

    /// The inclusion proof of the event at `seq` in the tree of `size` (1 ≤ seq ≤ size ≤ head).
    public func inclusion(seq: UInt64, size: UInt64) throws -> InclusionProof {
        let (checkpoint, note) = try self.checkpoint(size: size)
        return InclusionProof(seq: seq, size: size, leafHash: try tree.node(level: 0, index: seq - 1),
                              path: try MerkleMath.inclusionPath(index: seq - 1, size: size, tree),
                              root: checkpoint.root, checkpoint: note)
    }

    /// The consistency proof from the tree of `old` to the tree of `size` (0 ≤ old ≤ size ≤ head).
    public func consistency(old: UInt64, size: UInt64) throws -> ConsistencyProof {
        let (checkpoint, note) = try self.checkpoint(size: size)
        return ConsistencyProof(old: old, size: size, oldRoot: try MerkleMath.root(size: old, tree), root: checkpoint.root,
                                path: try MerkleMath.consistencyProof(old: old, size: size, tree), checkpoint: note)
    }
}

extension ProofStore {
    /// A reader over `reader`'s snapshot, or nil when the store lacks its identity or part of its tree (a
    /// store made before proofs existed, until its first write). Throws `BadCheckpoint` (exit 65) when the
    /// kept checkpoint `kept`, read before the snapshot began, is missing although the store has signed, is
    /// not a readable regular file, or disagrees with the store: it signs nothing then.
    public func reader(_ reader: LogReader, kept: CheckpointFile.Kept) throws -> ProofReader? {
        let txn = reader.transaction
        let head = try reader.head().seq
        guard let identity = try identity(txn), try tree(txn).size() == head else { return nil }
        let signsNothing = "it signs nothing until its checkpoint is put back, or `veritrail log reseal --accept-loss` signs the head over the loss"
        switch kept {
        case .missing:
            if try hasSigned(txn, identity: identity, head: head) {
                throw BadCheckpoint("the store at \(file.directory) has signed its log but its kept checkpoint \(file.path) is missing: \(signsNothing)")
            }
        case .refused(let why):
            throw BadCheckpoint("the store at \(file.directory) can not use its kept checkpoint: \(why): \(signsNothing)")
        case .note(let note):
            do {
                _ = try check(note, tree: tree(txn), identity: identity, size: head)
            } catch {
                throw BadCheckpoint("the store at \(file.directory) disagrees with its signed checkpoint (\(error.message)): "
                                    + "\(signsNothing); see `veritrail log verify`")
            }
        }
        return ProofReader(tree: tree(txn), identity: identity, head: head, secrets: { try self.secrets(for: identity) })
    }
}
