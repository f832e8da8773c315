import EventLog
import Engine
import Foundation
import LMDB
@testable import Proofs
import Testing

/// A store made before proofs existed gets its identity and tree at its first write; `rebuild` recomputes
/// the tree; a damaged tree record is found by `log verify`.
@Suite("Stores without a tree", .serialized)
struct UpgradeTests {
    /// Empties the store's `tree` and `meta` databases and removes its checkpoint: the store as a version
    /// before proofs left it (its databases are made, empty, when it is opened).
    static func strip(_ store: String, meta: Bool = true, checkpoint: Bool = true) throws {
        let opened = try Store(directory: store)
        try opened.log.environment.write { txn in
            try txn.drop(opened.proofs.treeDatabase)
            if meta { try txn.drop(opened.proofs.metaDatabase) }
        }
        if checkpoint { try FileManager.default.removeItem(atPath: store + "/checkpoint") }
    }

    @Test func aStoreMadeBeforeProofsGetsThemAtItsFirstWrite() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = try StoreFixture.demoLines()
        #expect(try fixture.importLines(Array(lines.prefix(40))).exit == 0)
        let root = try fixture.veritrail(["log", "checkpoint", "--json"]).stdout.split(separator: "\"root\":\"")[1].prefix(64)
        try Self.strip(fixture.store)

        // Reading it checks the chain only; asking for a proof gives it an identity and its tree.
        #expect(try fixture.veritrail(["log", "verify", "--json"]).exit == 0)
        #expect(!FileManager.default.fileExists(atPath: fixture.store + "/checkpoint"))
        let checkpoint = try fixture.veritrail(["log", "checkpoint", "--json"])
        #expect(checkpoint.exit == 0)
        #expect(checkpoint.stdout.contains("\"root\":\"\(root)\""))
        #expect(checkpoint.stdout.contains("\"origin\":\"veritrail.invalid/"))
        #expect(FileManager.default.fileExists(atPath: fixture.store + "/checkpoint"))
        #expect(try fixture.veritrail(["log", "verify", "--json"]).stdout == "{\"events\":40,\"head\":{\"hash\":\"\(try headHash(fixture))\",\"seq\":40},\"ok\":true}\n")

        // An import into a stripped store takes its --origin.
        try Self.strip(fixture.store)
        let imported = try run(fixture.binary, ["import", "--origin", "example.org/upgraded", "--store", fixture.store, "-"], input: String(lines[40]))
        #expect(imported.exit == 0, "\(imported.stderr)")
        #expect(try fixture.veritrail(["log", "key"]).stdout.hasPrefix("example.org/upgraded+"))
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)
    }

    @Test func rebuildRecomputesTheTreeAndVerifyFindsADamagedOne() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.importLines(Array(try StoreFixture.demoLines().prefix(70))).exit == 0)
        try Self.strip(fixture.store, meta: false, checkpoint: false)
        let missing = try fixture.veritrail(["log", "verify", "--json"])
        #expect(missing.exit == 65 && missing.stdout == "{\"firstBadSeq\":1,\"ok\":false,\"reason\":\"the stored Merkle tree holds 0 leaves, the log 70 events\"}\n")
        #expect(try fixture.veritrail(["rebuild"]).exit == 0)
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)

        // One node hash changed in the record of leaf 43 (seq 44), which completes two nodes.
        let store = try Store(directory: fixture.store)
        try store.log.environment.write { txn in
            let key = UInt64(43).bigEndianBytes
            var value = Array(try #require(try txn.get(store.proofs.treeDatabase, key)))
            value[40] ^= 0x01
            try txn.put(store.proofs.treeDatabase, key, value)
        }
        let damaged = try fixture.veritrail(["log", "verify", "--json"])
        #expect(damaged.exit == 65 && damaged.stdout == "{\"firstBadSeq\":44,\"ok\":false,\"reason\":\"the stored Merkle tree disagrees with event 44\"}\n")
        // rebuild finds it and writes the tree again.
        #expect(try fixture.veritrail(["rebuild"]).exit == 0)
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)
    }

    private func headHash(_ fixture: StoreFixture) throws -> String {
        String(try fixture.veritrail(["log", "digest"]).stdout.split(separator: ":")[1].prefix(64))
    }
}
