import Foundation
import Testing

/// `export … --proofs` and `verify` of a filtered export (cli.md §8): every event of the file is proven in the
/// signed checkpoint of the head, by veritrail's own `verify` and by Go's `sumdb/tlog` and `sumdb/note`
/// (scripts/proofverify), without the events the filter left out.
@Suite("Filtered exports with proofs", .serialized)
struct FilteredExportTests {
    /// The demo store, its verifier key, and `export --type account.registered --proofs` split into its
    /// events, its checkpoint line's note and its proofs (seq and path).
    struct Exported {
        let fixture: StoreFixture
        let key: String
        let file: String
        let text: String
        let events: [String]
        let note: String
        let proofs: [(seq: Int, path: [String])]
    }

    static func exported(_ arguments: [String] = ["--type", "account.registered"]) throws -> Exported {
        let fixture = try StoreFixture()
        #expect(try fixture.importLines(try StoreFixture.demoLines()).exit == 0)
        let key = try fixture.veritrail(["log", "key"]).stdout.trimmingCharacters(in: .newlines)
        let out = try fixture.veritrail(["export", "--proofs"] + arguments)
        #expect(out.exit == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        let at = try #require(lines.firstIndex { $0.hasPrefix("{\"checkpoint\":") })
        let note = try #require(try JSONSerialization.jsonObject(with: Data(lines[at].utf8)) as? [String: String])["checkpoint"]
        let proofs = try lines[(at + 1)...].map { line -> (Int, [String]) in
            let proof = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["proof"] as? [String: Any])
            return (try #require(proof["seq"] as? Int), try #require(proof["path"] as? [String]))
        }
        return Exported(fixture: fixture, key: key, file: try fixture.write(out.stdout, "proofs.ndjson"), text: out.stdout,
                        events: Array(lines[..<at]), note: try #require(note), proofs: proofs)
    }

    @Test func everyEventOfAFilteredExportIsProvenToGosVerifier() throws {
        let e = try Self.exported()
        defer { e.fixture.remove() }
        #expect(e.events.count == 18 && e.proofs.count == 18)
        #expect(e.note.hasPrefix(e.key.split(separator: "+")[0] + "\n849\n"))
        let leaves = try canonicalForms(ofExport: try e.fixture.write(e.events.joined(separator: "\n") + "\n", "events.ndjson"))
        for (index, proof) in e.proofs.enumerated() {
            #expect(e.events[index].contains("\"seq\":\(proof.seq),"))
            let body = "c2sp.org/tlog-proof@v1\nindex \(proof.seq - 1)\n"
                + proof.path.map { Data(Self.bytes($0)).base64EncodedString() + "\n" }.joined() + "\n" + e.note
            let file = try e.fixture.write(body, "proof-\(proof.seq)")
            let leaf = try e.fixture.write(leaves[index], "leaf-\(proof.seq)")
            #expect(try GoVerifier.check("inclusion", e.key, [file, leaf]).stdout == "ok\n", "seq \(proof.seq)")
            let other = try e.fixture.write(leaves[(index + 1) % leaves.count], "leaf-other")
            #expect(try GoVerifier.check("inclusion", e.key, [file, other]).exit == 1, "another leaf as seq \(proof.seq)")
        }
    }

    @Test func verifyChecksEachEventAgainstTheCheckpointAndSaysWhatItChecked() throws {
        let e = try Self.exported()
        defer { e.fixture.remove() }
        let binary = e.fixture.binary
        let json = try run(binary, ["verify", e.file, "--key", e.key, "--json"])
        #expect(json.exit == 0, "\(json.stdout)\(json.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let checked = try #require(answer["checked"] as? [String: Any])
        #expect(answer["ok"] as? Bool == true && answer["events"] as? Int == 18)
        #expect(checked["chain"] as? Int == 1 && checked["inclusion"] as? Int == 18)
        #expect(checked["signature"] as? Bool == true && checked["proofs"] as? Bool == true)
        #expect((checked["checkpoint"] as? [String: Any])?["size"] as? Int == 849)

        let human = try run(binary, ["verify", e.file, "--key", e.key])
        #expect(human.exit == 0 && human.stdout.hasPrefix("ok: 18 events of a partial export verified; last 209:"))
        #expect(human.stdout.contains("signature verified under the key"))
        #expect(human.stdout.contains("inclusion: every one of the 18 events proven in the checkpoint's tree"))
        // Proof lines written by another tool (spaces, keys in another order) are read as JSON and verify too.
        let respaced = e.text.split(separator: "\n").map { line in
            line.hasPrefix("{\"proof\":") ? line.replacingOccurrences(of: "{\"proof\":{\"seq\":", with: "{ \"proof\": {\"seq\": ") : String(line)
        }.joined(separator: "\n") + "\n"
        let spaced = try run(binary, ["verify", try e.fixture.write(respaced, "respaced"), "--key", e.key])
        #expect(respaced != e.text && spaced.exit == 0, "\(spaced.stdout)")
        // Without a key the proofs are checked and the answer says the signature was not.
        let unsigned = try run(binary, ["verify", e.file])
        #expect(unsigned.exit == 0 && unsigned.stdout.contains("signature NOT checked (give --key)"))

        // A changed event, a changed proof, a missing proof, another key: refused (65), naming the event.
        let changed = try e.fixture.write(e.text.replacingOccurrences(of: "\"role\":\"inspector\"", with: "\"role\":\"admin\""), "changed")
        let refused = try run(binary, ["verify", changed, "--key", e.key, "--json"])
        #expect(refused.exit == 65 && refused.stdout.contains("is not in the checkpoint's tree"), "\(refused.stdout)")
        let lines = e.text.split(separator: "\n")
        var flipped = lines.map(String.init)
        flipped[flipped.count - 1] = Self.flipFirstHashDigit(flipped[flipped.count - 1])
        #expect(try run(binary, ["verify", try e.fixture.write(flipped.joined(separator: "\n") + "\n", "flipped"), "--key", e.key]).exit == 65)
        let missing = try run(binary, ["verify", try e.fixture.write(lines.dropLast().joined(separator: "\n") + "\n", "missing"), "--key", e.key])
        #expect(missing.exit == 65 && missing.stdout.contains("has no inclusion proof"), "\(missing.stdout)")
        let other = try StoreFixture()
        defer { other.remove() }
        #expect(try other.importLines(Array(try StoreFixture.demoLines().prefix(3))).exit == 0)
        let otherKey = try other.veritrail(["log", "key"]).stdout.trimmingCharacters(in: .newlines)
        #expect(try run(binary, ["verify", e.file, "--key", otherKey]).exit == 65)
    }

    @Test func aFilteredExportWithoutProofsIsRefusedAsPartialNotBroken() throws {
        let e = try Self.exported()
        defer { e.fixture.remove() }
        let plain = try e.fixture.write(try e.fixture.veritrail(["export", "--type", "account.registered"]).stdout, "plain")
        let human = try run(e.fixture.binary, ["verify", plain])
        #expect(human.exit == 65)
        #expect(human.stdout.hasPrefix("refused: the file is a partial export") && !human.stdout.contains("broken"), "\(human.stdout)")
        #expect(human.stdout.contains("--proofs"))
        let json = try run(e.fixture.binary, ["verify", plain, "--json"])
        #expect(json.exit == 65 && json.stdout.hasPrefix("{\"firstBadSeq\":2,\"ok\":false,\"partial\":true,\"reason\":\"the file is a partial export"))
        // With a key, still partial (the key has nothing to check in it).
        let keyed = try run(e.fixture.binary, ["verify", plain, "--key", e.key])
        #expect(keyed.exit == 65 && keyed.stdout.hasPrefix("refused: the file is a partial export"), "\(keyed.stdout)\(keyed.stderr)")
        // From a later seq on, without a gap: partial too.
        let tail = try e.fixture.write(try e.fixture.veritrail(["export", "--from", "800"]).stdout, "tail")
        let late = try run(e.fixture.binary, ["verify", tail])
        #expect(late.exit == 65 && late.stdout.hasPrefix("refused: the file is a partial export"))
    }

    @Test func aWholeExportWithProofsAndAnExportCutAtSeqVerify() throws {
        let e = try Self.exported(["--to", "40"])
        defer { e.fixture.remove() }
        let json = try run(e.fixture.binary, ["verify", e.file, "--key", e.key, "--json"])
        #expect(json.exit == 0, "\(json.stdout)")
        #expect(json.stdout.contains("\"checked\":{\"chain\":40,") && json.stdout.contains("\"inclusion\":40,"))
        let whole = try e.fixture.write(try e.fixture.veritrail(["export", "--proofs"]).stdout, "whole")
        let all = try run(e.fixture.binary, ["verify", whole, "--key", e.key])
        #expect(all.exit == 0 && all.stdout.hasPrefix("ok: 849 events verified; head 849:"), "\(all.stdout)")
        #expect(all.stdout.contains("chain: every hash from seq 1 to 849\n"))
        // A filter that keeps nothing: the checkpoint alone, verified.
        let none = try e.fixture.write(try e.fixture.veritrail(["export", "--type", "account.deleted", "--actor", "ines", "--proofs"]).stdout, "none")
        let empty = try run(e.fixture.binary, ["verify", none, "--key", e.key])
        #expect(empty.exit == 0 && empty.stdout.hasPrefix("ok: the file holds no events (a filter kept none)\n"), "\(empty.stdout)")
        #expect(empty.stdout.contains("signature verified under the key"))
        // --key alone on a file without a checkpoint: nothing to check it against (64).
        let plain = try e.fixture.write(try e.fixture.veritrail(["export"]).stdout, "plain")
        let alone = try run(e.fixture.binary, ["verify", plain, "--key", e.key])
        #expect(alone.exit == 64 && alone.stderr.contains("give --checkpoint"))
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            out.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    /// The line with the first hex digit of its first hash changed.
    static func flipFirstHashDigit(_ line: String) -> String {
        guard let range = line.range(of: "\"path\":[\"") else { return line }
        var text = Array(line)
        let at = line.distance(from: line.startIndex, to: range.upperBound)
        text[at] = text[at] == "0" ? "1" : "0"
        return String(text)
    }
}
