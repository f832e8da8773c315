import Crypto
import _CryptoExtras
public import Domain

/// Passcodes as events.md keeps them: only as salted PBKDF2-SHA256, never the digits themselves; new ones
/// as `pbkdf2-sha256-hmac`, the PBKDF2 output keyed with the store's pepper (a secret the log and its
/// exports lack), so that a reader of an export can not test guesses offline.
///
/// A peppered credential carries in its salt a mark of the pepper it was made with: 16 random bytes, then
/// the first 16 bytes of HMAC-SHA256(pepper, "veritrail salt\n" ‖ those bytes). A store so tells its own
/// credentials from those an import brought from another store, which it can not check (`ForeignCredential`).
public enum Passcodes {
    /// Iterations for new credentials: above the spec's floor of 100,000 and swift-crypto's checked minimum.
    public static let iterations = 210_000

    /// 4–8 digits (cli.md §4).
    public static func isWellFormed(_ passcode: String) -> Bool {
        (4...8).contains(passcode.utf8.count) && passcode.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A new `pbkdf2-sha256-hmac` credential for `passcode` under the store's `pepper`. Its salt is fresh, or,
    /// for the event logged under the id `eventID`, drawn from the pepper and that id: every try of a write
    /// retried under its id (two at once too) then builds the very event, and the log, holding each id once,
    /// still gives every credential its own salt, which no one without the pepper can foresee.
    public static func credential(for passcode: String, pepper: [UInt8], eventID: String? = nil) throws -> Credential {
        let random: [UInt8]
        if let eventID {
            random = keyed(Array("veritrail salt of the event\n\(eventID)".utf8), pepper: pepper)
        } else {
            var generator = SystemRandomNumberGenerator()
            random = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let salt = random + mark(random, pepper: pepper)
        let key = peppered(try derive(passcode, salt: salt, iterations: iterations), pepper: pepper)
        return Credential(hash: Base64.encode(key), iterations: Int64(iterations), salt: Base64.encode(salt), scheme: .pbkdf2SHA256HMAC)
    }

    /// Whether a `pbkdf2-sha256-hmac` credential was made with `pepper` (its salt carries the pepper's mark).
    public static func isMade(_ credential: Credential, with pepper: [UInt8]) -> Bool {
        guard let salt = Base64.decode(credential.salt), salt.count == 32 else { return false }
        return equalInConstantTime(Array(salt.suffix(16)), mark(Array(salt.prefix(16)), pepper: pepper))
    }

    /// Whether `passcode` matches `credential`, compared in constant time. A peppered credential is checked
    /// only with the pepper it was made with: `ForeignCredential` when `pepper` is not it (or nil).
    public static func matches(_ passcode: String, _ credential: Credential, pepper: [UInt8]?) throws -> Bool {
        guard let salt = Base64.decode(credential.salt), let expected = Base64.decode(credential.hash) else { return false }
        var key = try derive(passcode, salt: salt, iterations: Int(credential.iterations))
        if credential.scheme == .pbkdf2SHA256HMAC {
            guard let pepper, isMade(credential, with: pepper) else { throw ForeignCredential() }
            key = peppered(key, pepper: pepper)
        }
        return equalInConstantTime(key, expected)
    }

    private static func derive(_ passcode: String, salt: [UInt8], iterations: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(passcode.utf8), salt: salt, using: .sha256,
                                                     outputByteCount: 32, unsafeUncheckedRounds: iterations)
        return key.withUnsafeBytes { Array($0) }
    }

    /// HMAC-SHA256(key: pepper, message: the PBKDF2 output) (events.md `passcode.set`).
    private static func peppered(_ derived: [UInt8], pepper: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: derived, using: SymmetricKey(data: pepper)))
    }

    private static func mark(_ random: [UInt8], pepper: [UInt8]) -> [UInt8] {
        keyed(Array("veritrail salt\n".utf8) + random, pepper: pepper)
    }

    /// The first 16 bytes of HMAC-SHA256(key: pepper, message).
    private static func keyed(_ message: [UInt8], pepper: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: pepper)).prefix(16))
    }

    private static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// A `pbkdf2-sha256-hmac` credential made with another store's pepper (brought by an import): this store can
/// not check it. Its account unlocks here only when the store has that store's secrets, or after an admin
/// resets its passcode.
public struct ForeignCredential: Error, Sendable {
    public init() {}
}
