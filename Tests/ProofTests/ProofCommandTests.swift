import Foundation
import Testing

/// The proof commands through the real binary: exact answers, exit codes, and stores that lost or rewrote
/// committed events.
@Suite("Proof commands", .serialized)
struct ProofCommandTests {
    @Test func checkpointsAndProofsHaveTheSpecsForms() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = try StoreFixture.demoLines()
        let imported = try run(fixture.binary, ["import", "--origin", "example.org/audit", "--store", fixture.store, "-"],
                               environment: [:], in: nil, input: Array(lines.prefix(10)).joined(separator: "\n"))
        #expect(imported.exit == 0, "\(imported.stderr)")
        let key = try fixture.veritrail(["log", "key"])
        #expect(key.exit == 0)
        #expect(key.stdout.hasPrefix("example.org/audit+"))
        let keyJSON = try fixture.veritrail(["log", "key", "--json"]).stdout
        #expect(keyJSON == "{\"key\":\"\(key.stdout.dropLast())\",\"origin\":\"example.org/audit\"}\n")

        let checkpoint = try fixture.veritrail(["log", "checkpoint"]).stdout
        let parts = checkpoint.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(parts.count == 6 && parts[0] == "example.org/audit" && parts[1] == "10" && parts[3] == "" && parts[5] == "")
        #expect(parts[4].hasPrefix("\u{2014} example.org/audit "))
        // The kept checkpoint is the signed checkpoint of the head (Ed25519 signs deterministically).
        #expect(try String(contentsOfFile: fixture.store + "/checkpoint", encoding: .utf8) == checkpoint)

        let prove = try fixture.veritrail(["log", "prove", "3"]).stdout
        #expect(prove.hasPrefix("c2sp.org/tlog-proof@v1\nindex 2\n"))
        #expect(prove.hasSuffix("\n\n" + checkpoint))
        let proveJSON = try #require(try JSONSerialization.jsonObject(with: Data(try fixture.veritrail(["log", "prove", "3", "--size", "4", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(Set(proveJSON.keys) == ["seq", "index", "size", "leafHash", "path", "root", "checkpoint"])
        #expect(proveJSON["seq"] as? Int == 3 && proveJSON["index"] as? Int == 2 && proveJSON["size"] as? Int == 4)
        #expect((proveJSON["path"] as? [String])?.count == 2)

        let consistency = try fixture.veritrail(["log", "consistency", "0"]).stdout
        #expect(consistency == "old 0\n\n" + checkpoint)
        let same = try fixture.veritrail(["log", "consistency", "10"]).stdout
        #expect(same == "old 10\n\n" + checkpoint)
        let consistencyJSON = try #require(try JSONSerialization.jsonObject(with: Data(try fixture.veritrail(["log", "consistency", "3", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(Set(consistencyJSON.keys) == ["old", "size", "oldRoot", "root", "path", "checkpoint"])
        #expect(consistencyJSON["oldRoot"] as? String == proveJSONRoot(fixture, size: 3))

