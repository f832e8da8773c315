import Crypto
import Domain
public import EventLog
public import LMDB
import SystemCalls

/// The proof side of one store (proofs.md): the stored tree and the identity in the log's environment, the
/// signed checkpoint in the store's directory, the signing key in the secrets file. `Store.write` calls
/// `begin` inside each write transaction and `sign` after it commits; the proof commands read through
/// `reader`.
public final class ProofStore: @unchecked Sendable {
    let treeDatabase: Database
    let metaDatabase: Database
    /// Every size the store signed a checkpoint at as a write committed (8 bytes big-endian → empty): where each
    /// commit ended, which the log itself does not say, so that a follower of the log sends each commit's
    /// checkpoint after its events, whoever committed (server.md §5). Kept from this version on.
    let commitsDatabase: Database
    public let file: CheckpointFile
    public let secretsFile: SecretsFile
    /// The secrets a store without an identity takes at its first write when its secrets file is missing
    /// (`VeritrailStore.create` made its first passcode with their pepper); new ones when nil.
    public var secretsForNewStore: StoreSecrets?
    /// Set for a store being built aside (`Store.create`): its new secrets are not written at their place
    /// but kept in `secretsToPublish`, for the store's publication to put in place before its data file.
    public var publishesSecrets = false
    /// The new secrets of a store built aside, to be put in place when it is published.
    public private(set) var secretsToPublish: StoreSecrets?
    private let lock = ConditionLock()
    private var loaded: StoreSecrets?

