public import Domain
import Engine
import LMDB
import Projections

/// The scans of a batch file (`veritrail scan --batch`), read once and checked against every field rule
/// before anything is written, then read again by the write (`VeritrailStore.scan(batch:as:passcode:options:)`)
/// and appended as they are read: no scan is held, so a batch of millions takes as little memory as one of
/// ten. The input stays mapped (a pipe's spooled to an unlinked file first, as an import's is: `LineReader`),
/// so the write may read it again when it runs again (the map grows, the passcode is asked); it builds the
/// same scans every time, stamped with the write's time.
///
/// One batch is recorded by one write at a time: it is `Sendable` to be handed between threads (the
/// server reads it on one and writes it on another), not to be used from two at once.
public final class ScanBatch: @unchecked Sendable {
    /// The batch's id (`b-` and 8 random hex digits), which every scan of it carries.
    public let batchId: String
    /// The id it was read for (`WriteOptions.eventID`, a retry): its batch id and the scan ids it gave are
    /// derived from it, so that the retry reads the same events; its write is made under it.
    public let eventID: String?
    /// How many scans the batch holds.
    public let count: Int
    let reader: LineReader
    let name: String
    let context: BatchFile.Context
    /// What the scan ids of records without one are derived from: `eventID`, or an id drawn when the batch
    /// was read, so that every run of the write gives a record the same scan id.
    let scanIds: String

    init(batchId: String, eventID: String?, count: Int, reader: LineReader, name: String, context: BatchFile.Context, scanIds: String) {
        self.batchId = batchId
        self.eventID = eventID
        self.count = count
        self.reader = reader
        self.name = name
        self.context = context
        self.scanIds = scanIds
    }
}

/// What a batch of scans wrote (`scan(batch:…)`): its events, told as runs of seqs, not one by one.
public struct RecordedBatch: Sendable, Equatable {
    /// The batch's id.
    public let batchId: String
    /// The write's id: its events' ids are this, then `ID.2`, `ID.3`, … (`events.runs`' `firstIndex`).
    public let eventID: String
    /// Its events.
    public let events: AppendedRuns

    /// How many scans the write holds.
    public var count: Int { events.count }
    /// Whether every scan was logged already (a retry of a batch that had committed): nothing was written.
    public var alreadyRecorded: Bool { events.alreadyRecorded }

    /// Calls `body` with each event of the write, in order.
    public func forEachEvent(_ body: (AppendedEvent) throws -> Void) rethrows {
        for run in events.runs {
            for offset in 0..<run.count {
                let index = run.firstIndex + offset
                let id = index == 0 ? eventID : "\(eventID).\(index + 1)"
                try body(AppendedEvent(seq: run.firstSeq + UInt64(offset), id: id, type: .scanRecorded, isNew: run.isNew))
            }
        }
    }
}

