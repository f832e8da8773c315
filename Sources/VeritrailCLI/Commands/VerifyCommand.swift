import ArgumentParser
import Foundation
import VeritrailKit

/// `verify FILE [--checkpoint CP] [--key VKEY]` (proofs.md §4, cli.md §8): checks an export without importing
/// it, a whole one or one written by `export --proofs`, and says what it checked.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check an export (the out form, with seq and hash) without importing it, and say what was checked.",
        discussion: """
        A whole export: every line must parse, seq run 1, 2, 3, … and every hash be the chain's; with \
        --checkpoint and --key, the checkpoint's signature must verify under the key and the export's first N \
        events have its root. A file of `export --proofs` (any filter): every event must be in the tree of the \
        checkpoint the file carries (its inclusion proof leads to the root), and with --key that checkpoint's \
        signature must verify. A filtered export without proofs is refused as partial. Not ok exits 65.
        Examples:
          veritrail verify export.ndjson --checkpoint checkpoint.txt --key verifier.key
          veritrail verify scans.ndjson --key verifier.key
        """
    )

    @Argument(help: ArgumentHelp("The exported NDJSON file, or - for stdin.", valueName: "file"), completion: .file()) var file: String
    @Option(help: ArgumentHelp("A signed checkpoint (the output of `log checkpoint`) in a file; needs --key.", valueName: "file"), completion: .file())
    var checkpoint: String?
    @Option(help: ArgumentHelp("The verifier key (`log key`), or a file holding it.", valueName: "vkey"), completion: .file()) var key: String?
    @Flag(name: .long, help: "Machine output: exactly the JSON of the spec on stdout.") var json = false

    func validate() throws {
        if checkpoint != nil && key == nil { throw ValidationError("--checkpoint needs --key: a checkpoint is checked under the verifier key") }
    }

    func run() throws {
        try runReporting {
            var check = ExportCheck()
            if key != nil { check = ExportCheck(signedCheckpoint: try checkpoint.map { try readSmallFile($0) }, key: try verifierKey()) }
            try check.check(path: file)
            if check.keyUnused {
                throw Failure.usage("--key without --checkpoint checks the checkpoint of a file of `export --proofs`; \(file) carries none: give --checkpoint too")
            }
            switch check.outcome {
            case let .ok(events, head):
                let checked = check.checked
                if json {
                    Output.json(J.object([("ok", J.bool(true)), ("events", J.int(events)),
                                          ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(Hex.encode(head.hash)))])),
                                          ("checked", Self.json(checked))]))
                } else {
                    let what = checked.partial ? " of a partial export" : ""
                    Output.print(events == 0 ? "ok: the file holds no events\(what.isEmpty ? "" : " (a filter kept none)")"
                        : "ok: \(events) event\(events == 1 ? "" : "s")\(what) verified; \(checked.partial ? "last" : "head") \(head.digest)")
                    for line in Self.lines(checked, events: events) { Output.print("  " + line) }
                }
            case let .broken(seq, reason):
                if json {
                    var members: [(String, JSONValue)] = [("ok", J.bool(false)), ("firstBadSeq", J.int(seq)), ("reason", J.string(reason))]
                    if check.refusedAsPartial { members.append(("partial", J.bool(true))) }
                    Output.json(J.object(members))
                } else {
                    Output.print(check.refusedAsPartial ? "refused: \(reason)" : "broken at seq \(seq): \(reason)")
                }
                throw ExitCode(Failure.refused)
            }
        }
    }

    /// `{"chain", "checkpoint": {"origin", "size", "root"} | null, "signature", "inclusion", "proofs"}`.
    static func json(_ checked: ExportChecked) -> JSONValue {
        let checkpoint: JSONValue = checked.checkpointSize.map { size in
            J.object([("origin", J.string(checked.checkpointOrigin ?? "")), ("size", J.int(size)),
                      ("root", J.string(Hex.encode(checked.checkpointRoot ?? [])))])
        } ?? .null
        return J.object([("chain", J.int(checked.chain)), ("checkpoint", checkpoint), ("signature", J.bool(checked.signature)),
                         ("inclusion", J.int(checked.inclusion)), ("proofs", J.bool(checked.carriedProofs))])
    }

    /// What was checked, one fact a line, for people.
    static func lines(_ checked: ExportChecked, events: UInt64) -> [String] {
        var lines: [String] = []
        lines.append(events == 0 ? "chain: no events"
            : checked.chain == 0
            ? "chain: not checked (the file does not start at seq 1; the inclusion proofs stand for it)"
            : checked.partial && checked.carriedProofs && checked.chain < events
            ? "chain: the hashes of seq 1 to \(checked.chain); the file skips seq \(checked.chain + 1), so later hashes are not chained"
            : "chain: every hash from seq 1 to \(checked.chain)")
        guard let size = checked.checkpointSize else {
            lines.append("checkpoint: none (--checkpoint and --key check a signed root too)")
            return lines
        }
        let root = Hex.encode(checked.checkpointRoot ?? [])
        lines.append("checkpoint: \(size) events of \(checked.checkpointOrigin ?? ""), root \(root.prefix(16))…, "
            + (checked.signature ? "signature verified under the key" : "signature NOT checked (give --key)"))
        lines.append(events == 0 ? "inclusion: no events to prove"
            : checked.carriedProofs
            ? "inclusion: \(checked.inclusion == events ? "every one of the \(events) events" : "\(checked.inclusion) events") proven in the checkpoint's tree"
            : "inclusion: the first \(checked.inclusion) events have the checkpoint's root")
        return lines
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
