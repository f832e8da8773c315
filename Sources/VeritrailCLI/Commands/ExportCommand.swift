import ArgumentParser
import Domain
import Engine
import EventLog
#if canImport(Glibc)
import Glibc
#endif

/// `export [filters] [--output FILE]`: the out form, one event per line (events.md §1), of the whole log
/// or of the events the filters of cli.md §7 keep. A filtered export is for reading (its lines keep their
/// `seq` and `hash`, so it imports only at the place it came from).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the log's events in the out form (with seq, id and hash), one per line.",
        discussion: """
        Examples:
          veritrail export --store /tmp/demo --output backup.ndjson
          veritrail export --since 2026-11-01T00:00:00Z --until 2026-11-07T23:59:59Z \\
            --actor admin --store /tmp/demo
        """
    )

    @OptionGroup var filter: LogFilterOptions
    @Option(help: ArgumentHelp("Write to this file (created 0600) instead of stdout; - is stdout.", valueName: "file")) var output: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            let store = try global.openStore()
            // Checked before the file is created, so that a refused export writes nothing.
            try store.read { _, models in try filter.checkActors(models) }
            var fd = STDOUT_FILENO
            let file = output == "-" ? nil : output
            if let file {
                fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                guard fd >= 0 else { throw Failure.refused("can not write \(file): \(String(cString: strerror(errno)))") }
            }
            defer { if file != nil { close(fd) } }
            let out = BufferedOutput(fd: fd)
            try store.read { reader, _ in
                try filter.filter(last: filter.n).forEach(reader) { seq, bytes in out.append(try outFormLine(bytes, seq: seq)) }
            }
            out.flush()
        }
    }
}

/// The out form of a stored record (events.md §1) with its line end: a line of `export` and of
/// `log tail --json`, transcoded from the stored record.
func outFormLine(_ bytes: UnsafeRawBufferPointer, seq: UInt64) throws -> [UInt8] {
    var line = try StoredEvent.canonical(bytes, seq: seq, withHash: true)
    line.append(0x0A)
    return line
}