        // Sizes and seqs beyond the head are refused (65); a seq of the wrong form is a usage error (64).
        let beyond = try fixture.veritrail(["log", "checkpoint", "--size", "11"])
        #expect(beyond.exit == 65 && beyond.stderr == "veritrail: --size 11 is beyond the log's head (10 events)\n" && beyond.stdout.isEmpty)
        let seqBeyond = try fixture.veritrail(["log", "prove", "5", "--size", "4"])
        #expect(seqBeyond.exit == 65 && seqBeyond.stderr == "veritrail: SEQ 5 is beyond the tree's size (4)\n")
        #expect(try fixture.veritrail(["log", "prove", "0"]).exit == 64)
        #expect(try fixture.veritrail(["log", "prove", "x"]).exit == 64)
        #expect(try fixture.veritrail(["log", "consistency", "11"]).exit == 65)
        #expect(try fixture.veritrail(["log", "checkpoint", "--size", "0"]).stdout.hasPrefix("example.org/audit\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n\n"))
        // A store that does not exist.
        #expect(try fixture.veritrail(["log", "key"], store: fixture.directory.appendingPathComponent("none").path).exit == 74)
        // The origin never changes: the same is accepted, another refused.
        #expect(try run(fixture.binary, ["import", "--origin", "example.org/audit", "--store", fixture.store, "-"], input: String(lines[10])).exit == 0)
        let other = try run(fixture.binary, ["import", "--origin", "example.org/other", "--store", fixture.store, "-"], input: String(lines[11]))
        #expect(other.exit == 65 && other.stderr == "veritrail: the store's origin is example.org/audit, not example.org/other: an origin never changes\n")
        #expect(try run(fixture.binary, ["import", "--origin", "bad origin", "--store", fixture.store, "-"], input: String(lines[11])).exit == 64)
    }

    private func proveJSONRoot(_ fixture: StoreFixture, size: Int) -> String? {
        let text = (try? fixture.veritrail(["log", "checkpoint", "--size", "\(size)", "--json"]).stdout) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["root"] as? String
    }

    /// Copy the store, append, put the old data file back: `log verify` fails, writing is refused.
    @Test func aRolledBackStoreFailsVerification() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = try StoreFixture.demoLines()
        #expect(try fixture.importLines(Array(lines.prefix(100))).exit == 0)
        let saved = fixture.directory.appendingPathComponent("saved.mdb").path
        try FileManager.default.copyItem(atPath: fixture.store + "/data.mdb", toPath: saved)
        #expect(try fixture.importLines(Array(lines[100..<120])).exit == 0)
        #expect(try fixture.veritrail(["log", "verify", "--json"]).stdout.hasPrefix("{\"events\":120,"))
        try FileManager.default.removeItem(atPath: fixture.store + "/data.mdb")
        try FileManager.default.copyItem(atPath: saved, toPath: fixture.store + "/data.mdb")

        let verify = try fixture.veritrail(["log", "verify", "--json"])
        #expect(verify.exit == 65)
        #expect(verify.stdout == "{\"firstBadSeq\":101,\"ok\":false,\"reason\":\"the signed checkpoint covers 120 events but the log holds 100: committed events were lost\"}\n")
        let append = try fixture.importLines(Array(lines[100..<101]))
        #expect(append.exit == 74)
        #expect(append.stderr == "veritrail: the store at \(fixture.store) disagrees with its signed checkpoint (it covers 120 events, the log holds 100: committed events were lost); nothing was written: put its checkpoint back, or sign the head over the loss with `veritrail log reseal --accept-loss`\n")
        // A proof command signs nothing and says why: a refused input (65), as every bad checkpoint is.
        let prove = try fixture.veritrail(["log", "prove", "1"])
        #expect(prove.exit == 65 && prove.stdout.isEmpty && prove.stderr.contains("committed events were lost"))
        #expect(try fixture.veritrail(["log", "digest"]).stdout.hasPrefix("100:"))
    }

    /// Two copies of one store go different ways; one's data file under the other's checkpoint is a rewrite.
    @Test func aRewrittenStoreFailsVerification() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = try StoreFixture.demoLines()
        #expect(try fixture.importLines(Array(lines.prefix(50))).exit == 0)
        let twin = fixture.directory.appendingPathComponent("twin").path
        try FileManager.default.copyItem(atPath: fixture.store, toPath: twin)
        #expect(try fixture.importLines(Array(lines[50..<60])).exit == 0)
        #expect(try fixture.importLines(Array(lines[60..<70]), store: twin).exit == 0)
        try FileManager.default.removeItem(atPath: fixture.store + "/data.mdb")
        try FileManager.default.copyItem(atPath: twin + "/data.mdb", toPath: fixture.store + "/data.mdb")

        let verify = try fixture.veritrail(["log", "verify", "--json"])
        #expect(verify.exit == 65)
        #expect(verify.stdout == "{\"firstBadSeq\":1,\"ok\":false,\"reason\":\"the first 60 events do not have the signed checkpoint's root: the log was rewritten\"}\n")
        #expect(try fixture.importLines(Array(lines[70..<71])).exit == 74)
        // The twin itself, with its own checkpoint, is fine.
        #expect(try fixture.veritrail(["log", "verify", "--json"], store: twin).exit == 0)
    }

    @Test func verifyFileChecksAnExportWithoutImportingIt() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = try StoreFixture.demoLines()
        #expect(try fixture.importLines(Array(lines.prefix(30))).exit == 0)
        let export = try fixture.write(try fixture.veritrail(["export"]).stdout, "export.ndjson")
        let key = try fixture.veritrail(["log", "key"]).stdout.trimmingCharacters(in: .newlines)
        let keyFile = try fixture.write(key + "\n", "key")
        let head = try fixture.veritrail(["log", "digest"]).stdout.trimmingCharacters(in: .newlines)
        let headHash = String(head.split(separator: ":")[1])
        let checkpoint20 = try fixture.write(try fixture.veritrail(["log", "checkpoint", "--size", "20"]).stdout, "cp20")

        let plain = try run(fixture.binary, ["verify", export, "--json"])
        #expect(plain.exit == 0 && plain.stdout == "{\"checked\":{\"chain\":30,\"checkpoint\":null,\"inclusion\":0,\"proofs\":false,\"signature\":false},"
            + "\"events\":30,\"head\":{\"hash\":\"\(headHash)\",\"seq\":30},\"ok\":true}\n")
        let signed = try run(fixture.binary, ["verify", export, "--checkpoint", checkpoint20, "--key", keyFile])
        #expect(signed.exit == 0 && signed.stdout.hasPrefix("ok: 30 events verified; head \(head)\n  chain: every hash from seq 1 to 30\n"))
        #expect(signed.stdout.contains("checkpoint: 20 events of ") && signed.stdout.contains("signature verified under the key\n"))
        #expect(signed.stdout.hasSuffix("  inclusion: the first 20 events have the checkpoint's root\n"))

        // Fewer events than the checkpoint covers.
        let short = try fixture.write(try String(contentsOfFile: export, encoding: .utf8)
            .split(separator: "\n").prefix(15).joined(separator: "\n") + "\n", "short.ndjson")
        let tooShort = try run(fixture.binary, ["verify", short, "--checkpoint", checkpoint20, "--key", key, "--json"])
        #expect(tooShort.exit == 65 && tooShort.stdout == "{\"firstBadSeq\":16,\"ok\":false,\"reason\":\"the export holds 15 events, the checkpoint covers 20\"}\n")
        // A doctored checkpoint, another key.
        let doctored = try fixture.write(try String(contentsOfFile: checkpoint20, encoding: .utf8).replacingOccurrences(of: "\n20\n", with: "\n19\n"), "cp-doctored")
        let refused = try run(fixture.binary, ["verify", export, "--checkpoint", doctored, "--key", key, "--json"])
        #expect(refused.exit == 65 && refused.stdout.hasPrefix("{\"firstBadSeq\":1,\"ok\":false,\"reason\":\"the checkpoint does not verify under the key: "))
        // A changed line.
        let changed = try fixture.write(try String(contentsOfFile: export, encoding: .utf8).replacingOccurrences(of: "\"seq\":7,", with: "\"seq\":8,"), "changed.ndjson")
        let broken = try run(fixture.binary, ["verify", changed, "--json"])
        #expect(broken.exit == 65 && broken.stdout == "{\"firstBadSeq\":7,\"ok\":false,\"reason\":\"line 8: seq 8 where 9 or later was expected (the file skips seq 7)\"}\n")
        #expect(try run(fixture.binary, ["verify", export, "--checkpoint", checkpoint20]).exit == 64)
    }
}

