import Foundation
import Testing

/// Issue #23.7, cli.md §8: `diff --from SEQ:HASH` checks the digest an auditor wrote down, then diffs from SEQ.
@Suite struct AuditorDiffTests {
    let store = ["--store", Stores.demo.path]

    @Test func aDigestThatMatchesDiffsFromItsSeq() throws {
        let digest = try CLI.run(["log", "digest", "--as-of", "120"] + store).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let byDigest = try CLI.run(["diff", "--from", digest, "--json"] + store)
        let bySeq = try CLI.run(["diff", "--from", "120", "--json"] + store)
        #expect(byDigest.exit == 0 && byDigest.stdout == bySeq.stdout, "\(byDigest.transcript)")
    }

    @Test func aDigestThatDoesNotMatchIsRefused() throws {
        let zeros = String(repeating: "0", count: 64)
        let wrong = try CLI.run(["diff", "--from", "120:\(zeros)"] + store)
        #expect(wrong.exit == 65 && wrong.stdout.isEmpty && wrong.stderr.contains("differs from the log's hash at seq 120"), "\(wrong.transcript)")
        let past = try CLI.run(["diff", "--from", "9999:\(zeros)"] + store)
        #expect(past.exit == 65 && past.stderr.contains("only 849 events"), "\(past.transcript)")
        let malformed = try CLI.run(["diff", "--from", "120:abc"] + store)
        #expect(malformed.exit == 64, "\(malformed.transcript)")
    }
}
