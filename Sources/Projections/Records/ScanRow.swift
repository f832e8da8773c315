import Domain

/// One scan as the history shows it: the recorded scan, who and when, how often its code was seen
/// before, and its report once there is one.
///
/// Stored by scan ordinal (1, 2, 3, … in log order). The scan itself is not copied into the row: it is read
/// from the log by `seq`. The row begins with a header that the history filters read in place:
///
///     [seq 8][at 8][flags 1][report seq 8, when reported][actor][category][search text][field lengths]
///
/// then `seenBefore` and the report. The search text is the lower-cased searchable fields, each followed by
/// a 0 byte, so `history --search` is one byte search over it; the field lengths (one varint per field) say
/// where each field ends, for a needle that itself holds a 0 byte. The report's message is the last field.
///
/// The scan list only grows, and a row never changes but for its report, so the rows of a prefix of the log
/// are the first rows of the stored table. The report seq lets a replay of a prefix (`--as-of`) read those
/// rows as they were then: a report made after the prefix is left out (`ScanRowHeader(_:reportsThrough:)`).
public struct ScanRow: Sendable, Equatable {
    public var seq: UInt64
    public var at: Timestamp
    public var actor: String
    public var scan: ScanRecorded
    public var seenBefore: Int
    public var report: Report?

    public struct Report: Sendable, Equatable {
        public var seq: UInt64
        public var reason: ReportReason
        public var message: String?
        public var at: Timestamp
        public var by: String
    }

    static let counterfeitFlag: UInt8 = 1
    static let reportedFlag: UInt8 = 2
    /// How many fields the search text has (projections.md §1); the report's message is the last.
    /// The fields `--search` looks in (projections.md §1), in stored order, are the scan's `scanId`, `code`,
    /// `productName`, `brand`, `category`, `location`, `batchId`, `notes`, then the row's `actor` and the
    /// report's `message`.
    static let searchFieldCount = 10

    func encoded() -> [UInt8] {
        var bytes = ScanRow.encodedHeader(seq: seq, at: at, actor: actor, scan: scan, report: report)
        appendTail(to: &bytes)
        return bytes
    }

    /// The stored header (see the type's comment): everything but `seenBefore` and the report, which
    /// follow it. It is the costly part of a row (the lower-cased search text), and needs no other scan, so
    /// a rebuild makes it on the thread that decodes (`PreparedScan`).
    static func encodedHeader(seq: UInt64, at: Timestamp, actor: String, scan: ScanRecorded, report: Report?) -> [UInt8] {
        var s = BinaryFieldSink()
        s.bytes.reserveCapacity(400)
        s.fixed64(seq)
        s.fixed64(UInt64(bitPattern: at.microseconds))
        s.bytes.append((scan.result == .counterfeit ? ScanRow.counterfeitFlag : 0) | (report != nil ? ScanRow.reportedFlag : 0))
        if let report { s.fixed64(report.seq) }
        s.raw(actor)
        s.raw(scan.category)
        // The search text goes after its length, which is known only once it is written.
        var text: [UInt8] = []
        text.reserveCapacity(256)
        var lengths: [Int] = []
        lengths.reserveCapacity(ScanRow.searchFieldCount)
        let fields = [scan.scanId, scan.code, scan.productName, scan.brand, scan.category, scan.location, scan.batchId,
                      scan.notes, actor, report?.message]
        for field in fields {
            let start = text.count
            if let field { CaseFolding.appendLowercased(field, to: &text) }
            lengths.append(text.count - start)
            text.append(0)
        }
        s.varint(UInt64(text.count))
        s.bytes.append(contentsOf: text)
        for length in lengths { s.varint(UInt64(length)) }
        return s.bytes
    }

    /// Appends what follows the header: `seenBefore` and the report.
    func appendTail(to bytes: inout [UInt8]) {
        var s = BinaryFieldSink(bytes: bytes)
        bytes = []
        s.varint(UInt64(seenBefore))
        s.optionalObject("", report) { s, r in
            s.choice("", r.reason); s.optionalString("", r.message); s.signed(r.at.microseconds); s.raw(r.by)
        }
        bytes = s.bytes
    }

    init(seq: UInt64, at: Timestamp, actor: String, scan: ScanRecorded, seenBefore: Int, report: Report? = nil) {
        self.seq = seq; self.at = at; self.actor = actor; self.scan = scan; self.seenBefore = seenBefore; self.report = report
    }

