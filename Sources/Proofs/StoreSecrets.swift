import Crypto
import Domain
public import EventLog
import SystemCalls

/// A store's secrets (proofs.md §2, version 2): the Ed25519 key that signs its checkpoints and the 32-byte
/// pepper of its passcode credentials (events.md `passcode.set`, `pbkdf2-sha256-hmac`). They live in a file
/// of their own (`SecretsFile`), never in LMDB: a copy of the data file or an export holds neither.
///
/// LMDB keeps only what checks that a secrets file is this store's: the public key and a hash of the pepper.
public struct StoreSecrets: Sendable, Equatable {
    /// The private key's 32 bytes.
    let signingKey: [UInt8]
    /// The passcode pepper, 32 random bytes.
    public let pepper: [UInt8]
    /// The public half of `signingKey`.
    public let publicKey: [UInt8]

    /// Secrets with `signingKey` (a new key when nil: a new store; the key kept in LMDB by an older version,
    /// when it moves out) and a new pepper.
    public static func generate(signingKey: [UInt8]? = nil) throws -> StoreSecrets {
        let key = try signingKey.map { try Curve25519.Signing.PrivateKey(rawRepresentation: $0) } ?? Curve25519.Signing.PrivateKey()
        var generator = SystemRandomNumberGenerator()
        return try StoreSecrets(signingKey: Array(key.rawRepresentation),
                                pepper: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    init(signingKey: [UInt8], pepper: [UInt8]) throws {
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: signingKey)
        self.signingKey = signingKey
        self.pepper = pepper
        publicKey = Array(key.publicKey.rawRepresentation)
    }

    /// What LMDB keeps of the pepper: the first 16 bytes of SHA-256("veritrail pepper id\n" ‖ pepper), which
    /// tells a secrets file of another store from this one's and says nothing of the pepper.
    public var pepperID: [UInt8] { Array(SHA256.hash(data: Array("veritrail pepper id\n".utf8) + pepper).prefix(16)) }

    /// Signs `text` under `name` (a signed note, C2SP).
    func sign(_ text: String, name: String) throws -> String {
        try SignedNote.sign(text, name: name, key: try Curve25519.Signing.PrivateKey(rawRepresentation: signingKey))
    }

    /// The file's text: a first line naming the format, then one `NAME BASE64` line per secret.
    var text: String { "veritrail-secrets v2\nsigning-key \(Base64.encode(signingKey))\npepper \(Base64.encode(pepper))\n" }

    /// Parses the file's text, exactly as `text` writes it.
    init(parsing bytes: [UInt8]) throws(NoteError) {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard lines.count == 4, lines[0] == "veritrail-secrets v2", lines[3].isEmpty,
              lines[1].hasPrefix("signing-key "), lines[2].hasPrefix("pepper "),
              let key = Base64.decode(String(lines[1].dropFirst(12))), key.count == 32,
              let pepper = Base64.decode(String(lines[2].dropFirst(7))), pepper.count == 32,
              let secrets = try? StoreSecrets(signingKey: key, pepper: pepper)
        else { throw NoteError("it is not a Veritrail secrets file (version 2)") }
        self = secrets
    }
}

/// Where a store's secrets are: `<store>/secrets` by default, or a path of the caller's (`--secrets FILE`,
/// `VERITRAIL_SECRETS`), such as another disk. Owner-only (0600); written once, when the store is made or
/// its key moves out of LMDB, and never replaced.
public struct SecretsFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The default place: beside the data.
    public init(storeDirectory: String) { path = storeDirectory + "/secrets" }

    /// The secrets, or nil when there is no file; a `StoreError` naming the file when it is not a readable
    /// secrets file.
    public func load() throws(StoreError) -> StoreSecrets? {
        switch SmallFile.read(path, limit: 4096, followLinks: true) {
        case .missing: return nil
        case .refused(let why): throw StoreError("the store's secrets file: \(why)")
        case .bytes(let bytes):
            do {
                return try StoreSecrets(parsing: bytes)
            } catch {
                throw StoreError("the store's secrets file \(path) is damaged: \(error.message); put back your copy of it")
            }
        }
    }

    /// Writes `secrets` at `path` unless a file is there already, durably (`temporary`, then `link` into
    /// place, fsync of the directory): never replacing one. Returns false when one was there.
    ///
    /// The corresponding C functions are `link` and `unlink`, and those of `temporary`.
    public func create(_ secrets: StoreSecrets) throws(StoreError) -> Bool {
        let temporary = try self.temporary(secrets)
        defer { try? FileSystem.unlink(temporary) }
        do throws(SystemError) {
            do {
                try FileSystem.link(temporary, to: path)
            } catch {
                if error.errno == .exists { return false }
                throw error
            }
            try SafeWrite.syncDirectory(directory)
            return true
        } catch {
            throw StoreError("can not write the store's secrets file \(path): \(error.reason)")
        }
    }

    /// Writes `secrets` to a new temporary file beside `path` (0600, `O_CREAT|O_EXCL|O_NOFOLLOW`, flushed)
    /// and returns its path: a new store's secrets, renamed into place when the store is published
    /// (`StoreDirectory.publish`).
    ///
    /// The corresponding C functions are `open`, `write`, `fsync` and `close`.
    public func temporary(_ secrets: StoreSecrets) throws(StoreError) -> String {
        do throws(SystemError) {
            SafeWrite.removeAbandoned(in: directory, prefix: name)
            return try SafeWrite.temporary(Array(secrets.text.utf8), in: directory, prefix: name)
        } catch {
            throw StoreError("can not write the store's secrets file \(path): \(error.reason)")
        }
    }

    /// The directory the file is in, and its name there.
    private var directory: String {
        path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }

    private var name: String { path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path }
}
