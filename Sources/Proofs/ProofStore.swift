import Crypto
import Domain
public import EventLog
public import LMDB

/// The proof side of one store (proofs.md): the stored tree and the identity in the log's environment, the
/// signed checkpoint in the store's directory. `Store.write` calls `begin` inside each write transaction
/// and `sign` after it commits; the proof commands read through `reader`.
public final class ProofStore: @unchecked Sendable {
    let treeDatabase: Database
    let metaDatabase: Database
    public let file: CheckpointFile

    /// Opens the `tree` and `meta` databases of `environment`, creating them when missing: a store made
    /// before proofs existed gets them (empty) the first time it is opened. Opening an existing database
    /// takes a read transaction only, so a reader never waits for a writer here.
    public init(environment: Environment, directory: String) throws {
        file = CheckpointFile(directory: directory)
        do {
            treeDatabase = try ProofStore.open("tree", in: environment)
            metaDatabase = try ProofStore.open("meta", in: environment)
        } catch {
            throw StoreError("can not open the Merkle tree in \(directory): \(error)")
        }
    }

    private static func open(_ name: String, in environment: Environment) throws -> Database {
        do {
            return try environment.openDatabase(name)
        } catch LMDBError.notFound {
            return try environment.openDatabase(name, flags: [.create])
        }
    }

    public func tree(_ txn: Transaction) -> StoredTree { StoredTree(transaction: txn, database: treeDatabase) }

    public func identity(_ txn: Transaction) throws -> StoreIdentity? { try StoreIdentity.read(txn, meta: metaDatabase) }

    /// Starts the proof side of a write transaction: gives a store that lacks them its identity (with
    /// `originForNewStore`, or a random origin) and its tree from its log, then checks that the tree still
    /// has the kept checkpoint's root (`checkKept`). Appends go through the returned session's `tree`.
    public func begin(_ reader: LogReader, head: UInt64, originForNewStore: String?) throws -> ProofSession {
        let txn = reader.transaction
        let identity = try identity(txn) ?? StoreIdentity.create(txn, meta: metaDatabase, origin: originForNewStore)
        let writer = try TreeWriter(tree: tree(txn))
        guard writer.frontier.size <= head else {
            throw StoreError("the Merkle tree in \(file.directory) holds \(writer.frontier.size) leaves but the log only \(head) events")
        }
        try writer.catchUp(with: reader, through: head)
        // Read inside the write transaction: a checkpoint is signed only after its transaction commits, so
        // the kept one never covers more than this transaction sees, unless events were lost.
        let kept = try checkKept(try file.read(), tree: tree(txn), identity: identity, size: head)
        return ProofSession(identity: identity, writer: writer, keptSize: kept?.size)
    }

    /// The kept checkpoint `note`, checked: its signature under the store's key, its origin, a log at least as
    /// long (`size` events), and the tree's root at its size. Nil when there is none. Throws a `StoreError`
    /// naming the store otherwise: a store that disagrees with what it signed must neither sign again nor be
    /// written. Read `note` before the transaction of `tree` begins, or inside a write transaction, so that it
    /// is never a checkpoint of a later commit than the transaction sees.
    public func checkKept(_ note: String?, tree: StoredTree, identity: StoreIdentity, size: UInt64) throws -> Checkpoint? {
        guard let note else { return nil }
        let refuse = { (why: String) in
            StoreError("the store at \(self.file.directory) disagrees with its signed checkpoint (\(why)); "
                       + "nothing was written: run `veritrail log verify`")
        }
        let checkpoint: Checkpoint
        do {
            checkpoint = try Checkpoint(text: try SignedNote.open(note, key: identity.verifier))
        } catch {
            throw refuse(error.message)
        }
        guard checkpoint.origin == identity.origin else { throw refuse("its origin is \(checkpoint.origin), the store's \(identity.origin)") }
        guard checkpoint.size <= size else {
            throw refuse("it covers \(checkpoint.size) events, the log holds \(size): committed events were lost")
        }
        guard try MerkleMath.root(size: checkpoint.size, tree) == checkpoint.root else {
            throw refuse("the tree of its size has another root: the log was rewritten")
        }
        return checkpoint
    }

    /// Signs the checkpoint a committed write left to sign and keeps it.
    public func sign(_ pending: PendingCheckpoint) throws {
        try file.replace(with: try pending.identity.sign(pending.checkpoint), size: pending.checkpoint.size)
    }
}

/// The proof side of one write transaction.
public final class ProofSession {
    public let identity: StoreIdentity
    public let tree: TreeWriter
    let keptSize: UInt64?

    init(identity: StoreIdentity, writer: TreeWriter, keptSize: UInt64?) {
        self.identity = identity
        self.tree = writer
        self.keptSize = keptSize
    }

    /// What to sign once the transaction commits: the tree as it now is, unless the kept checkpoint already
    /// covers it (a write that appended nothing).
    public func finish() -> PendingCheckpoint? {
        if let keptSize, keptSize >= tree.frontier.size { return nil }
        return PendingCheckpoint(identity: identity,
                                 checkpoint: Checkpoint(origin: identity.origin, size: tree.frontier.size, root: tree.frontier.root))
    }
}

/// A checkpoint to sign after its transaction commits.
public struct PendingCheckpoint: Sendable {
    let identity: StoreIdentity
    public let checkpoint: Checkpoint
}

extension ProofStore {
    /// Whether the stored tree, as `reader`'s snapshot holds it, is the tree of the log's first `head`
    /// events, node for node (each leaf hash recomputed from its event's canonical form). `rebuild` asks on a
    /// thread of its own while it recomputes the models, and writes the tree again only when it is not.
    public func treeMatches(_ reader: LogReader, through head: UInt64) throws -> Bool {
        let tree = tree(reader.transaction)
        guard try tree.size() == head else { return false }
        let sweep = try Sweep.run(reader, tree: tree, 0..<head, rootAt: nil, chain: false)
        return !sweep.chainBroken && sweep.firstBadSeq == nil
    }

    /// Recomputes the stored tree from the log's events, inside `reader`'s write transaction.
    public func rebuildTree(_ reader: LogReader, head: UInt64) throws {
        try reader.transaction.drop(treeDatabase)
        try TreeWriter(tree: tree(reader.transaction)).catchUp(with: reader, through: head)
    }
}