    /// Decodes a stored row as it was once the events through `reportsThrough` were applied; `scan` gives
    /// the recorded scan at a seq (from the log).
    init(decoding bytes: UnsafeRawBufferPointer, reportsThrough: UInt64, scan: (UInt64) throws -> ScanRecorded) throws {
        let header = try ScanRowHeader(bytes, reportsThrough: reportsThrough)
        var s = BinaryFieldSource(bytes: bytes, position: header.end)
        seq = header.seq
        at = header.at
        actor = String(decoding: header.actor, as: UTF8.self)
        self.scan = try scan(header.seq)
        seenBefore = Int(try s.varint("seenBefore"))
        let stored = try s.optionalObject("report") { (s: inout BinaryFieldSource) throws(FieldError) in
            Report(seq: header.reportSeq, reason: try s.choice("reason", ReportReason.self),
                   message: try s.optionalString("message", .code), at: Timestamp(microseconds: try s.signed("at")),
                   by: try s.raw("by"))
        }
        report = header.isReported ? stored : nil
    }
}

/// The header of a stored `ScanRow`, read in place: what the history filters need.
struct ScanRowHeader {
    var seq: UInt64
    var at: Timestamp
    var flags: UInt8
    /// The seq of the report, or 0.
    var reportSeq: UInt64
    var actor: UnsafeRawBufferPointer
    var category: UnsafeRawBufferPointer
    /// The lower-cased search fields, each followed by a 0 byte (without the report's message while the
    /// report is left out).
    var searchText: UnsafeRawBufferPointer
    /// The length of each search field, as varints.
    var fieldLengths: UnsafeRawBufferPointer
    /// Where the rest of the row begins.
    var end: Int

    /// Reads the header of a row as it was once the events through `reportsThrough` were applied: a later
    /// report is left out.
    init(_ bytes: UnsafeRawBufferPointer, reportsThrough: UInt64) throws(FieldError) {
        var s = BinaryFieldSource(bytes: bytes)
        seq = try s.fixed64("seq")
        at = Timestamp(microseconds: Int64(bitPattern: try s.fixed64("at")))
        flags = try s.byte("flags")
        reportSeq = flags & ScanRow.reportedFlag != 0 ? try s.fixed64("reportSeq") : 0
        actor = try s.slice("actor", count: Int(try s.varint("actor")))
        category = try s.slice("category", count: Int(try s.varint("category")))
        searchText = try s.slice("searchText", count: Int(try s.varint("searchText")))
        let lengthsStart = s.position
        var lastLength = 0
        for _ in 0..<ScanRow.searchFieldCount { lastLength = Int(try s.varint("searchText")) }
        fieldLengths = UnsafeRawBufferPointer(rebasing: bytes[lengthsStart..<s.position])
        end = s.position
        if reportSeq > reportsThrough {
            flags &= ~ScanRow.reportedFlag
            reportSeq = 0
            // The message is the last field: drop it with its 0 byte.
            searchText = UnsafeRawBufferPointer(rebasing: searchText[..<(searchText.count - lastLength - 1)])
        }
    }

    var isCounterfeit: Bool { flags & ScanRow.counterfeitFlag != 0 }
    var isReported: Bool { flags & ScanRow.reportedFlag != 0 }

    /// Each search field's lower-cased bytes, in stored order.
    var searchFields: [UnsafeRawBufferPointer] {
        var lengths = BinaryFieldSource(bytes: fieldLengths)
        var fields: [UnsafeRawBufferPointer] = []
        var start = 0
        while start < searchText.count, let length = try? lengths.varint("searchText") {
            let end = min(start + Int(length), searchText.count)
            fields.append(UnsafeRawBufferPointer(rebasing: searchText[start..<end]))
            start = end + 1
        }
        return fields
    }

    /// The `at` of a stored row, read from its fixed place.
    static func at(_ bytes: UnsafeRawBufferPointer) -> Timestamp {
        Timestamp(microseconds: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: Int64.self)))
    }
}

/// The part of a new scan's row and index entries that needs no other event: made on the thread that
/// decodes, so that the thread applying events (which must go one at a time) does less.
public struct PreparedScan: Sendable {
    /// The row's header (`ScanRow.encodedHeader`).
    let header: [UInt8]
    let code: CodeDigest

    public init(seq: UInt64, at: Timestamp, actor: String, scan: ScanRecorded) {
        header = ScanRow.encodedHeader(seq: seq, at: at, actor: actor, scan: scan, report: nil)
        code = CodeDigest(scan.code)
    }
}
