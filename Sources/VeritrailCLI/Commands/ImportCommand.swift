import Projections
import Proofs
import ArgumentParser
import Domain
import Engine
import EventLog
import StrictJSON

/// `import FILE|-`: appends NDJSON events all or nothing (cli.md §2).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append the events of an NDJSON file (or - for stdin), all or nothing.",
        discussion: """
        Every line is checked against every rule of the event catalogue; one bad line refuses the whole file
        and writes nothing. Exported lines (with seq and hash) restore a store bit for bit.
        Example: veritrail import Events/demo.ndjson --store /tmp/demo
        """
    )

    @Argument(help: ArgumentHelp("The NDJSON file, or - for stdin.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The origin of a new store's checkpoints (proofs.md §2; default veritrail.invalid/<random>).", valueName: "name"))
    var origin: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let origin, !Checkpoint.validOrigin(origin) { throw ValidationError("--origin must be 1-100 characters of A-Z a-z 0-9 . _ / : -") }
    }

    func run() throws {
        try runReporting {
            let reader = try LineReader(path: file)
            let directory = global.storeDirectory
            // A store takes about 2.2 times the NDJSON it is imported from: map that much up front.
            let mapSize = EventLog.initialMapSize + 3 * reader.size
            let progress = Progress(label: "importing", total: reader.size, unit: "",
                                    enabled: !global.json && Output.stderrIsTerminal)
            defer { progress.finish() }
            // A large input (or a pipe, of unknown size) is written with the map paged (`Store.write(large:)`):
            // faster, and its written pages do not stay in the process's resident set.
            let large = reader.size == 0 || reader.size >= 1 << 20
            let append = { (appender: inout Appender) throws -> (Int, Int, LogHead) in
                try ImportCommand.append(reader, to: &appender, progress: progress)
            }
            // A new store is made with the import's events in one step, or not at all; when another process
            // made the store meanwhile, the events are appended to that store like to any other.
            let outcome = try Store.create(directory: directory, mapSize: mapSize, large: large, origin: origin, append)
                ?? ImportCommand.existing(directory, mapSize: mapSize, origin: origin).write(large: large, append)
            let (appended, existing, head) = outcome
            if global.json {
                Output.json(J.object([("appended", J.int(appended)), ("existing", J.int(existing)),
                                      ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(Hex.encode(head.hash)))]))]))
            } else {
                let already = existing > 0 ? " (\(existing) already in the log)" : ""
                Output.print("appended \(appended) event\(appended == 1 ? "" : "s")\(already); head \(head.digest)")
            }
        }
    }

    /// The store that was there already (or made meanwhile by another process), which keeps its origin.
    private static func existing(_ directory: String, mapSize: Int, origin: String?) throws -> Store {
        let store = try Store(directory: directory, mapSize: mapSize)
        try store.adopt(origin: origin)
        return store
    }

    /// Appends every line of `reader`, decoded on a second thread, and returns how many were appended, how
    /// many were in the log already, and the new head. Runs again from the first line when the write does.
    private static func append(_ reader: LineReader, to appender: inout Appender,
                               progress: Progress) throws -> (Int, Int, LogHead) {
        let lines = decodedLines(reader)
        defer { lines.cancel() }
        var appended = 0, existing = 0
        while let batch = try lines.next() {
            var bytesRead = 0
            // Read in place, not taken out: the decoding thread frees what it allocated.
            try batch.forEach { line in
                bytesRead = line.bytesRead
                do {
                    switch try appender.append(line.event, prepared: line.prepared) {
                    case .appended: appended += 1
                    case .existing: existing += 1
                    }
                } catch let e as EventError {
                    throw Failure.refused("line \(line.number): \(e)")
                }
            }
            progress.tick(bytesRead)
        }
        return (appended, existing, appender.head)
    }
}

/// Parses and decodes one NDJSON line, naming the line in any refusal. A plain line is read in place by
/// `scanner` (no JSON tree is made); any other, and any line it does not take, goes through the parser,
/// which accepts or refuses it with its message. Both kinds are decoded by the same `EventJSON.decode`.
func decodeLine(_ line: UnsafeRawBufferPointer, number: Int, scanner: JSONScanner) throws -> IncomingEvent {
    if let object = scanner.scan(line) {
        do {
            return try EventJSON.decode(object)
        } catch {
            throw Failure.refused("line \(number): \(error)")
        }
    }
    let value: JSONValue
    do {
        value = try JSONValue.parse(line)
    } catch {
        throw Failure.refused("line \(number): not valid JSON: \(error)")
    }
    do {
        return try EventJSON.decode(value)
    } catch {
        throw Failure.refused("line \(number): \(error)")
    }
}
