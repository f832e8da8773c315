import ArgumentParser
import Domain
import Engine
import EventLog
#if canImport(Glibc)
import Glibc
#endif

/// `export [--from SEQ] [--to SEQ] [--output FILE]`: the out form, one event per line (events.md §1).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the log's events in the out form (with seq, id and hash), one per line.",
        discussion: "Example: veritrail export --store /tmp/demo --output backup.ndjson"
    )

    @Option(help: ArgumentHelp("The first seq to write.", valueName: "seq")) var from: UInt64 = 1
    @Option(help: ArgumentHelp("The last seq to write.", valueName: "seq")) var to: UInt64?
    @Option(help: ArgumentHelp("Write to this file (created 0600) instead of stdout.", valueName: "file")) var output: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard from >= 1 else { throw ValidationError("--from must be at least 1") }
        if let to, to < from { throw ValidationError("--to must not be below --from") }
    }

    func run() throws {
        try runReporting {
            let store = try global.openStore()
            var fd = STDOUT_FILENO
            if let output {
                fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                guard fd >= 0 else { throw Failure.refused("can not write \(output): \(String(cString: strerror(errno)))") }
            }
            defer { if output != nil { close(fd) } }
            let out = BufferedOutput(fd: fd)
            try store.read { reader, _ in try writeOutForm(reader, from: from, through: to ?? .max, to: out) }
            out.flush()
        }
    }
}

/// Writes the events `from`…`through` in the out form, one line each (events.md §1): what `export` and
/// `log tail --json` print, transcoded from the stored records.
func writeOutForm(_ reader: LogReader, from: UInt64, through: UInt64, to out: BufferedOutput) throws {
    try reader.forEachRecord(from: from, through: through) { seq, bytes in
        var line = try StoredEvent.canonical(bytes, seq: seq, withHash: true)
        line.append(0x0A)
        out.append(line)
        return true
    }
}
