public import Domain
import Engine
import EventLog
import Projections
public import StrictJSON

/// A scan to record, as `veritrail scan` takes it.
public struct NewScan: Sendable {
    /// The payload read from the QR code (or typed in).
    public var code: String
    /// The product's name.
    public var productName: String
    /// The product's category.
    public var category: String
    /// The verifier's verdict.
    public var result: ScanResult
    /// The brand.
    public var brand: String?
    /// Where the scan was taken.
    public var location: String?
    /// Notes.
    public var notes: String?
    /// Camera, gallery, or typed in by hand (`manual`).
    public var source: ScanSource = .camera
    /// Single or batch; nil takes the actor's capture-mode setting.
    public var mode: CaptureMode?
    /// Whether the flash was on; nil takes the actor's flash setting.
    public var flash: Bool?
    /// The scan's id; nil draws a new one (`s-` and a random UUID).
    public var scanId: String?

    /// A scan with the fields every scan needs; set the others as fields.
    public init(code: String, productName: String, category: String, result: ScanResult) {
        self.code = code
        self.productName = productName
        self.category = category
        self.result = result
    }
}

/// A scan that was recorded: its id, the event that holds it, and the scan as `show` gives it.
public struct RecordedScan: Sendable {
    /// The scan's id, as `show` and `report` take it.
    public var scanId: String
    /// The `scan.recorded` event: its seq and id.
    public var event: AppendedEvent
    /// The scan as `show` answers it right after the write (with its `seenBefore`); nil on a dry run.
    public var scan: JSONValue?

    /// How many times the same code was scanned before this scan: above 0, the object is worth a second
    /// look (a copied code).
    public var seenBefore: Int64 { scan?["seenBefore"]?.intValue ?? 0 }
}

extension VeritrailStore {
    /// Records a scan by `actor` (`veritrail scan`), through the gate; mode and flash default to the
    /// actor's settings as this same transaction reads them. The scan id is drawn once, before the write,
    /// which may run more than once. The scan is read back as `show` gives it, every event kept whatever
    /// the clock (a clock behind the head must not hide the scan just written).
    @discardableResult
    public func scan(_ scan: NewScan, as actor: String, passcode: PasscodeProvider? = nil,
                     options: WriteOptions = WriteOptions()) throws(VeritrailError) -> RecordedScan {
        let id = scan.scanId ?? "s-" + RandomIDs.one(for: options.eventID, purpose: "scan.scanId")
        let appended = try appendGated(as: actor, passcode: passcode, options: options) { at, models in
            let settings = try models.account(actor)?.settings ?? AccountRecord.Settings()
            return [try EventData.event(.scanRecorded, actor: actor, at: at, [
                ("scanId", .string(id)), ("code", .string(scan.code)), ("productName", .string(scan.productName)),
                ("brand", EventData.string(scan.brand)), ("category", .string(scan.category)),
                ("result", .string(scan.result.rawValue)), ("mode", .string((scan.mode ?? settings.captureMode).rawValue)),
                ("source", .string(scan.source.rawValue)), ("flash", .bool(scan.flash ?? settings.flash)),
                ("location", EventData.string(scan.location)), ("notes", EventData.string(scan.notes)),
            ])]
        }
        guard let event = appended.last else { throw .storeFailure(underlying: StoreError("the scan was not appended")) }
        let shown = options.dryRun ? nil : try answer(asOf: .seq(.max), now: nil) { context in try showScan(id, context) }
        return RecordedScan(scanId: id, event: event, scan: shown)
    }

    /// Reports a scanned object as counterfeit (`veritrail report`); `scanId` may be its first 4 or more
    /// characters, as in `show`.
    @discardableResult
    public func report(scanId: String, reason: ReportReason, message: String? = nil, as actor: String,
                       passcode: PasscodeProvider? = nil, options: WriteOptions = WriteOptions()) throws(VeritrailError) -> [AppendedEvent] {
        let id = try resolveScanId(scanId)
        return try appendGated(as: actor, passcode: passcode, options: options) { at, _ in
            [try EventData.event(.counterfeitReported, actor: actor, at: at,
                                 [("scanId", .string(id)), ("reason", .string(reason.rawValue)), ("message", EventData.string(message))])]
        }
    }

    /// The scan whose id is `prefix`, or starts with it (4 or more characters, matching one scan only).
    public func resolveScanId(_ prefix: String) throws(VeritrailError) -> String {
        try answer(asOf: nil, now: nil) { context in try ScanIdPrefix.resolve(prefix, context) }
    }

    /// Records `actor`'s search and answers it like `history` with `search` (`veritrail search`); needs no
    /// passcode.
    public func search(_ text: String, window: HistoryWindow? = nil, limit: Int = 50, as actor: String,
                       options: WriteOptions = WriteOptions()) throws(VeritrailError) -> JSONValue {
        try recordSearch(text, window: window, limit: limit, as: actor, options: options).history
    }

    /// `search`, saying too whether the search was in the log already (a retry under its id, which writes
    /// nothing: the server answers it 200, not 201).
    public func recordSearch(_ text: String, window: HistoryWindow? = nil, limit: Int = 50, as actor: String,
                             options: WriteOptions = WriteOptions()) throws(VeritrailError) -> (history: JSONValue, alreadyRecorded: Bool) {
        let appended = try appendGated(as: nil, passcode: nil, options: options) { at, _ in
            [try EventData.event(.searchPerformed, actor: actor, at: at, [("username", .string(actor)), ("query", .string(text))])]
        }
        var query = HistoryQuery()
        query.search = text
        query.window = window
        query.limit = limit
        return (try history(query, viewer: actor), !appended.contains(where: \.isNew))
    }
}
