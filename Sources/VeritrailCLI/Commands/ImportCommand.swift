import Projections
import Proofs
import ArgumentParser
import Domain
import Engine
import EventLog
import StrictJSON
#if canImport(Glibc)
import Glibc
#endif

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
            let created = !EventLog.exists(at: directory)
            let directoryExisted = access(directory, F_OK) == 0
            // A store takes about 2.2 times the NDJSON it is imported from: map that much up front.
            let store = try Store(directory: directory, create: true, mapSize: (64 << 20) + 3 * reader.size)
            try store.adopt(origin: origin)
            let progress = Progress(label: "importing", total: reader.size, unit: "",
                                    enabled: !global.json && Output.stderrIsTerminal)
            // A large input (or a pipe, of unknown size) is written with the map paged (`Store.write(large:)`):
            // faster, and its written pages do not stay in the process's resident set.
            let large = reader.size == 0 || reader.size >= 1 << 20
            let outcome = Result { try store.write(large: large) { appender in
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
            } }
            progress.finish()
            // A refused import writes nothing, not even the store it would have created.
            if case .failure = outcome, created { StoreFiles.remove(directory, directoryToo: !directoryExisted) }
            let (appended, existing, head) = try outcome.get()
            if global.json {
                Output.json(J.object([("appended", J.int(appended)), ("existing", J.int(existing)),
                                      ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(Hex.encode(head.hash)))]))]))
            } else {
                let already = existing > 0 ? " (\(existing) already in the log)" : ""
                Output.print("appended \(appended) event\(appended == 1 ? "" : "s")\(already); head \(head.digest)")
            }
        }
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
