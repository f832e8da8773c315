public import Crypto
import Domain

/// Why a signed note (C2SP `signed-note`) or a checkpoint was not accepted.
public struct NoteError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The signature line's lead-in: an em dash (U+2014) and a space.
let signatureDash = Array("\u{2014} ".utf8)

/// A verifier key in the signed-note form `<name>+<keyID as 8 hex digits>+<base64(0x01 ‖ public key)>`
/// (Ed25519, algorithm 1): what an auditor writes down once, and what Go's `sumdb/note` reads.
public struct VerifierKey: Sendable, Equatable {
    public let name: String
    public let publicKey: [UInt8]

    public init(name: String, publicKey: [UInt8]) {
        self.name = name
        self.publicKey = publicKey
    }

    /// The first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key), which signatures carry.
    public var keyID: [UInt8] {
        Array(SHA256.hash(data: Array(name.utf8) + [0x0A, 0x01] + publicKey).prefix(4))
    }

    public var text: String { "\(name)+\(Hex.encode(keyID))+\(Base64.encode([0x01] + publicKey))" }

    /// Parses the `name+hash+key` form, checking that the key ID matches the key.
    public init(parsing text: String) throws(NoteError) {
        let parts = text.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].utf8.count == 8, parts[1].utf8.allSatisfy({ $0 != 0x2B && $0 != 0x2D }),
              let id = UInt32(parts[1], radix: 16),
              let key = Base64.decode(String(parts[2])), key.count == 33, key[0] == 0x01
        else { throw NoteError("a verifier key is NAME+KEYID+BASE64 (an Ed25519 key in signed-note form)") }
        self.init(name: String(parts[0]), publicKey: Array(key.dropFirst()))
        guard Checkpoint.validOrigin(name) else { throw NoteError("the verifier key's name is not a valid origin") }
        guard keyID == withUnsafeBytes(of: id.bigEndian, Array.init) else { throw NoteError("the verifier key's ID does not match its key") }
    }
}

/// C2SP `signed-note`: a text, a blank line, and signature lines `— <name> <base64(keyID ‖ signature)>`.
public enum SignedNote {
    /// Signs `text` (which ends with a newline) with `key` under `name`: the whole note.
    public static func sign(_ text: String, name: String, key: Curve25519.Signing.PrivateKey) throws -> String {
        let verifier = VerifierKey(name: name, publicKey: Array(key.publicKey.rawRepresentation))
        let signature = try key.signature(for: Array(text.utf8))
        return text + "\n\u{2014} \(name) \(Base64.encode(verifier.keyID + Array(signature)))\n"
    }

    /// The text of `note` when one of its signatures is `key`'s and verifies; throws otherwise. Strict, as
    /// C2SP verifiers are: the text is UTF-8 without control characters but its newlines, and everything after
    /// the blank line is signature lines `— NAME BASE64`, each ending with a newline, and nothing else.
    public static func open(_ note: String, key: VerifierKey) throws(NoteError) -> String {
        let bytes = Array(note.utf8)
        guard bytes.last == 0x0A, let split = blankLine(in: bytes) else {
            throw NoteError("not a signed note: no blank line between the text and its signatures")
        }
        let text = Array(bytes[..<(split + 1)])
        guard text.allSatisfy({ $0 == 0x0A || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw NoteError("the note's text holds a control character")
        }
        let lines = bytes[(split + 2)...].split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        guard !lines.isEmpty else { throw NoteError("the note has no signature") }
        var signatures: [(name: String, blob: [UInt8])] = []
        for line in lines {
            guard line.starts(with: signatureDash) else {
                throw NoteError("after the blank line comes a line that is not a signature (`— NAME BASE64`)")
            }
            let rest = line.dropFirst(signatureDash.count).split(separator: 0x20, omittingEmptySubsequences: false)
            guard rest.count == 2, !rest[0].isEmpty, !rest[0].contains(0x2B),
                  let blob = Base64.decode(String(decoding: rest[1], as: UTF8.self)), blob.count > 4 else {
                throw NoteError("a signature line is not `— NAME BASE64`")
            }
            signatures.append((String(decoding: rest[0], as: UTF8.self), blob))
        }
        for (name, blob) in signatures where name == key.name && Array(blob.prefix(4)) == key.keyID {
            guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key.publicKey),
                  publicKey.isValidSignature(Array(blob.dropFirst(4)), for: text)
            else { throw NoteError("the signature of \(key.name) does not verify: the note was changed or signed by another key") }
            return String(decoding: text, as: UTF8.self)
        }
        throw NoteError("the note carries no signature of the key \(key.name)+\(Hex.encode(key.keyID))")
    }

    /// The text of `note` without checking any signature (a checkpoint read when no key was given, to say
    /// what was checked and what was not): the part before the blank line; throws when there is none.
    public static func unverifiedText(_ note: String) throws(NoteError) -> String {
        let bytes = Array(note.utf8)
        guard bytes.last == 0x0A, let split = blankLine(in: bytes) else {
            throw NoteError("not a signed note: no blank line between the text and its signatures")
        }
        return String(decoding: bytes[..<(split + 1)], as: UTF8.self)
    }

    /// The index of the first newline of the last "\n\n" (the end of the text).
    private static func blankLine(in bytes: [UInt8]) -> Int? {
        var i = bytes.count - 2
        while i >= 0 {
            if bytes[i] == 0x0A && bytes[i + 1] == 0x0A { return i }
            i -= 1
        }
        return nil
    }
}
