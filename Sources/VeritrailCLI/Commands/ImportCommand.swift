import ArgumentParser
import Foundation
import VeritrailKit

/// `import FILE|-`: appends NDJSON events all or nothing (cli.md §2), through the library's one import path
/// (`VeritrailStore.importNDJSON(path:into:origin:progress:)`), which creates the store when there is none.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append the events of an NDJSON file (or - for stdin), all or nothing.",
        discussion: """
        Every line is checked against every rule of the event catalogue; one bad line refuses the whole \
        file and writes nothing. Exported lines (with seq and hash) restore a store bit for bit; a new store \
        takes the secrets file at --secrets FILE (or DIR/secrets) when one is there, so that the passcodes \
        of the store an export came from unlock in its restore. A CSV of scans is recorded with \
        `veritrail scan --batch FILE`.

        Example:
          veritrail import Events/demo.ndjson --store demo-store
        """
    )

    @Argument(help: ArgumentHelp("The NDJSON file, or - for stdin.", valueName: "file"), completion: .file())
    var file: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The origin of a new store's checkpoints (proofs.md §2; default veritrail.invalid/<random>).", valueName: "name"))
    var origin: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let origin, !VeritrailStore.isValidOrigin(origin) { throw ValidationError("--origin must be 1-100 characters of A-Z a-z 0-9 . _ / : -") }
    }

    func run() throws {
        try runReporting {
            var bar: Progress?
            defer { bar?.finish() }
            let progress = { (read: ImportProgress) in
                if bar == nil {
                    bar = Progress(label: "importing", total: read.totalBytes, unit: "", enabled: !global.json && Output.stderrIsTerminal)
                }
                bar?.tick(read.bytes)
            }
            if let server = try ServerConnection.of(global) {
                if origin != nil { throw Failure.usage("--origin names a new store's checkpoints: it is not sent to a server") }
                let answer = try server.upload(file, to: "/v1/import", contentType: "application/x-ndjson", label: "importing",
                                               showProgress: !global.json)
                if global.json { return Output.json(answer) }
                let head = "\(answer["head"]?["seq"]?.intValue ?? 0):\(answer["head"]?["hash"]?.stringValue ?? "")"
                return Output.print(Self.said(appended: Int(answer["appended"]?.intValue ?? 0),
                                              existing: Int(answer["existing"]?.intValue ?? 0), head: head))
            }
            let directory = global.storeDirectory
            let summary = file == "-"
                ? try VeritrailStore.importNDJSON(fileDescriptor: FileHandle.standardInput.fileDescriptor, into: directory,
                                                  origin: origin, secrets: global.secretsFile, progress: progress)
                : try VeritrailStore.importNDJSON(path: file, into: directory, origin: origin, secrets: global.secretsFile,
                                                  progress: progress)
            bar?.finish()
            bar = nil
            if !summary.foreignPasscodes.isEmpty {
                let names = summary.foreignPasscodes
                Output.error("note: \(names.count) account\(names.count == 1 ? "" : "s") can not unlock in this store, "
                             + "\(names.count == 1 ? "its" : "their") passcode being made with another store's pepper: "
                             + "\(names.joined(separator: ", ")); open this store with that store's secrets (--secrets FILE), "
                             + "or have an admin reset \(names.count == 1 ? "it" : "them") (`veritrail passcode set USER --as ADMIN`)")
            }
            let head = HeadDigest(summary.head)
            if global.json {
                Output.json(Answers.imported(summary))
            } else {
                Output.print(Self.said(appended: summary.appended, existing: summary.existing, head: "\(head)"))
            }
        }
    }

    /// What an import says, of a local store or a server's: two lines, so that the digest (68 characters) fits an
    /// 80-column terminal.
    static func said(appended: Int, existing: Int, head: String) -> String {
        let already = existing > 0 ? " (\(existing) already in the log)" : ""
        return "appended \(appended) event\(appended == 1 ? "" : "s")\(already)\nhead \(head)"
    }
}
