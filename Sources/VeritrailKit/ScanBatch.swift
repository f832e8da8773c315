public import Domain
import Engine
import Projections

/// The scans of a batch file (`veritrail scan --batch`), read and checked against every field rule before
/// anything is written, ready to be recorded in one write (`VeritrailStore.scan(batch:as:passcode:options:)`).
/// Reading first keeps the write short and lets it run again (the map grows, the passcode is asked) on the
/// same events, stamped with the write's time.
public struct ScanBatch: Sendable {
    /// The batch's id (`b-` and 8 random hex digits), which every scan of it carries.
    public let batchId: String
    /// The id it was read for (`WriteOptions.eventID`, a retry): its batch id and the scan ids it gave are
    /// derived from it, so that the retry reads the same events; its write is made under it.
    public let eventID: String?
    /// The scans' events, in the file's order.
    let events: [IncomingEvent]

    /// How many scans the batch holds.
    public var count: Int { events.count }

    /// The map a store should be opened with (`VeritrailStore.open(at:clock:mapSize:)`) to take the batch in
    /// one go: more than a scan takes with its indexes (about 1 KB) for each, so that the map need not grow,
    /// and the write run again, several times on the way.
    public var mapSize: Int { (64 << 20) + count * 2_048 }
}

extension VeritrailStore {
    /// Reads the scans of the NDJSON or CSV file at `path` (a CSV header names the fields: `code`,
    /// `productName`, `category`, `result`, and optionally `brand`, `location`, `notes`, `source`, `flash`,
    /// `scanId`) as `actor`'s batch: each record becomes a `scan.recorded` in batch mode, with a random scan
    /// id when it has none, and the actor's flash setting when it gives none. Nothing is written. A record
    /// that breaks a rule refuses the whole file, naming the record and its line (`.unknown`, exit 65, with
    /// the record's own error as its cause). `progress` is called after each record. With `eventID` (the
    /// `--id` of a retry), the batch id and the scan ids it gives are derived from that id, not drawn.
    public func readScanBatch(path: String, as actor: String, eventID: String? = nil,
                              progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ScanBatch {
        try readScanBatch(try LineReader(path: path), name: path, as: actor, eventID: eventID, progress: progress)
    }

    /// `readScanBatch(path:as:progress:)` for the records read from `fd` (stdin, a pipe), which stays open.
    /// `name` is what a refusal calls the input (`-` on the command line).
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
        let ids = eventID.map { RandomIDs(derivedFrom: $0, purpose: "scan.scanId") } ?? RandomIDs()
        return ScanBatch(batchId: batchId, eventID: eventID,
                         events: try BatchFile.events(reader, name: name, context, ids: ids, progress: progress))
    }

    /// Records every scan of `batch` by `actor`, all or nothing, in one write through the gate (the passcode
    /// asked once at most), paged as an import's write is. Returns the events written, in order. The write is
    /// made under the id the batch was read for, when it was (`options.eventID` must then be that id or nil).
    /// `progress` gets how many scans were appended so far (every 1,024, and all of them before the commit).
    @discardableResult
    public func scan(batch: ScanBatch, as actor: String, passcode: PasscodeProvider? = nil,
                     options: WriteOptions = WriteOptions(), progress: ((Int) -> Void)? = nil) throws(VeritrailError) -> [AppendedEvent] {
        var options = options
        if let read = batch.eventID {
            guard options.eventID == nil || options.eventID == read else {
                throw .malformed("the batch was read for the id \(read), not \(options.eventID ?? ""): read it again under the write's id", line: nil)
            }
            options.eventID = read
        }
        return try appendGated(as: actor, passcode: passcode, options: options, large: true, progress: progress) { at, _ in
            batch.events.map { event in
                var event = event
                event.at = at
                return event
            }
        }
    }
}