/// Writers in two processes at once: every commit is checkpointed, and the kept checkpoint ends at the head.
@Suite("Concurrent writers")
struct ConcurrentWriterTests {
    @Test func theKeptCheckpointEndsAtTheHeadAfterConcurrentAppends() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = try StoreFixture.demoLines()
        #expect(try fixture.importLines(Array(lines.prefix(59))).exit == 0)
        // Scans by an inspector of the first 59 events, all at one time after them, so any order is valid.
        let files = try (0..<12).map { i in
            try fixture.write("""
                {"id":"concurrent-\(i)","type":"scan.recorded","at":"2026-11-01T09:00:00Z","actor":"tmueller","data":{"scanId":"concurrent-\(i)","code":"https://verify.veritrail.example/c/CONC-\(i)","productName":"Probe","brand":"Veritrail","category":"Electronics","result":"authentic","mode":"single","source":"camera","flash":false}}

                """, "concurrent-\(i).ndjson")
        }
        let group = DispatchGroup()
        let exits = ExitCodes()
        for (i, file) in files.enumerated() {
            DispatchQueue.global().async(group: group) {
                exits.set(i, (try? fixture.veritrail(["import", file]))?.exit ?? -1)
            }
        }
        group.wait()
        #expect(exits.all == Array(repeating: 0, count: 12))
        let kept = try String(contentsOfFile: fixture.store + "/checkpoint", encoding: .utf8)
        #expect(kept == (try fixture.veritrail(["log", "checkpoint"]).stdout))
        #expect(kept.split(separator: "\n")[1] == "71")
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)
    }

    private final class ExitCodes: @unchecked Sendable {
        private var codes = [Int32](repeating: -2, count: 12)
        private let lock = NSLock()
        func set(_ i: Int, _ code: Int32) { lock.lock(); codes[i] = code; lock.unlock() }
        var all: [Int32] { lock.lock(); defer { lock.unlock() }; return codes }
    }
}
