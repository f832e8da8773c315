import Foundation
import VeritrailKit

/// `scan --batch FILE`: every record of the file as one `scan.recorded` in batch mode, all or nothing.
///
/// The library reads and checks the scans first (`readScanBatch`), with the progress bar, on a store opened
/// for reading and closed again; the write then opens the store with a map sized for the batch
/// (`ScanBatch.mapSize`), so that a large batch does not grow the map (and run the write again) several
/// times, and only stamps the events with its time.
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
                let appended = try server.appended(answer)
                return report(appended, seen: Answers.seenBefore(in: answer), "recorded \(Self.scans(appended.count)) in batch \(try server.batchId(of: appended))")
            }
            guard let actor = global.actingUser else {
                throw Failure.usage("who is acting? pass --as USER (or set VERITRAIL_USER)")
            }
            let batch: ScanBatch
            do {
                // A store opened for reading, closed before the write opens it again (LMDB: once per process).
                let store = try global.open()
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
                    ? try store.readScanBatch(fileDescriptor: FileHandle.standardInput.fileDescriptor, name: "-", as: actor, eventID: eventID,
                                           progress: progress)
                    : try store.readScanBatch(path: path, as: actor, eventID: eventID, progress: progress)
            }
            let session = try Session(global: global, passcodeStdin: passcodeStdin, eventID: eventID, mapSize: batch.mapSize)
            let appended = try words.run {
                // The write of a large batch takes seconds: a bar on the terminal counts the scans appended,
                // then says the commit is being written; cleared when it ends. Nothing when stderr is not a terminal.
                let bar = Progress(label: "recording scans", total: batch.count, unit: "scans",
                                   enabled: !global.json && Output.stderrIsTerminal)
                defer { bar.finish() }
                return try session.store.scan(batch: batch, as: actor, passcode: session.passcode, options: session.options,
                                              progress: { bar.tick($0) })
            }
            let seen = Answers.alreadyRecorded(appended) ? [] : try session.store.seenBefore(inBatch: appended)
            report(appended, seen: seen, "recorded \(Self.scans(appended.count)) in batch \(batch.batchId)")
        }
    }

    /// The answer: `--json`'s events with the scans seen before (`Answers.batch`), or the sentence and, unless
    /// the batch was recorded already, which codes were seen before.
    private func report(_ appended: [AppendedEvent], seen: [SeenBeforeScan], _ sentence: String) {
        if global.json { return Output.json(Answers.batch(appended, seen: seen)) }
        Session.report(global, appended, sentence)
        if !Answers.alreadyRecorded(appended) { for line in Self.seenLines(seen) { Output.print(line) } }
    }

    /// `1 scan`, `2 scans`.
    static func scans(_ count: Int) -> String { count == 1 ? "1 scan" : "\(count) scans" }

    /// How many of the batch's codes were seen before (projections.md §1 `seenBefore`), and the first of
    /// them: a code scanned before is worth a second look.
    static func seenLines(_ seen: [SeenBeforeScan], listed: Int = 10) -> [String] {
        guard !seen.isEmpty else { return ["no code of the batch was seen before"] }
        var lines = ["\(seen.count) scan\(seen.count == 1 ? "'s code was" : "s' codes were") seen before (worth a second look):"]
        for scan in seen.prefix(listed) {
            lines.append("  \(scan.code)  seen \(scan.seenBefore) time\(scan.seenBefore == 1 ? "" : "s") before  (scan \(scan.scanId))")
        }
        if seen.count > listed { lines.append("  … and \(seen.count - listed) more (`veritrail scan --batch … --json` lists them all)") }
        return lines
    }
}