    /// Opens the `tree` and `meta` databases of `environment`, creating them when missing: a store made
    /// before proofs existed gets them (empty) the first time it is opened. Opening an existing database
    /// takes a read transaction only, so a reader never waits for a writer here. The secrets are at
    /// `secrets`, or beside the data when nil.
    public init(environment: Environment, directory: String, secrets: String? = nil) throws {
        file = CheckpointFile(directory: directory)
        secretsFile = secrets.map(SecretsFile.init(path:)) ?? SecretsFile(storeDirectory: directory)
        do {
            treeDatabase = try ProofStore.open("tree", in: environment)
            metaDatabase = try ProofStore.open("meta", in: environment)
            commitsDatabase = try ProofStore.open("commits", in: environment)
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

    /// The first size after `after`, at most `through`, that a commit ended at (`commitsDatabase`); nil when none
    /// is recorded there (none, or commits of a version that did not record them).
    public func firstCommit(_ txn: Transaction, after: UInt64, through: UInt64) throws -> UInt64? {
        guard after < through else { return nil }
        let cursor = try txn.cursor(commitsDatabase)
        guard let entry = try cursor.seek(atLeast: (after + 1).bigEndianBytes),
              let size = UInt64(bigEndianBytes: entry.key), size <= through else { return nil }
        return size
    }

    /// The size of the last checkpoint the store's data says it signed; nil when it does not say (a store
    /// made before version 2).
    func signedSize(_ txn: Transaction) throws -> UInt64? {
        try txn.get(metaDatabase, StoreIdentity.Keys.signedSize).flatMap { UInt64(bigEndianBytes: $0) }
    }

    /// Whether the store has signed a checkpoint of its log: its data says so, or (a store made before the
    /// data said so) it has an identity and events.
    func hasSigned(_ txn: Transaction, identity: StoreIdentity?, head: UInt64) throws -> Bool {
        try signedSize(txn).map { $0 > 0 } ?? (identity != nil && head > 0)
    }

    /// The store's secrets, checked against its identity. A `StoreError` (exit 74) when the file is missing,
    /// damaged or another store's: nothing that signs or checks a peppered passcode can run without them.
    public func secrets(for identity: StoreIdentity) throws -> StoreSecrets {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        guard let secrets = try secretsFile.load() else {
            throw StoreError("the store's secrets file \(secretsFile.path) is missing: it holds the key that signs the "
                             + "store's checkpoints and the pepper of its passcodes, so nothing that writes or checks a passcode "
                             + "can run (reads still work): put back your copy of it, or give its place with --secrets FILE "
                             + "(or VERITRAIL_SECRETS)")
        }
        guard identity.owns(secrets) else {
            throw StoreError("the secrets file \(secretsFile.path) is not this store's (its key is another store's): "
                             + "give this store's own with --secrets FILE (or VERITRAIL_SECRETS)")
        }
        loaded = secrets
        return secrets
    }

    /// For `log verify`: the secrets file, when there is one, is readable and belongs to the store's identity
    /// (`identity.owns`), so that a store called ok also signs and checks passcodes. Otherwise a `StoreError`,
    /// which says that either side may be the damaged one: a flipped byte of the data's record of the key (the
    /// table `meta`, which no other check covers) looks like another store's secrets. A store without the file
    /// (an auditor's copy) is not checked.
    public func checkSecretsAgree(with identity: StoreIdentity) throws {
        guard try secretsFile.load() != nil else { return }
        do {
            _ = try secrets(for: identity)
        } catch let error as StoreError {
            throw StoreError("the store's data and its secrets file do not agree (\(error.message)); if the file is the "
                             + "store's own, the data's record of its key (the table meta) is damaged: restore the store "
                             + "from a backup or an export")
        }
    }

    /// The store's identity for a write, and its secrets: made for a store that has none (a new store, or
    /// one made before proofs existed: the secrets file there is taken, else one is written, or kept for
    /// the new store's publication), moved out of
    /// LMDB for a store whose key an earlier version kept there (the secrets file is on disk before the
    /// key is deleted from `meta`, in this transaction).
    private func identityForWrite(_ txn: Transaction, existing: StoreIdentity?, origin: String?) throws -> (StoreIdentity, StoreSecrets) {
        if let existing, existing.legacyKey == nil { return (existing, try secrets(for: existing)) }
        let wanted = try existing?.legacyKey.map { try StoreSecrets.generate(signingKey: $0) } ?? secretsForNewStore ?? StoreSecrets.generate()
        var secrets = try secretsFile.load()
        if secrets == nil {
            if publishesSecrets && existing == nil {
                secretsToPublish = wanted
                secrets = wanted
            } else {
                secrets = try secretsFile.create(wanted) ? wanted : try secretsFile.load()
            }
        }
        guard let secrets, existing.map({ $0.owns(secrets) }) ?? true,
              existing != nil || secretsForNewStore == nil || secretsForNewStore == secrets else {
            throw StoreError("the secrets file \(secretsFile.path) is not this store's (its key is another store's): "
                             + "give this store's own with --secrets FILE (or VERITRAIL_SECRETS)")
        }
        let identity = try StoreIdentity.write(txn, meta: metaDatabase, origin: existing?.origin ?? origin ?? StoreIdentity.randomOrigin(),
                                               secrets: secrets)
        lock.lock()
        loaded = secrets
        lock.unlock()
        return (identity, secrets)
    }

    /// Starts the proof side of a write transaction: gives a store that lacks them its identity and its
    /// tree from its log (`identityForWrite`), then checks the kept checkpoint (`keptForWrite`). Appends go
    /// through the returned session's `tree`. With `resealing` (`log reseal --accept-loss`), the kept
    /// checkpoint is not checked and the head is signed whatever is kept.
    public func begin(_ reader: LogReader, head: UInt64, originForNewStore: String?, resealing: Bool = false) throws -> ProofSession {
        let txn = reader.transaction
        let existing = try identity(txn)
        let (identity, secrets) = try identityForWrite(txn, existing: existing, origin: originForNewStore)
        let writer = try TreeWriter(tree: tree(txn))
        guard writer.frontier.size <= head else {
            throw StoreError("the Merkle tree in \(file.directory) holds \(writer.frontier.size) leaves but the log only \(head) events")
        }
        try writer.catchUp(with: reader, through: head)
        let signed = try signedSize(txn)
        var keptSize: UInt64?
        if !resealing {
            // Read inside the write transaction (without waiting: `SmallFile`): a checkpoint is signed only
            // after its transaction commits, so the kept one never covers more than this transaction sees,
            // unless events were lost.
            let hasSigned = try hasSigned(txn, identity: existing, head: head)
            keptSize = try keptForWrite(file.read(), tree: tree(txn), identity: identity, size: head, hasSigned: hasSigned)?.size
            if let kept = keptSize, kept < head {
                try keepHead(head, root: writer.frontier.root, identity: identity, secrets: secrets)
                keptSize = head
            }
        }
        return ProofSession(identity: identity, secrets: secrets, writer: writer, keptSize: keptSize, signedSize: signed,
                            transaction: txn, meta: metaDatabase, commits: commitsDatabase, resealing: resealing)
    }

    /// Signs and keeps the checkpoint of the committed head, which the kept checkpoint is behind: the commit
    /// before this write could not keep its checkpoint (no space, an I/O error), or another process committed
    /// and has not kept its own yet (it then finds this one, of its size, and keeps nothing). A write never
    /// commits on top of a head without its checkpoint: when it can not be kept now either, a `StoreError`
    /// refuses this write, with nothing written.
    private func keepHead(_ head: UInt64, root: TreeHash, identity: StoreIdentity, secrets: StoreSecrets) throws {
        do {
            let checkpoint = Checkpoint(origin: identity.origin, size: head, root: root)
            try file.replace(with: try secrets.sign(checkpoint.text, name: identity.origin), size: head)
        } catch {
            throw StoreError("the signed checkpoint of the store's last write (\(head) events, which are recorded) was not kept, "
                             + "and it can not be kept now (\(error)); nothing was written: free space or fix the store's "
                             + "directory \(file.directory), then write again")
        }
    }

    /// The kept checkpoint, checked for a write: a `StoreError` (exit 74) that says why nothing was written
    /// and what to do when it is missing although the store has signed, is not a readable regular file, or
    /// disagrees with the store (`check`). Nil when there is none and the store never signed.
    private func keptForWrite(_ kept: CheckpointFile.Kept, tree: StoredTree, identity: StoreIdentity, size: UInt64,
                              hasSigned: Bool) throws -> Checkpoint? {
        let refuse = { (why: String) in
            StoreError("the store at \(self.file.directory) \(why); nothing was written: put its checkpoint back, "
                       + "or sign the head over the loss with `veritrail log reseal --accept-loss`")
        }
        switch kept {
        case .missing:
            if hasSigned { throw refuse("has signed its log but its kept checkpoint \(file.path) is missing") }
            return nil
        case .refused(let why):
            throw refuse("can not use its kept checkpoint: \(why)")
        case .note(let note):
            do {
                return try check(note, tree: tree, identity: identity, size: size)
            } catch {
                throw refuse("disagrees with its signed checkpoint (\(error.message))")
            }
        }
    }

    /// The kept checkpoint `note`, checked: its signature under the store's key, its origin, a log at least as
    /// long (`size` events), and the tree's root at its size. Read `note` before the transaction of `tree`
    /// begins, or inside a write transaction, so that it is never a checkpoint of a later commit than the
    /// transaction sees. Throws why not.
    func check(_ note: String, tree: StoredTree, identity: StoreIdentity, size: UInt64) throws(BadCheckpoint) -> Checkpoint {
        let checkpoint: Checkpoint
        do {
            checkpoint = try Checkpoint(text: try SignedNote.open(note, key: identity.verifier))
        } catch {
            throw BadCheckpoint(error.message)
        }
        guard checkpoint.origin == identity.origin else { throw BadCheckpoint("its origin is \(checkpoint.origin), the store's \(identity.origin)") }
        guard checkpoint.size <= size else {
            throw BadCheckpoint("it covers \(checkpoint.size) events, the log holds \(size): committed events were lost")
        }
        let root: TreeHash
        do {
            root = try MerkleMath.root(size: checkpoint.size, tree)
        } catch {
            throw BadCheckpoint("the tree of its size can not be read: \(error)")
        }
        guard root == checkpoint.root else { throw BadCheckpoint("the tree of its size has another root: the log was rewritten") }
        return checkpoint
    }

    /// Signs the checkpoint a write is about to commit and writes it beside the kept one (`CheckpointFile.prepare`),
    /// inside the write's transaction: when that fails (no space or inode left), the write fails with nothing
    /// committed. `install` puts it in place once the transaction has committed; `discard` removes it when the
    /// commit failed.
    public func prepare(_ pending: PendingCheckpoint) throws -> PreparedCheckpoint {
        let note = try pending.secrets.sign(pending.checkpoint.text, name: pending.identity.origin)
        return PreparedCheckpoint(temporary: try file.prepare(note), size: pending.checkpoint.size, force: pending.force)
    }

    /// Keeps the checkpoint of a write that committed.
    public func install(_ prepared: PreparedCheckpoint) throws {
        try file.install(prepared.temporary, size: prepared.size, force: prepared.force)
    }

    /// Removes the checkpoint of a write that did not commit.
    public func discard(_ prepared: PreparedCheckpoint) { file.discard(prepared.temporary) }
}

/// The proof side of one write transaction.
public final class ProofSession {
    public let identity: StoreIdentity
    let secrets: StoreSecrets
    public let tree: TreeWriter
    let keptSize: UInt64?
    let signedSize: UInt64?
    let transaction: Transaction
    let meta: Database
    let commits: Database
    let resealing: Bool

    init(identity: StoreIdentity, secrets: StoreSecrets, writer: TreeWriter, keptSize: UInt64?, signedSize: UInt64?,
         transaction: Transaction, meta: Database, commits: Database, resealing: Bool) {
        self.identity = identity
        self.secrets = secrets
        self.tree = writer
        self.keptSize = keptSize
        self.signedSize = signedSize
        self.transaction = transaction
        self.meta = meta
        self.commits = commits
        self.resealing = resealing
    }

    /// What to sign once the transaction commits: the tree as it now is, unless the kept checkpoint already
    /// covers it (a write that appended nothing). Records, in this transaction, that the store signs it, and
    /// that a commit ends at its size.
    public func finish() throws -> PendingCheckpoint? {
        let size = tree.frontier.size
        if !resealing, let keptSize, keptSize >= size { return nil }
        if signedSize != size { try transaction.put(meta, StoreIdentity.Keys.signedSize, size.bigEndianBytes) }
        try transaction.put(commits, size.bigEndianBytes, [])
        return PendingCheckpoint(identity: identity, secrets: secrets,
                                 checkpoint: Checkpoint(origin: identity.origin, size: size, root: tree.frontier.root),
                                 force: resealing)
    }
}

/// A checkpoint signed and written beside its place, to put in place once its transaction commits.
public struct PreparedCheckpoint: Sendable {
    let temporary: String
    public let size: UInt64
    let force: Bool
}

/// A checkpoint to sign for a write about to commit.
public struct PendingCheckpoint: Sendable {
    let identity: StoreIdentity
    let secrets: StoreSecrets
    public let checkpoint: Checkpoint
    /// Replace whatever is kept (a reseal).
    let force: Bool
}

extension ProofStore {
    /// Whether the stored tree, as `reader`'s snapshot holds it, is the tree of the log's first `head`
    /// events, node for node. `rebuild` asks on a thread of its own while it recomputes the models, and writes
    /// the tree again only when it is not.
    ///
    /// The leaves that the kept checkpoint covers, when it is signed under the store's key, are checked by
    /// that checkpoint: every node above the stored leaves is made again and compared with the stored one,
    /// and the root at the checkpoint's size must be the signed root. The leaves are then the hashes of the
    /// events that were signed (short of a SHA-256 collision). The leaves past it, and all of them without a
    /// signed checkpoint, are made from their events' canonical forms, as `log verify` makes them. Making
    /// each leaf took most of the check's time (docs/BULK.md, "The tree a signed checkpoint covers").
    ///
    /// So an event the checkpoint covers that was damaged after it was signed leaves the signed tree as it
    /// is: the tree goes on proving the events that were signed, and `log verify` finds the damage (its
    /// chain link, and its leaf against the stored tree).
    public func treeMatches(_ reader: LogReader, through head: UInt64) throws -> Bool {
        try treeMatches(reader, through: head, chunkLevel: Sweep.chunkLevel)
    }

    /// `treeMatches` in chunks of 2^`level` leaves (tests give small ones).
    func treeMatches(_ reader: LogReader, through head: UInt64, chunkLevel level: Int) throws -> Bool {
        let tree = tree(reader.transaction)
        guard try tree.size() == head else { return false }
        let signed = signedCheckpoint(reader.transaction, head: head)
        let chunks = (head + (UInt64(1) << UInt64(level)) - 1) >> UInt64(level)
        let sweeps = try (0..<chunks).map { chunk in
            try Sweep.run(reader, tree: tree, chunk: chunk, level: level, head: head, rootAt: signed?.size, chain: false,
                          storedLeaves: signed.map { (chunk + 1) << UInt64(level) <= $0.size } ?? false)
        }
        let total = SweepTotal(sweeps, rootAt: signed?.size)
        return !total.chainBroken && total.firstBadSeq == nil && total.rootAt == signed?.root
    }

    /// The kept checkpoint, when it is signed under the store's key for its origin and covers at most `head`
    /// events; nil when there is none, or it is not (`log verify` says why). It is read after the snapshot
    /// began (a rebuild holds the write lock meanwhile): one another process signed since is of more events
    /// (not used: the leaves are made from their events) or of another log, whose root the stored tree does not
    /// have (the tree is written again).
    private func signedCheckpoint(_ txn: Transaction, head: UInt64) -> Checkpoint? {
        guard let identity = try? identity(txn), case .note(let note) = file.read(),
              let checkpoint = try? Checkpoint(text: try SignedNote.open(note, key: identity.verifier)),
              checkpoint.origin == identity.origin, checkpoint.size <= head
        else { return nil }
        return checkpoint
    }

    /// Recomputes the stored tree from the log's events, inside `reader`'s write transaction.
    public func rebuildTree(_ reader: LogReader, head: UInt64) throws {
        try reader.transaction.drop(treeDatabase)
        try TreeWriter(tree: tree(reader.transaction)).catchUp(with: reader, through: head)
    }
}