extension VeritrailStore {
    /// Reads the scans of the NDJSON or CSV file at `path` (a CSV header names the fields: `code`,
    /// `productName`, `category`, `result`, and optionally `brand`, `location`, `notes`, `source`, `flash`,
    /// `scanId`) as `actor`'s batch: each record becomes a `scan.recorded` in batch mode, with a random scan
    /// id when it has none, and the actor's flash setting when it gives none. Nothing is written, and no
    /// scan is kept: the batch holds the input, to read it again when it is written. A record that breaks a
    /// rule refuses the whole file, naming the record and its line (`.unknown`, exit 65, with the record's
    /// own error as its cause). `progress` is called after each record. With `eventID` (the `--id` of a
    /// retry), the batch id and the scan ids it gives are derived from that id, not drawn.
    public func readScanBatch(path: String, as actor: String, eventID: String? = nil,
                              progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ScanBatch {
        try readScanBatch(try LineReader(path: path), name: path, as: actor, eventID: eventID, progress: progress)
    }

    /// `readScanBatch(path:as:progress:)` for the records read from `fd` (stdin, a pipe), which stays open:
    /// input that is not a regular file is spooled to an unlinked temporary file in `TMPDIR` first, with
    /// import's limit (`LineReader`). `name` is what a refusal calls the input (`-` on the command line).
    public func readScanBatch(fileDescriptor fd: Int32, name: String = "the input", as actor: String, eventID: String? = nil,
                              progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ScanBatch {
        try readScanBatch(try LineReader(fileDescriptor: fd, linesAreObjects: false), name: name, as: actor, eventID: eventID, progress: progress)
    }

    private func readScanBatch(_ reader: LineReader, name: String, as actor: String, eventID: String?,
                               progress: (ImportProgress) -> Void) throws(VeritrailError) -> ScanBatch {
        let settings = try answer(asOf: .seq(.max), now: nil) { context in
            try context.models.account(actor)?.settings ?? AccountRecord.Settings()
        }
        let batchId = "b-" + RandomIDs.one(for: eventID, purpose: "scan.batchId").prefix(8)
        let context = BatchFile.Context(actor: actor, at: clock(), batchId: batchId, defaultFlash: settings.flash)
        let count = try BatchFile.records(reader, name: name, context, ids: nil, progress: progress) { _, _ throws(VeritrailError) in }
        return ScanBatch(batchId: batchId, eventID: eventID, count: count, reader: reader, name: name, context: context,
                         scanIds: eventID ?? EventID.random())
    }

    /// Records every scan of `batch` by `actor`, all or nothing, in one write through the gate (the passcode
    /// asked once at most), paged as an import's write is, each scan appended as the input is read again: a
    /// rule that needs the log (a scan id taken) refuses the batch naming the record's line, with nothing
    /// written. Returns what was written, as runs of seqs. The write is made under the id the batch was read
    /// for, when it was (`options.eventID` must then be that id or nil). `progress` gets how many scans were
    /// appended so far (every 1,024, and all of them before the commit).
    @discardableResult
    public func scan(batch: ScanBatch, as actor: String, passcode: PasscodeProvider? = nil,
                     options: WriteOptions = WriteOptions(), progress: ((Int) -> Void)? = nil) throws(VeritrailError) -> RecordedBatch {
        var options = options
        if let read = batch.eventID {
            guard options.eventID == nil || options.eventID == read else {
                throw .malformed("the batch was read for the id \(read), not \(options.eventID ?? ""): read it again under the write's id", line: nil)
            }
            options.eventID = read
        }
        let (eventID, runs) = try appendGatedStream(as: actor, passcode: passcode, options: options, progress: progress) { at, transaction, id, sink in
            var context = batch.context
            context.at = at
            var index = 0
            let total = Double(max(batch.count, 1))
            // The canonical forms of the scans so far, which the rest's take of the map is reckoned from
            // (`Transaction.bytesLeft`), as an import reckons it from its input.
            var canonicalBytes = 0
            _ = try BatchFile.records(batch.reader, name: batch.name, context,
                                      ids: RandomIDs(derivedFrom: batch.scanIds, purpose: "scan.scanId", ascendingOver: batch.count),
                                      progress: { _ in }) { event, line throws(VeritrailError) in
                var event = event
                let eventID = try id(index)
                event.id = eventID
                // Made here rather than when it is sealed, to be counted: its head, then its id, seq and type
                // (`EventJSON.appendCanonicalTail`, about 48 bytes and the id).
                event.prepareCanonicalHead()
                canonicalBytes += event.canonicalHead.count + eventID.utf8.count + 48
                index += 1
                do {
                    try sink(event)
                } catch {
                    throw VeritrailError.from(error, line: line)
                }
                if index & 1023 == 0 {
                    transaction.workDone = Double(index) / total
                    transaction.bytesLeft = NDJSONImport.storeBytes(max(batch.count - index, 0) * (canonicalBytes / index))
                }
                // Every page read maps 64 KiB around it (the kernel's fault-around), and the pages a write has
                // passed stay mapped until they are dropped.
                if index % BatchFile.rowsBetweenReleases == 0 { transaction.releaseMappedPages() }
            }
        }
        return RecordedBatch(batchId: batch.batchId, eventID: eventID, events: runs)
    }
}
