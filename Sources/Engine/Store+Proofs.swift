public import EventLog
public import Projections
public import Proofs

extension Store {
    /// Runs `body` on a snapshot's proof reader (proofs.md §2–3). A store made before proofs existed first
    /// gets its identity and its tree from its log in a write of its own, as at its first write.
    ///
    /// The kept checkpoint is read before each snapshot begins: it is signed after its commit, so read first
    /// it never covers more than the snapshot holds, even while another process writes.
    public func withProofs<R>(_ body: (ProofReader) throws -> R) throws -> R {
        try withProofs { proofs, _, _ in try body(proofs) }
    }

    /// As `withProofs(_:)`, with the same snapshot's log and read models, so that events and their proofs
    /// are read from one tree (`export --proofs`).
    public func withProofs<R>(_ body: (ProofReader, LogReader, Models) throws -> R) throws -> R {
        var kept = proofs.file.read()
        if let result = try read({ reader, models in try proofs.reader(reader, kept: kept).map { try body($0, reader, models) } }) {
            return result
        }
        try write { _ in }
        kept = proofs.file.read()
        return try read { reader, models in
            guard let proof = try proofs.reader(reader, kept: kept) else { throw StoreError("the store's Merkle tree could not be made") }
            return try body(proof, reader, models)
        }
    }

    /// The first size after `after`, at most `through`, at which a commit ended (`ProofStore.firstCommit`).
    public func firstCommit(after: UInt64, through: UInt64) throws -> UInt64? {
        try log.read { reader in try proofs.firstCommit(reader.transaction, after: after, through: through) }
    }

    /// The store's origin, or nil when it has none yet (a store made before proofs existed).
    public func origin() throws -> String? {
        try log.read { reader in try proofs.identity(reader.transaction)?.origin }
    }

    /// The store's verifier key, read from its data (no secret needed), or nil when it has none yet.
    public func verifier() throws -> VerifierKey? {
        try log.read { reader in try proofs.identity(reader.transaction)?.verifier }
    }

    /// The store's passcode pepper, for a new credential: a store that keeps its signing key in LMDB still
    /// (made before version 2), or has no identity yet, first moves it out or gets one, in a write of its own.
    public func pepperForNewCredential() throws -> [UInt8] {
        if let identity = try log.read({ reader in try proofs.identity(reader.transaction) }), identity.isSeparated {
            return try proofs.secrets(for: identity).pepper
        }
        try write { _ in }
        guard let identity = try log.read({ reader in try proofs.identity(reader.transaction) }) else {
            throw StoreError("the store's secrets could not be made")
        }
        return try proofs.secrets(for: identity).pepper
    }

    /// The store's passcode pepper, to check a credential made with one; nil when the store has none yet
    /// (it keeps its key in LMDB still, or has no identity: no credential of its own is peppered then).
    public func pepper() throws -> [UInt8]? {
        guard let identity = try log.read({ reader in try proofs.identity(reader.transaction) }), identity.isSeparated else { return nil }
        return try proofs.secrets(for: identity).pepper
    }
}

extension Store {
    /// Takes `origin` (`init --origin`, `import --origin`) for the store's first write when the store has no
    /// origin yet; refuses one that differs from the store's own, which never changes.
    public func adopt(origin: String?) throws {
        guard let origin else { return }
        if let existing = try self.origin(), existing != origin {
            throw QueryError.refused("the store's origin is \(existing), not \(origin): an origin never changes")
        }
        originForNewStore = origin
    }
}
