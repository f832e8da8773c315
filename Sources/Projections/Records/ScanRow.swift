import Domain

/// One scan as the history shows it: the recorded scan, who and when, how often its code was seen
/// before, and its report once there is one.
///
/// Stored by scan ordinal (1, 2, 3, … in log order) as a header that filters read without decoding the
/// rest, `[seq 8][at 8][flags 1][actor][category][search text]`, then `seenBefore` and the report. The search
/// text is the lower-cased searchable fields, each followed by a 0 byte, so `history --search` is a byte
/// search over the header. The scan itself is not copied into the row: it is read from the log by `seq`.
public struct ScanRow: Sendable, Equatable {
    public var seq: UInt64
    public var at: Timestamp
    public var actor: String
    public var scan: ScanRecorded
    public var seenBefore: Int
    public var report: Report?

    public struct Report: Sendable, Equatable {
        public var reason: ReportReason
        public var message: String?
        public var at: Timestamp
        public var by: String
    }

    static let counterfeitFlag: UInt8 = 1
    static let reportedFlag: UInt8 = 2

    /// The fields `--search` looks in (projections.md §1), lower-cased, each followed by a 0 byte.
    func appendSearchText(to out: inout [UInt8]) {
        func field(_ text: String?) {
            if let text { CaseFolding.appendLowercased(text, to: &out) }
            out.append(0)
        }
        field(scan.scanId); field(scan.code); field(scan.productName); field(scan.brand); field(scan.category)
        field(scan.location); field(scan.batchId); field(scan.notes); field(actor); field(report?.message)
    }

    func encoded() -> [UInt8] {
        var s = BinaryFieldSink()
        s.bytes.reserveCapacity(400)
        s.fixed64(seq)
        s.fixed64(UInt64(bitPattern: at.microseconds))
        s.bytes.append((scan.result == .counterfeit ? ScanRow.counterfeitFlag : 0) | (report != nil ? ScanRow.reportedFlag : 0))
        s.raw(actor)
        s.raw(scan.category)
        // The search text goes after its length, which is known only once it is written.
        var text: [UInt8] = []
        text.reserveCapacity(256)
        appendSearchText(to: &text)
        s.varint(UInt64(text.count))
        s.bytes.append(contentsOf: text)
        s.varint(UInt64(seenBefore))
        s.optionalObject("", report) { s, r in
            s.choice("", r.reason); s.optionalString("", r.message); s.signed(r.at.microseconds); s.raw(r.by)
        }
        return s.bytes
    }

    init(seq: UInt64, at: Timestamp, actor: String, scan: ScanRecorded, seenBefore: Int, report: Report? = nil) {
        self.seq = seq; self.at = at; self.actor = actor; self.scan = scan; self.seenBefore = seenBefore; self.report = report
    }

    /// Decodes a stored row; `scan` gives the recorded scan at a seq (from the log).
    init(decoding bytes: UnsafeRawBufferPointer, scan: (UInt64) throws -> ScanRecorded) throws {
        let header = try ScanRowHeader(bytes)
        var s = BinaryFieldSource(bytes: bytes, position: header.end)
        seq = header.seq
        at = header.at
        actor = String(decoding: header.actor, as: UTF8.self)
        self.scan = try scan(header.seq)
        seenBefore = Int(try s.varint("seenBefore"))
        report = try s.optionalObject("report") { (s: inout BinaryFieldSource) throws(FieldError) in
            Report(reason: try s.choice("reason", ReportReason.self), message: try s.optionalString("message", .code),
                   at: Timestamp(microseconds: try s.signed("at")), by: try s.raw("by"))
        }
    }
}

/// The header of a stored `ScanRow`, read in place: what the history filters need.
struct ScanRowHeader {
    var seq: UInt64
    var at: Timestamp
    var flags: UInt8
    var actor: UnsafeRawBufferPointer
    var category: UnsafeRawBufferPointer
    var searchText: UnsafeRawBufferPointer
    /// Where the rest of the row begins.
    var end: Int

    init(_ bytes: UnsafeRawBufferPointer) throws(FieldError) {
        var s = BinaryFieldSource(bytes: bytes)
        seq = try s.fixed64("seq")
        at = Timestamp(microseconds: Int64(bitPattern: try s.fixed64("at")))
        flags = try s.byte("flags")
        actor = try s.slice("actor", count: Int(try s.varint("actor")))
        category = try s.slice("category", count: Int(try s.varint("category")))
        searchText = try s.slice("searchText", count: Int(try s.varint("searchText")))
        end = s.position
    }

    var isCounterfeit: Bool { flags & ScanRow.counterfeitFlag != 0 }
    var isReported: Bool { flags & ScanRow.reportedFlag != 0 }

    /// The `at` of a stored row, read from its fixed place.
    static func at(_ bytes: UnsafeRawBufferPointer) -> Timestamp {
        Timestamp(microseconds: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: Int64.self)))
    }
}
