public import ArgumentParser
public import VeritrailKit

extension ScanResult: ExpressibleByArgument {}
extension CaptureMode: ExpressibleByArgument {}
extension ScanSource: ExpressibleByArgument {}
extension ReportReason: ExpressibleByArgument {}

/// `scan`: records one scan, or many from a file with `--batch` (cli.md §3).
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Record a scan (or, with --batch FILE, many scans in batch mode, all or nothing).",
        usage: "veritrail scan --code <code> --product <product> --category <category> --result <result> [--brand <brand>] [--location <location>] [--notes <notes>] [<options>]\nveritrail scan --batch <file> [<options>]",
        discussion: """
        mode and flash come from your settings unless given; --source manual records a code typed in by \
        hand. Prints the scan id, and warns when the code was scanned before.

        --batch takes NDJSON or CSV (- for stdin); a CSV header (separated by commas, semicolons or \
        tabs) names the fields:
          code,productName,category,result[,brand,location,notes,source,flash,scanId]

        Examples:
          veritrail scan --as ines --code "https://v.example/p/123" \\
              --product "Serum 30 ml" --category Cosmetics --result authentic
          veritrail scan --as ines --batch scans.csv
        """
    )

    @Option(parsing: .unconditional, help: "The payload read from the QR code (or typed in).") var code: String?
    @Option(name: .customLong("product"), parsing: .unconditional, help: "The product's name.") var productName: String?
    @Option(parsing: .unconditional, help: "The product's category.") var category: String?
    @Option(help: "The verifier's verdict: authentic or counterfeit.") var result: ScanResult?
    @Option(parsing: .unconditional, help: "The brand.") var brand: String?
    @Option(parsing: .unconditional, help: "Where the scan was taken.") var location: String?
    @Option(parsing: .unconditional, help: "Notes.") var notes: String?
    @Option(help: "camera, gallery or manual (typed in).") var source: ScanSource = .camera
    @Option(help: "single or batch (default: your capture mode setting).") var mode: CaptureMode?
    @Flag(inversion: .prefixedNo, help: "Whether the flash was on (default: your flash setting).") var flash: Bool?
    @Option(parsing: .unconditional, help: "The scan id (default: a new random one).") var scanId: String?
    @Option(help: ArgumentHelp("Record every scan of this NDJSON or CSV file (- for stdin), in batch mode.", valueName: "file"), completion: .file())
    var batch: String?
    @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions
    @OptionGroup var retry: RetryOptions

    static let options: [String: String] = [
        "data.scanId": "--scan-id", "data.code": "--code", "data.productName": "--product", "data.brand": "--brand",
        "data.category": "--category", "data.result": "--result", "data.mode": "--mode", "data.source": "--source",
        "data.flash": "--flash", "data.location": "--location", "data.notes": "--notes",
    ]

    func validate() throws {
        if batch == nil {
            for (name, value) in [("--code", code), ("--product", productName), ("--category", category)] where value == nil {
                throw ValidationError("\(name) is needed for a scan (or use --batch FILE)")
            }
            if result == nil { throw ValidationError("--result authentic|counterfeit is needed for a scan") }
        }
        if batch == "-" && passcodeStdin {
            throw ValidationError("--batch - and --passcode-stdin would both read stdin: give the scans as a file (--batch FILE), or unlock first (veritrail unlock) and drop --passcode-stdin")
        }
    }

    func run() throws {
        if let batch { return try BatchScans(global: global, passcodeStdin: passcodeStdin, eventID: retry.id).run(batch) }
        let words = CommandWords(type: .scanRecorded, options: ScanCommand.options)
        try runReporting {
            guard let code, let productName, let category, let result else {
                throw Failure.usage("--code, --product, --category and --result are needed for a scan (or use --batch FILE)")
            }
            if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                return try words.run { try server.scan(remoteFields(code, productName, category, result), eventID: retry.id, json: global.json) }
            }
            let session = try Session(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
            let actor = try session.actor()
            var scan = NewScan(code: code, productName: productName, category: category, result: result)
            scan.brand = brand
            scan.location = location
            scan.notes = notes
            scan.source = source
            scan.mode = mode
            scan.flash = flash
            scan.scanId = scanId
            let recorded = try words.run {
                try session.store.scan(scan, as: actor, passcode: session.passcode, options: session.options)
            }
            let seen = recorded.seenBefore
            if seen > 0 {
                Output.note("warning: this code was scanned \(seen) time\(seen == 1 ? "" : "s") before: worth a second look")
            }
            // A retry under --id that found the scan logged: the scan's JSON stays the answer (projections.md
            // SCAN), and the retry is told on stderr.
            let already = recorded.event.isNew ? nil : "(seq \(recorded.event.seq), event \(recorded.event.id)): nothing written"
            if global.json {
                if let already { Output.note("already recorded \(already)") }
                Output.json(recorded.scan ?? .null)
            } else if let already {
                Output.print("already recorded scan \(Escaped.text(recorded.scanId)) \(already)")
            } else {
                Output.print("recorded scan \(Escaped.text(recorded.scanId)) (seq \(recorded.event.seq), event \(recorded.event.id))")
            }
        }
    }
}

extension ScanCommand {
    /// The scan as `POST /v1/scans` takes it (server.md §3).
    func remoteFields(_ code: String, _ productName: String, _ category: String, _ result: ScanResult) -> [(String, JSONValue?)] {
        [("code", code.json), ("productName", productName.json), ("category", category.json), ("result", result.rawValue.json),
         ("brand", brand.json), ("location", location.json), ("notes", notes.json), ("source", source.rawValue.json),
         ("mode", mode?.rawValue.json), ("flash", flash.json), ("scanId", scanId.json)]
    }
}

/// `report SCAN_ID --reason R [--message M]`: reports a scanned object as counterfeit.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report a scanned object as counterfeit (one report a scan).",
        discussion: """
        The scan id may be shortened to 4 or more of its first characters, as in show.
        Example:
          veritrail report s-0042 --reason packaging --as ines
        """
    )
    @Argument(help: ArgumentHelp("The scan id, or its start.", valueName: "scan-id"), completion: Completions.scanIds) var scanId: String
    @Option(help: "packaging, label, serial, price, seller or other.") var reason: ReportReason
    @Option(parsing: .unconditional, help: "What is wrong (needed with --reason other).") var message: String?
    @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions
    @OptionGroup var retry: RetryOptions

    func run() throws {
        let words = CommandWords(type: .counterfeitReported, options: [
            "data.scanId": "SCAN_ID", "data.reason": "--reason", "data.message": "--message",
        ])
        try runReporting {
            if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                let id = try server.resolveScanId(scanId)
                let appended = try words.run {
                    try server.write(RemoteWrite("POST", RemoteWrite.path("/v1/scans/", id, "/report"),
                                                 [("reason", reason.rawValue.json), ("message", message.json)]), eventID: retry.id)
                }
                return Session.report(global, appended, "reported scan \(Escaped.text(id)) (\(reason.rawValue))")
            }
            let session = try Session(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
            let actor = try session.actor()
            let id = try session.store.resolveScanId(scanId)
            let appended = try words.run {
                try session.store.report(scanId: id, reason: reason, message: message, as: actor,
                                         passcode: session.passcode, options: session.options)
            }
            session.report(appended, "reported scan \(Escaped.text(id)) (\(reason.rawValue))")
        }
    }
}
