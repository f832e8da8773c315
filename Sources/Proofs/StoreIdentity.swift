import Crypto
import Domain
import EventLog
import LMDB

/// A store's origin and verifier key (proofs.md §2), kept in the LMDB database `meta` of the log's
/// environment: the origin, the public key and the hash of the pepper that tie the store to its secrets file
/// (`StoreSecrets`), and how far the store has signed. Written in the same write transactions as the events
/// they speak of. The private key is never in LMDB: a store made by an earlier version kept it there
/// (`signing-key`), and it moves out at that store's next write (`ProofStore.begin`).
///
/// `verifier` is the key an auditor writes down (`log key`).
public struct StoreIdentity: Sendable {
    public let origin: String
    public let verifier: VerifierKey
    /// The pepper's hash (`StoreSecrets.pepperID`); nil while the key is still in LMDB.
    let pepperID: [UInt8]?
    /// The private key an earlier version kept in LMDB, until it moves to the secrets file.
    let legacyKey: [UInt8]?

    init(origin: String, publicKey: [UInt8], pepperID: [UInt8]?, legacyKey: [UInt8]?) {
        self.origin = origin
        verifier = VerifierKey(name: origin, publicKey: publicKey)
        self.pepperID = pepperID
        self.legacyKey = legacyKey
    }

    enum Keys {
        static let origin = Array("origin".utf8)
        static let legacySigningKey = Array("signing-key".utf8)
        static let verifierKey = Array("verifier-key".utf8)
        static let pepperID = Array("pepper-id".utf8)
        /// The size of the last checkpoint the store signed (8 bytes, big-endian), written in the transaction
        /// of the events it covers: the data itself knows that it has signed.
        static let signedSize = Array("signed-size".utf8)
    }

    /// The identity stored in `meta`, or nil when the store has none yet (made before checkpoints existed).
    static func read(_ txn: Transaction, meta: Database) throws -> StoreIdentity? {
        guard let origin = try txn.get(meta, Keys.origin).map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
        if let publicKey = try txn.get(meta, Keys.verifierKey).map({ Array($0) }), publicKey.count == 32,
           let pepperID = try txn.get(meta, Keys.pepperID).map({ Array($0) }) {
            return StoreIdentity(origin: origin, publicKey: publicKey, pepperID: pepperID, legacyKey: nil)
        }
        guard let raw = try txn.get(meta, Keys.legacySigningKey).map({ Array($0) }),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else { throw StoreError("the store's verifier key is missing or damaged") }
        return StoreIdentity(origin: origin, publicKey: Array(key.publicKey.rawRepresentation), pepperID: nil, legacyKey: raw)
    }

    /// Stores the identity of `secrets` under `origin`, and removes a key an earlier version kept in LMDB.
    static func write(_ txn: Transaction, meta: Database, origin: String, secrets: StoreSecrets) throws -> StoreIdentity {
        try txn.put(meta, Keys.origin, Array(origin.utf8))
        try txn.put(meta, Keys.verifierKey, secrets.publicKey)
        try txn.put(meta, Keys.pepperID, secrets.pepperID)
        _ = try txn.delete(meta, Keys.legacySigningKey)
        return StoreIdentity(origin: origin, publicKey: secrets.publicKey, pepperID: secrets.pepperID, legacyKey: nil)
    }

    /// Whether the store's key lives in its secrets file (not in LMDB, as an earlier version kept it).
    public var isSeparated: Bool { legacyKey == nil }

    /// Whether `secrets` are this store's.
    func owns(_ secrets: StoreSecrets) -> Bool {
        secrets.publicKey == verifier.publicKey && (pepperID == nil || pepperID == secrets.pepperID)
    }

    /// `veritrail.invalid/` and 16 random lower-case hex digits (proofs.md §2).
    static func randomOrigin() -> String {
        var generator = SystemRandomNumberGenerator()
        return "veritrail.invalid/" + Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
