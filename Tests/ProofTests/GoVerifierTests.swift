import Foundation
import Testing

/// Veritrail's checkpoints and proofs checked by the Go team's `sumdb/note` and `sumdb/tlog`
/// (scripts/proofverify), on a real store made by the real binary: accepted as made, refused when doctored.
@Suite("An independent verifier (Go's sumdb packages)", .serialized)
struct GoVerifierTests {
    /// Sizes around the powers of two, and the demo log's whole length.
    static let sizes: [UInt64] = [1, 2, 3, 4, 5, 7, 8, 9, 100, 255, 256, 257, 511, 512, 513, 848, 849]

    @Test func proofsOfTheDemoStoreAreAcceptedAndDoctoredOnesRefused() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.importLines(try StoreFixture.demoLines()).exit == 0)
        let key = try fixture.veritrail(["log", "key"]).stdout.trimmingCharacters(in: .newlines)
        let other = try StoreFixture()
        defer { other.remove() }
        #expect(try other.importLines(Array(try StoreFixture.demoLines().prefix(3))).exit == 0)
        let otherKey = try other.veritrail(["log", "key"]).stdout.trimmingCharacters(in: .newlines)

        let export = try fixture.write(try fixture.veritrail(["export"]).stdout, "export.ndjson")
        let leaves = try canonicalForms(ofExport: export)
        #expect(leaves.count == 849)
        func leaf(_ seq: UInt64) throws -> String { try fixture.write(leaves[Int(seq - 1)], "leaf-\(seq)") }

        // Checkpoints.
        let checkpoint = try fixture.write(try fixture.veritrail(["log", "checkpoint"]).stdout, "cp")
        #expect(try GoVerifier.check("checkpoint", key, [checkpoint]).stdout == "ok\n")
        #expect(try GoVerifier.check("checkpoint", otherKey, [checkpoint]).exit == 1)

        for size in Self.sizes {
            for seq in Set([1, size / 2 + 1, size]).sorted() {
                let proof = try fixture.veritrail(["log", "prove", "\(seq)", "--size", "\(size)"]).stdout
                let file = try fixture.write(proof, "prove")
                let accepted = try GoVerifier.check("inclusion", key, [file, try leaf(seq)])
                #expect(accepted.stdout == "ok\n", "seq \(seq) in \(size): \(accepted.stdout)")
                // A wrong leaf, a wrong key, a changed hash line, a changed size.
                let wrong = seq < size ? seq + 1 : (seq > 1 ? seq - 1 : nil)
                if let wrong {
                    #expect(try GoVerifier.check("inclusion", key, [file, try leaf(wrong)]).exit == 1, "leaf \(wrong) as \(seq) in \(size)")
                }
                #expect(try GoVerifier.check("inclusion", otherKey, [file, try leaf(seq)]).exit == 1)
                if size > 1 {
                    let changed = try fixture.write(Self.changeFirstHashLine(proof, after: 2), "prove-changed")
                    #expect(try GoVerifier.check("inclusion", key, [changed, try leaf(seq)]).exit == 1, "changed hash, seq \(seq) in \(size)")
                }
                let resized = try fixture.write(Self.changeSize(proof), "prove-resized")
                #expect(try GoVerifier.check("inclusion", key, [resized, try leaf(seq)]).exit == 1, "changed size, seq \(seq) in \(size)")
            }
            for old in Set([1, size / 3, size - 1]).sorted() where old >= 1 && old < size {
                let oldCheckpoint = try fixture.write(try fixture.veritrail(["log", "checkpoint", "--size", "\(old)"]).stdout, "old")
                let body = try fixture.veritrail(["log", "consistency", "\(old)", "--size", "\(size)"]).stdout
                let file = try fixture.write(body, "consistency")
                let accepted = try GoVerifier.check("consistency", key, [oldCheckpoint, file])
                #expect(accepted.stdout == "ok\n", "\(old) → \(size): \(accepted.stdout)")
                #expect(try GoVerifier.check("consistency", otherKey, [oldCheckpoint, file]).exit == 1)
                if !body.hasPrefix("old \(old)\n\n") {
                    let changed = try fixture.write(Self.changeFirstHashLine(body, after: 1), "consistency-changed")
                    #expect(try GoVerifier.check("consistency", key, [oldCheckpoint, changed]).exit == 1, "changed hash \(old) → \(size)")
                }
                let resized = try fixture.write(Self.changeSize(body), "consistency-resized")
                #expect(try GoVerifier.check("consistency", key, [oldCheckpoint, resized]).exit == 1, "changed size \(old) → \(size)")
                // Another old tree than the one the proof is for.
                let before = try fixture.write(try fixture.veritrail(["log", "checkpoint", "--size", "\(old + 1)"]).stdout, "old-other")
                if old + 1 < size {
                    #expect(try GoVerifier.check("consistency", key, [before, file]).exit == 1, "old \(old + 1) for \(old) → \(size)")
                }
            }
        }
    }

    /// Flips one base64 digit of the first hash line after the `header` lines.
    static func changeFirstHashLine(_ text: String, after header: Int) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var line = Array(lines[header])
        line[0] = line[0] == "A" ? "B" : "A"
        lines[header] = String(line)
        return lines.joined(separator: "\n")
    }

    /// Adds one to the checkpoint's size line (the line after its origin, after the blank line).
    static func changeSize(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let blank = lines.firstIndex(of: ""), let size = UInt64(lines[blank + 2]) else { return text }
        lines[blank + 2] = "\(size + 1)"
        return lines.joined(separator: "\n")
    }
}
