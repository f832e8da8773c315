import ArgumentParser
import VeritrailKit

/// `export [filters] [--output FILE]`: the out form, one event per line (events.md §1), of the whole log
/// or of the events the filters of cli.md §7 keep. A filtered export is for reading (its lines keep their
/// `seq` and `hash`, so it imports only at the place it came from); with `--proofs` it carries the signed
/// checkpoint of the head and each event's inclusion proof, so that `verify` checks it (cli.md §8).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the log's events in the out form (with seq, id and hash), one per line.",
        usage: "veritrail export [--output <file>] [--from <seq>] [--to <seq>] [--since <time>] [--until <time>] [--actor <user>]... [--type <type>]... [-n <N>] [--proofs] [<options>]",
        discussion: """
        With --proofs, the signed checkpoint of the head and each event's inclusion proof in it follow the \
        events, so that `veritrail verify` checks a filtered export without the events left out.
        Examples:
          veritrail export --store demo-store --output backup.ndjson
          veritrail export --since 2026-11-01T00:00:00Z --until 2026-11-07T23:59:59Z \\
            --actor admin --store demo-store
          veritrail export --actor ines --proofs --store demo-store > ines.ndjson
          key=$(veritrail log key --store demo-store)
          veritrail verify ines.ndjson --key "$key"
        """
    )

    @OptionGroup var filter: LogFilterOptions
    @Option(help: ArgumentHelp("Write to this file (created 0600) instead of stdout; - is stdout.", valueName: "file"), completion: .file()) var output: String?
    @Flag(help: "After the events, the signed checkpoint of the head and each event's inclusion proof in it (for `verify`).")
    var proofs = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            if let server = try ServerConnection.of(global) {
                return try server.export(filter, to: output, proofs: proofs)
            }
            let store = try global.openViewing(asOf: nil)
            // The library checks the actors before it makes the file, so that a refused export writes nothing.
            if let file = output, file != "-" {
                try store.export(to: file, filter: filter.filter(last: filter.n), proofs: proofs)
                return
            }
            let out = BufferedOutput(fd: 1)
            try store.export(filter: filter.filter(last: filter.n), proofs: proofs) { out.append($0) }
            out.flush()
        }
    }
}
