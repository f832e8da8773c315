import ArgumentParser
import Domain
import Engine
import Projections
import StrictJSON

extension ScanResult: ExpressibleByArgument {}
extension CaptureMode: ExpressibleByArgument {}
extension ScanSource: ExpressibleByArgument {}
extension ReportReason: ExpressibleByArgument {}

/// `scan`: records one scan, or many from a file with `--batch` (cli.md §3).
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Record a scan (or, with --batch FILE, many scans in batch mode, all or nothing).",
        discussion: """
        mode and flash come from your settings unless given. --source manual records a code typed in by hand.
        Examples:
          veritrail scan --as ines --code "https://v.example/p/123" --product "Serum 30 ml" --category Cosmetics --result authentic
          veritrail scan --as ines --batch scans.csv      (CSV header: code,productName,category,result[,brand,location,notes,source,flash,scanId])
        """
    )

    @Option(help: "The payload read from the QR code (or typed in).") var code: String?
    @Option(name: .customLong("product"), help: "The product's name.") var productName: String?
    @Option(help: "The product's category.") var category: String?
    @Option(help: "The verifier's verdict: authentic or counterfeit.") var result: ScanResult?
    @Option(help: "The brand.") var brand: String?
    @Option(help: "Where the scan was taken.") var location: String?
    @Option(help: "Notes.") var notes: String?
    @Option(help: "camera, gallery or manual (typed in).") var source: ScanSource = .camera
    @Option(help: "single or batch (default: your capture mode setting).") var mode: CaptureMode?
    @Flag(inversion: .prefixedNo, help: "Whether the flash was on (default: your flash setting).") var flash: Bool?
    @Option(help: "The scan id (default: a new random one).") var scanId: String?
    @Option(help: ArgumentHelp("Record every scan of this NDJSON or CSV file, in batch mode.", valueName: "file")) var batch: String?
    @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if batch == nil {
            for (name, value) in [("--code", code), ("--product", productName), ("--category", category)] where value == nil {
                throw ValidationError("\(name) is needed for a scan (or use --batch FILE)")
            }
            if result == nil { throw ValidationError("--result authentic|counterfeit is needed for a scan") }
        }
    }

    func run() throws {
        try runReporting {
            let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin)
            let actor = try writer.actor()
            if let batch {
                let rows = try BatchFile.read(batch)
                let batchId = "b-" + EventID.random().prefix(8)
                let progress = Progress(label: "recording scans", total: rows.count, unit: "scans",
                                        enabled: !global.json && Output.stderrIsTerminal)
                let logged = try writer.append(unlocking: actor) { at, models in
                    let settings = try models.account(actor)?.settings ?? AccountRecord.Settings()
                    return try rows.enumerated().map { index, row in
                        progress.tick(index + 1)
                        do {
                            return try EventBuilder.event(.scanRecorded, actor: actor, at: at, data: row.data(
                                mode: .batch, batchId: batchId, defaultFlash: settings.flash))
                        } catch let e as EventError {
                            throw Failure.refused("\(batch) record \(index + 1): \(e)")
                        }
                    }
                }
                progress.finish()
                writer.report(logged, "recorded \(logged.count) scans in batch \(batchId)")
            } else {
                let logged = try writer.append(unlocking: actor) { at, models in
                    let settings = try models.account(actor)?.settings ?? AccountRecord.Settings()
                    var data = DataFields()
                    data.set("scanId", scanId ?? "s-" + EventID.random())
                    data.set("code", code); data.set("productName", productName); data.set("brand", brand)
                    data.set("category", category); data.set("result", result?.rawValue)
                    data.set("mode", (mode ?? settings.captureMode).rawValue); data.set("source", source.rawValue)
                    data.set("flash", flash ?? settings.flash); data.set("location", location); data.set("notes", notes)
                    return [try EventBuilder.event(.scanRecorded, actor: actor, at: at, data: data.pairs)]
                }
                writer.report(logged, "recorded the scan")
            }
        }
    }
}

/// `report SCAN_ID --reason R [--message M]`: reports a scanned object as counterfeit.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report a scanned object as counterfeit (one report a scan).",
        discussion: "Example: veritrail report s-0042 --reason packaging --as ines"
    )
    @Argument(help: ArgumentHelp("The scan.", valueName: "scan-id")) var scanId: String
    @Option(help: "packaging, label, serial, price, seller or other.") var reason: ReportReason
    @Option(help: "What is wrong (needed with --reason other).") var message: String?
    @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try WriteCommand.appendOne(.counterfeitReported, global: global, passcodeStdin: passcodeStdin, data: { _, _ in
            var data = DataFields()
            data.set("scanId", scanId); data.set("reason", reason.rawValue); data.set("message", message)
            return data.pairs
        }, said: { _ in "reported scan \(scanId) (\(reason.rawValue))" })
    }
}
