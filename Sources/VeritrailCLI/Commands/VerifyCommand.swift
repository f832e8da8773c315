import ArgumentParser
import Foundation
import VeritrailKit

/// `verify FILE [--checkpoint CP --key VKEY]` (proofs.md §4): checks an export without importing it.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check an export (the out form, with seq and hash) without importing it; with a checkpoint and key, its Merkle root too.",
        discussion: """
        Every line must parse, seq run 1, 2, 3, … and every hash be the chain's. With --checkpoint and --key, \
        the checkpoint's signature must verify under the key and the export's first N events have its root. \
        Not ok exits 65.
        Example:
          veritrail verify export.ndjson --checkpoint checkpoint.txt --key verifier.key
        """
    )

    @Argument(help: ArgumentHelp("The exported NDJSON file, or - for stdin.", valueName: "file"), completion: .file()) var file: String
    @Option(help: ArgumentHelp("A signed checkpoint (the output of `log checkpoint`) in a file.", valueName: "file"), completion: .file())
    var checkpoint: String?
    @Option(help: ArgumentHelp("The verifier key (`log key`), or a file holding it.", valueName: "vkey")) var key: String?
    @Flag(name: .long, help: "Machine output: exactly the JSON of the spec on stdout.") var json = false

    func validate() throws {
        guard (checkpoint == nil) == (key == nil) else { throw ValidationError("--checkpoint and --key go together") }
    }

    func run() throws {
        try runReporting {
            let signed = try checkpoint.map { path in (note: try readSmallFile(path), key: try verifierKey()) }
            var check = signed.map { ExportCheck(signedCheckpoint: $0.note, key: $0.key) } ?? ExportCheck()
            try check.check(path: file)
            let outcome = check.outcome
            switch outcome {
            case let .ok(events, head):
                if json {
                    Output.json(J.object([("ok", J.bool(true)), ("events", J.int(events)),
                                          ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(Hex.encode(head.hash)))]))]))
                } else {
                    Output.print("ok: \(events) event\(events == 1 ? "" : "s") verified; head \(head.digest)")
                }
            case let .broken(seq, reason):
                if json {
                    Output.json(J.object([("ok", J.bool(false)), ("firstBadSeq", J.int(seq)), ("reason", J.string(reason))]))
                } else {
                    Output.print("broken at seq \(seq): \(reason)")
                }
                throw ExitCode(Failure.refused)
            }
        }
    }

    /// `--key` as given, or read from the file it names when it is not a key itself.
    private func verifierKey() throws -> LogKey {
        let given = key ?? ""
        if let key = try? LogKey(parsing: given) { return key }
        guard given.contains("/") || FileManager.default.fileExists(atPath: given) else {
            throw Failure.usage("--key must be a verifier key (NAME+KEYID+BASE64) or a file holding one")
        }
        let text = try readSmallFile(given).split(separator: "\n").first.map(String.init) ?? ""
        do {
            return try LogKey(parsing: text)
        } catch {
            throw Failure.usage("--key \(given): \(error)")
        }
    }

    /// A checkpoint or key file: a regular file of at most 64 KiB; anything else is a refused input (65).
    private func readSmallFile(_ path: String) throws -> String {
        do {
            return try ExportCheck.readSmallFile(path: path)
        } catch {
            throw Failure.refused("--checkpoint or --key: \(error.description)")
        }
    }
}
