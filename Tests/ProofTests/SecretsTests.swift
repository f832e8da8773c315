import Crypto
import Engine
import EventLog
import Foundation
import LMDB
@testable import Proofs
import Testing

/// The store's secrets (proofs.md §2, version 2): the signing key and the passcode pepper in a file of their
/// own, never in LMDB or an export; `pbkdf2-sha256-hmac` credentials (events.md `passcode.set`).
@Suite("The secrets file", .serialized)
struct SecretsTests {
    /// `init` with passcode 2468, as `veritrail` runs it.
    static func initStore(_ fixture: StoreFixture, store: String? = nil, extra: [String] = [], environment: [String: String] = [:]) throws -> Run {
        try run(fixture.binary, ["init", "--admin", "ada", "--name", "Ada", "--email", "ada@example.org", "--passcode-stdin",
                                 "--store", store ?? fixture.store] + extra,
                environment: ["NO_COLOR": "1"].merging(environment) { $1 }, input: "2468\n2468")
    }

    /// The key and the pepper of a secrets file, raw.
    static func secrets(_ path: String) throws -> (key: [UInt8], pepper: [UInt8]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 && lines[0] == "veritrail-secrets v2")
        let key = try #require(Data(base64Encoded: String(lines[1].dropFirst("signing-key ".count))))
        let pepper = try #require(Data(base64Encoded: String(lines[2].dropFirst("pepper ".count))))
        return (Array(key), Array(pepper))
    }

    /// Whether `haystack` holds `secret` raw, in base64 or in hex.
    static func holds(_ haystack: Data, _ secret: [UInt8]) -> Bool {
        let forms = [Data(secret), Data(Data(secret).base64EncodedString().utf8),
                     Data(secret.map { String(format: "%02x", $0) }.joined().utf8)]
        return forms.contains { haystack.range(of: $0) != nil }
    }

    @Test func neitherTheDataFileNorACopyNorAnExportHoldsTheKeyOrThePepper() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try Self.initStore(fixture).exit == 0)
        #expect(try run(fixture.binary, ["unlock", "--as", "ada", "--passcode-stdin", "--store", fixture.store], input: "2468").exit == 0)
        #expect(try fixture.veritrail(["search", "serum", "--as", "ada"]).exit == 0)
        let secretsPath = fixture.store + "/secrets"
        #expect((try FileManager.default.attributesOfItem(atPath: secretsPath)[.posixPermissions] as? Int) == 0o600)
        let (key, pepper) = try Self.secrets(secretsPath)
        #expect(key.count == 32 && pepper.count == 32)
        // The store's verifier key is the secret key's.
        let logKey = try fixture.veritrail(["log", "key"]).stdout
        let publicKey = try Curve25519.Signing.PrivateKey(rawRepresentation: key).publicKey.rawRepresentation
        #expect(logKey.contains(Data([0x01] + publicKey).base64EncodedString()))

        let copy = fixture.directory.appendingPathComponent("copy").path
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
        #expect(try run(URL(fileURLWithPath: "/usr/bin/env"), ["mdb_copy", fixture.store, copy]).exit == 0)
        let dump = try run(URL(fileURLWithPath: "/usr/bin/env"), ["mdb_dump", "-a", fixture.store])
        #expect(dump.exit == 0 && !dump.stdout.isEmpty)
        let export = try fixture.veritrail(["export"])
        var places: [(String, Data)] = [("mdb_dump -a", Data(dump.stdout.utf8)), ("export", Data(export.stdout.utf8)),
                                        ("mdb_copy", try Data(contentsOf: URL(fileURLWithPath: copy + "/data.mdb")))]
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.store) where name != "secrets" {
            places.append((name, try Data(contentsOf: URL(fileURLWithPath: fixture.store + "/" + name))))
        }
        for (place, bytes) in places {
            #expect(!Self.holds(bytes, key), "the signing key is in \(place)")
            #expect(!Self.holds(bytes, pepper), "the pepper is in \(place)")
        }
        // The check finds them where they are.
        #expect(Self.holds(try Data(contentsOf: URL(fileURLWithPath: secretsPath)), key))
    }

    @Test func aNewPasscodeIsTheHMACOfItsPBKDF2UnderThePepper() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try Self.initStore(fixture).exit == 0)
        let line = try #require(fixture.veritrail(["export"]).stdout.split(separator: "\n").first { $0.contains("passcode.set") })
        let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let credential = try #require((event["data"] as? [String: Any])?["credential"] as? [String: Any])
        #expect(credential["scheme"] as? String == "pbkdf2-sha256-hmac")
        let salt = try #require(Data(base64Encoded: credential["salt"] as? String ?? ""))
        let iterations = try #require(credential["iterations"] as? Int)
        let (_, pepper) = try Self.secrets(fixture.store + "/secrets")
        // events.md: hash = HMAC-SHA256(key: pepper, message: PBKDF2-SHA256(passcode, salt, iterations, 32)).
        let derived = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c",
            "import hashlib,sys,base64; print(base64.b64encode(hashlib.pbkdf2_hmac('sha256', b'2468', base64.b64decode(sys.argv[1]), int(sys.argv[2]), 32)).decode())",
            salt.base64EncodedString(), "\(iterations)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let expected = HMAC<SHA256>.authenticationCode(for: try #require(Data(base64Encoded: derived)), using: SymmetricKey(data: pepper))
        #expect(credential["hash"] as? String == Data(expected).base64EncodedString())
        // The old scheme still checks: the demo's accounts are pbkdf2-sha256.
        let demo = fixture.directory.appendingPathComponent("demo").path
        #expect(try fixture.veritrail(["import", Paths.file("Events/demo.ndjson").path], store: demo).exit == 0)
        let unlock = try run(fixture.binary, ["unlock", "--as", "ines", "--passcode-stdin", "--store", demo], input: "1234")
        #expect(unlock.exit == 0, "\(unlock.stderr)")
    }

    @Test func withoutItsSecretsAStoreReadsButNeitherWritesNorChecksAPasscode() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try Self.initStore(fixture).exit == 0)
        let moved = fixture.directory.appendingPathComponent("elsewhere").path
        try FileManager.default.moveItem(atPath: fixture.store + "/secrets", toPath: moved)
        let before = try fixture.veritrail(["log", "digest"]).stdout
        for command in [["unlock", "--as", "ada", "--passcode-stdin"], ["search", "x", "--as", "ada"]] {
            let refused = try run(fixture.binary, command + ["--store", fixture.store], input: "2468")
            #expect(refused.exit == 74)
            #expect(refused.stderr.contains("secrets file \(fixture.store)/secrets is missing"), "\(refused.stderr)")
        }
        #expect(try fixture.veritrail(["log", "digest"]).stdout == before)
        for read in [["log", "verify"], ["log", "key"], ["export"], ["log", "status"]] {
            #expect(try fixture.veritrail(read).exit == 0, "\(read)")
        }
        // Given where they are, by option or environment, it writes again.
        #expect(try run(fixture.binary, ["unlock", "--as", "ada", "--passcode-stdin", "--secrets", moved, "--store", fixture.store],
                        input: "2468").exit == 0)
        #expect(try run(fixture.binary, ["search", "x", "--as", "ada", "--store", fixture.store],
                        environment: ["VERITRAIL_SECRETS": moved]).exit == 0)
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)
        // Another store's secrets are refused.
        let other = fixture.directory.appendingPathComponent("other").path
        #expect(try Self.initStore(fixture, store: other).exit == 0)
        let wrong = try run(fixture.binary, ["search", "y", "--as", "ada", "--secrets", other + "/secrets", "--store", fixture.store])
        #expect(wrong.exit == 74 && wrong.stderr.contains("is not this store's"), "\(wrong.stderr)")
        // `log verify` compares them too: a store it calls ok signs and checks passcodes.
        let verified = try run(fixture.binary, ["log", "verify", "--secrets", other + "/secrets", "--store", fixture.store])
        #expect(verified.exit == 74 && verified.stderr.contains("do not agree"), "\(verified.stderr)")
    }

    @Test func initWithSecretsElsewhereLeavesNoneBesideTheData() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let elsewhere = fixture.directory.appendingPathComponent("vault").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        #expect(try Self.initStore(fixture, extra: ["--secrets", elsewhere + "/s"]).exit == 0)
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/s"))
        #expect(!FileManager.default.fileExists(atPath: fixture.store + "/secrets"))
        #expect(try run(fixture.binary, ["unlock", "--as", "ada", "--passcode-stdin", "--store", fixture.store], input: "2468").exit == 74)
        #expect(try run(fixture.binary, ["unlock", "--as", "ada", "--passcode-stdin", "--store", fixture.store],
                        environment: ["VERITRAIL_SECRETS": elsewhere + "/s"], input: "2468").exit == 0)
    }

    @Test func aStoreThatKeptItsKeyInLMDBMovesItOutAtItsNextWrite() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.importLines(Array(try StoreFixture.demoLines().prefix(30))).exit == 0)
        let (key, _) = try Self.secrets(fixture.store + "/secrets")
        let logKey = try fixture.veritrail(["log", "key"]).stdout
        // The store as version 1 left it: the private key in `meta`, no secrets file.
        do {
            let store = try Store(directory: fixture.store)
            try store.log.environment.write { txn in
                try txn.put(store.proofs.metaDatabase, StoreIdentity.Keys.legacySigningKey, key)
                _ = try txn.delete(store.proofs.metaDatabase, StoreIdentity.Keys.verifierKey)
                _ = try txn.delete(store.proofs.metaDatabase, StoreIdentity.Keys.pepperID)
                _ = try txn.delete(store.proofs.metaDatabase, StoreIdentity.Keys.signedSize)
            }
        }
        try FileManager.default.removeItem(atPath: fixture.store + "/secrets")
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)
        #expect(try fixture.veritrail(["log", "key"]).stdout == logKey)

        let line = try StoreFixture.demoLines()[30]
        #expect(try fixture.importLines([line]).exit == 0)
        #expect(try Self.secrets(fixture.store + "/secrets").key == key)
        let dump = try run(URL(fileURLWithPath: "/usr/bin/env"), ["mdb_dump", "-s", "meta", fixture.store]).stdout
        #expect(!dump.contains("signing-key") && !dump.contains("7369676e696e672d6b6579"), "\(dump)")
        #expect(try fixture.veritrail(["log", "key"]).stdout == logKey)
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)
    }

    @Test func anImportIntoAnotherStoreSaysWhoCanNotUnlockThere() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try Self.initStore(fixture).exit == 0)
        let export = try fixture.write(try fixture.veritrail(["export"]).stdout, "export.ndjson")
        let elsewhere = fixture.directory.appendingPathComponent("elsewhere").path
        let imported = try fixture.veritrail(["import", export], store: elsewhere)
        #expect(imported.exit == 0)
        #expect(imported.stderr.contains("1 account can not unlock in this store") && imported.stderr.contains(": ada;"), "\(imported.stderr)")
        #expect(try fixture.veritrail(["log", "verify"], store: elsewhere).exit == 0)
        let events = try fixture.veritrail(["log", "status", "--json"], store: elsewhere).stdout
        let unlock = try run(fixture.binary, ["unlock", "--as", "ada", "--passcode-stdin", "--store", elsewhere], input: "2468")
        #expect(unlock.exit == 77 && unlock.stderr.contains("set in another store"), "\(unlock.stderr)")
        // Not checked, so no attempt recorded.
        #expect(try fixture.veritrail(["log", "status", "--json"], store: elsewhere).stdout == events)

        // A restore with the source's secrets unlocks.
        let restored = fixture.directory.appendingPathComponent("restored").path
        let withSecrets = try fixture.veritrail(["import", export, "--secrets", fixture.store + "/secrets"], store: restored)
        #expect(withSecrets.exit == 0 && !withSecrets.stderr.contains("can not unlock"), "\(withSecrets.stderr)")
        #expect(try run(fixture.binary, ["unlock", "--as", "ada", "--passcode-stdin", "--secrets", fixture.store + "/secrets",
                                         "--store", restored], input: "2468").exit == 0)
    }
}
