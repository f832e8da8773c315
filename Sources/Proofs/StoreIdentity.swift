import Crypto
import Domain
import EventLog
import LMDB

/// A store's origin and Ed25519 signing key (proofs.md §2), kept in the LMDB database `meta` of the log's
/// environment (keys "origin" and "signing-key"), written in the same write transaction as the store's
/// first events: a store is never on disk without them once it has events, and never with a key that does
/// not belong to its data file.
///
/// `verifier` is the key an auditor writes down (`log key`); the private key is never shown.
public struct StoreIdentity: Sendable {
    public let origin: String
    /// The private key's 32 bytes (the key type itself is not `Sendable`).
    private let keyBytes: [UInt8]
    public let verifier: VerifierKey

    init(origin: String, key: Curve25519.Signing.PrivateKey) {
        self.origin = origin
        keyBytes = Array(key.rawRepresentation)
        verifier = VerifierKey(name: origin, publicKey: Array(key.publicKey.rawRepresentation))
    }


    static let originKey = Array("origin".utf8)
    static let signingKey = Array("signing-key".utf8)

    /// The identity stored in `meta`, or nil when the store has none yet (made before checkpoints existed).
    static func read(_ txn: Transaction, meta: Database) throws -> StoreIdentity? {
        guard let origin = try txn.get(meta, originKey).map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
        guard let raw = try txn.get(meta, signingKey).map({ Array($0) }),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else { throw StoreError("the store's signing key is missing or damaged") }
        return StoreIdentity(origin: origin, key: key)
    }

    /// Makes and stores a new identity with `origin` (by default a random one) and a new key.
    static func create(_ txn: Transaction, meta: Database, origin: String?) throws -> StoreIdentity {
        let identity = StoreIdentity(origin: origin ?? randomOrigin(), key: Curve25519.Signing.PrivateKey())
        try txn.put(meta, originKey, Array(identity.origin.utf8))
        try txn.put(meta, signingKey, identity.keyBytes)
        return identity
    }

    /// `veritrail.invalid/` and 16 random lower-case hex digits (proofs.md §2).
    static func randomOrigin() -> String {
        var generator = SystemRandomNumberGenerator()
        return "veritrail.invalid/" + Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// `checkpoint` signed with this store's key.
    public func sign(_ checkpoint: Checkpoint) throws -> String {
        try SignedNote.sign(checkpoint.text, name: origin, key: try Curve25519.Signing.PrivateKey(rawRepresentation: keyBytes))
    }
}
