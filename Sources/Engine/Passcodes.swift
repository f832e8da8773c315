import Crypto
import _CryptoExtras
public import Domain

/// Passcodes as events.md keeps them: only as salted PBKDF2-SHA256, never the digits themselves.
public enum Passcodes {
    /// Iterations for new credentials: above the spec's floor of 100,000 and swift-crypto's checked minimum.
    public static let iterations = 210_000

    /// 4–8 digits (cli.md §4).
    public static func isWellFormed(_ passcode: String) -> Bool {
        (4...8).contains(passcode.utf8.count) && passcode.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A new credential for `passcode`, with a fresh random 16-byte salt.
    public static func credential(for passcode: String) throws -> Credential {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let key = try derive(passcode, salt: salt, iterations: iterations)
        return Credential(hash: Base64.encode(key), iterations: Int64(iterations), salt: Base64.encode(salt))
    }

    /// Whether `passcode` matches `credential`, compared in constant time.
    public static func matches(_ passcode: String, _ credential: Credential) throws -> Bool {
        guard let salt = Base64.decode(credential.salt), let expected = Base64.decode(credential.hash) else { return false }
        let key = try derive(passcode, salt: salt, iterations: Int(credential.iterations))
        guard key.count == expected.count else { return false }
        return zip(key, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func derive(_ passcode: String, salt: [UInt8], iterations: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(passcode.utf8), salt: salt, using: .sha256,
                                                     outputByteCount: 32, unsafeUncheckedRounds: iterations)
        return key.withUnsafeBytes { Array($0) }
    }
}
