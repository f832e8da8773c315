import Foundation
import SystemCalls
import VeritrailKit

/// `scan --batch FILE`: every record of the file as one `scan.recorded` in batch mode, all or nothing.
///
/// The library reads and checks the scans first (`readScanBatch`), with the progress bar, then reads them
/// again in the write, appending each as it comes (`scan(batch:)`): no scan is held, whatever the batch's
/// size. The answer is written as it is read back (`writeBatchAnswer`), not built whole.
struct BatchScans {
    let global: GlobalOptions
    let passcodeStdin: Bool
    /// `--id`, to retry a batch whose commit may have failed.
    let eventID: String?

    func run(_ path: String) throws {
        let words = CommandWords(type: .scanRecorded, options: [:])
        try runReporting {
            if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                let answer = try server.upload(path, to: "/v1/scans/batch", contentType: "application/x-ndjson", label: "sending scans",
                                               showProgress: !global.json, eventID: eventID)
                if global.json { return Output.json(answer) }
                let appended = try server.answer(answer).events
                let seen = Answers.seenBefore(in: answer)
                Session.report(global, appended, "recorded \(Self.scans(appended.count)) in batch \(try server.batchId(of: appended))")
                if !Answers.alreadyRecorded(appended) {
                    for line in Self.seenLines(SeenBeforeSummary(count: seen.count, first: Array(seen.prefix(10)))) { Output.print(line) }
                }
                return
            }
            guard let actor = global.actingUser else {
                throw Failure.usage("who is acting? pass --as USER (or set VERITRAIL_USER)")
            }
            let session = try Session(global: global, passcodeStdin: passcodeStdin, eventID: eventID)
            let batch: ScanBatch
            do {
                var bar: Progress?
                defer { bar?.finish() }
                let progress = { (read: ImportProgress) in
                    if bar == nil {
                        bar = Progress(label: "reading scans", total: read.totalBytes, unit: "",
                                       enabled: !global.json && Output.stderrIsTerminal)
                    }
                    bar?.tick(read.bytes)
                }
                batch = path == "-"
                    ? try session.store.readScanBatch(fileDescriptor: FileHandle.standardInput.fileDescriptor, name: "-", as: actor,
                                                      eventID: eventID, progress: progress)
                    : try session.store.readScanBatch(path: path, as: actor, eventID: eventID, progress: progress)
            }
            let recorded = try words.run {
                // The write of a large batch takes seconds: a bar on the terminal counts the scans appended,
                // then says the commit is being written; cleared when it ends. Nothing when stderr is not a terminal.
                let bar = Progress(label: "recording scans", total: batch.count, unit: "scans",
                                   enabled: !global.json && Output.stderrIsTerminal)
                defer { bar.finish() }
                return try session.store.scan(batch: batch, as: actor, passcode: session.passcode, options: session.options,
                                              progress: { bar.tick($0) })
            }
            try report(recorded, store: session.store)
        }
    }

    /// The answer: `--json`'s events with the scans seen before, written as they are read back
    /// (`writeBatchAnswer`), or the sentence and, unless the batch was recorded already, which codes were seen
    /// before.
    private func report(_ recorded: RecordedBatch, store: VeritrailStore) throws {
        if global.json {
            return try store.writeBatchAnswer(recorded) { Output.writeAll(FileDescriptor.standardOutput.rawValue, $0) }
        }
        let last = recorded.events.runs.last.map { $0.firstSeq + UInt64($0.count) - 1 } ?? 0
        if recorded.alreadyRecorded {
            return Output.print("already recorded (seq \(last), event \(recorded.eventID)): nothing written")
        }
        Output.print("recorded \(Self.scans(recorded.count)) in batch \(recorded.batchId) (seq \(last), event \(recorded.eventID))")
        for line in Self.seenLines(try store.seenBefore(inBatch: recorded)) { Output.print(line) }
    }

    /// `1 scan`, `2 scans`.
    static func scans(_ count: Int) -> String { count == 1 ? "1 scan" : "\(count) scans" }

    /// How many of the batch's codes were seen before (projections.md §1 `seenBefore`), and the first of
    /// them: a code scanned before is worth a second look.
    static func seenLines(_ seen: SeenBeforeSummary) -> [String] {
        guard seen.count > 0 else { return ["no code of the batch was seen before"] }
        var lines = ["\(seen.count) scan\(seen.count == 1 ? "'s code was" : "s' codes were") seen before (worth a second look):"]
        for scan in seen.first {
            lines.append("  \(scan.code)  seen \(scan.seenBefore) time\(scan.seenBefore == 1 ? "" : "s") before  (scan \(scan.scanId))")
        }
        if seen.count > seen.first.count {
            lines.append("  … and \(seen.count - seen.first.count) more (`veritrail scan --batch … --json` lists them all)")
        }
        return lines
    }
}
