public import Domain
public import EventLog

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
    /// Where the row's `actor` is among the search fields.
    static let actorField = 8

    func encoded() -> [UInt8] {
        let (header, tail) = encodedParts()
        return header + tail
    }

    /// The stored row as its header and what follows it.
    func encodedParts() -> (header: [UInt8], tail: [UInt8]) {
        var tail: [UInt8] = []
        appendTail(to: &tail)
        return (ScanRow.encodedHeader(seq: seq, at: at, actor: actor, scan: scan, report: report), tail)
    }

    /// The stored header (see the type's comment): everything but `seenBefore` and the report, which
    /// follow it. It is the costly part of a row (the lower-cased search text), and needs no other scan, so
    /// a rebuild makes it on the thread that decodes (`PreparedScan`).
    static func encodedHeader(seq: UInt64, at: Timestamp, actor: String, scan: ScanRecorded, report: Report?) -> [UInt8] {
        ScanText.with(scan) { text in
            encodedHeader(seq: seq, at: at, actor: actor, text: text, counterfeit: scan.result == .counterfeit,
                          report: report.map { ($0.seq, $0.message) })
        }
    }

    /// The same from the scan's text as bytes (`report` is the report's seq and message).
    static func encodedHeader(seq: UInt64, at: Timestamp, actor: String, text: ScanText, counterfeit: Bool,
                              report: (seq: UInt64, message: String?)?) -> [UInt8] {
        var s = BinaryFieldSink()
        // Room for the rest of a row, or a scanId (`PreparedScan`), without growing.
        s.bytes.reserveCapacity(512)
        s.fixed64(seq)
        s.fixed64(UInt64(bitPattern: at.microseconds))
        s.bytes.append((counterfeit ? ScanRow.counterfeitFlag : 0) | (report != nil ? ScanRow.reportedFlag : 0))
        if let report { s.fixed64(report.seq) }
        s.raw(actor)
        s.varint(UInt64(text.category.count))
        s.bytes.append(contentsOf: text.category)
        // The search text goes after its length, a varint known only once the text is written: the text is
        // written in place after room for a varint of two bytes (a text of 128 to 16,383 bytes), and moved
        // when its varint takes another size. The field lengths (`searchFieldCount` varints) after it. (A
        // buffer of its own for each, copied in, was two allocations a scan.)
        let lengthAt = s.bytes.count
        s.bytes.append(0)
        s.bytes.append(0)
        var actor = actor, message = report?.message
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: searchFieldCount) { lengths in
            // The fields in `searchFieldCount`'s order (one call each: a list of them would be an allocation).
            appendSearchField(0, text.scanId, to: &s.bytes, lengths: lengths)
            appendSearchField(1, text.code, to: &s.bytes, lengths: lengths)
            appendSearchField(2, text.productName, to: &s.bytes, lengths: lengths)
            appendSearchField(3, text.brand, to: &s.bytes, lengths: lengths)
            appendSearchField(4, text.category, to: &s.bytes, lengths: lengths)
            appendSearchField(5, text.location, to: &s.bytes, lengths: lengths)
            appendSearchField(6, text.batchId, to: &s.bytes, lengths: lengths)
            appendSearchField(7, text.notes, to: &s.bytes, lengths: lengths)
            actor.withUTF8 { appendSearchField(8, UnsafeRawBufferPointer($0), to: &s.bytes, lengths: lengths) }
            if message != nil {
                message!.withUTF8 { appendSearchField(9, UnsafeRawBufferPointer($0), to: &s.bytes, lengths: lengths) }
            } else {
                appendSearchField(9, nil, to: &s.bytes, lengths: lengths)
            }
            var length = UInt64(s.bytes.count - lengthAt - 2), at = lengthAt
            while true {
                let byte = length >= 0x80 ? UInt8(truncatingIfNeeded: length) | 0x80 : UInt8(length)
                if at < lengthAt + 2 { s.bytes[at] = byte } else { s.bytes.insert(byte, at: at) }
                at += 1
                if length < 0x80 { break }
                length >>= 7
            }
            if at == lengthAt + 1 { s.bytes.remove(at: at) }
            for fieldLength in lengths { s.varint(UInt64(fieldLength)) }
            return s.bytes
        }
    }

    /// Appends search field number `n`, lower-cased, and its 0 byte to `text`, and its length to `lengths`.
    private static func appendSearchField(_ n: Int, _ field: UnsafeRawBufferPointer?, to text: inout [UInt8],
                                          lengths: UnsafeMutableBufferPointer<Int>) {
        let start = text.count
        if let field { CaseFolding.appendLowercased(utf8: field, to: &text) }
        lengths[n] = text.count - start
        text.append(0)
    }

    /// Sets the seq of the row whose header starts `row` (its first field).
    static func setSeq(_ seq: UInt64, inHeader row: inout [UInt8]) {
        row.withUnsafeMutableBytes { $0.storeBytes(of: seq.littleEndian, toByteOffset: 0, as: UInt64.self) }
    }

    /// Appends what follows the header: `seenBefore` and the report.
    func appendTail(to bytes: inout [UInt8]) {
        ScanRow.appendTail(seenBefore: seenBefore, report: report, to: &bytes)
    }

    static func appendTail(seenBefore: Int, report: Report?, to bytes: inout [UInt8]) {
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
        let tail = try ScanRow.decodeTail(&s, reportSeq: header.reportSeq)
        seenBefore = tail.seenBefore
        report = header.isReported ? tail.report : nil
    }

    /// Decodes what follows a stored row's header (`appendTail`): `seenBefore` and the report.
    static func decodeTail(_ s: inout BinaryFieldSource, reportSeq: UInt64) throws(FieldError) -> (seenBefore: Int, report: Report?) {
        let seenBefore = Int(try s.varint("seenBefore"))
        let report = try s.optionalObject("report") { (s: inout BinaryFieldSource) throws(FieldError) in
            Report(seq: reportSeq, reason: try s.choice("reason", ReportReason.self),
                   message: try s.optionalString("message", .code), at: Timestamp(microseconds: try s.signed("at")),
                   by: try s.raw("by"))
        }
        return (seenBefore, report)
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

/// A new scan as its row and index entries need it, made without any other event: on the thread that
/// decodes in a rebuild (from the stored bytes, without a `String` of each field), so that the thread
/// applying events (which must go one at a time) does less.
///
/// Why a type of its own: it is the costly part of a row (the lower-cased search text, the code's digest)
/// made ahead, on another thread than the one that appends, and owned (a `StoredScan`'s bytes are lent), so
/// it can cross threads. docs/READ_MODELS.md lists the views of a scan side by side.
public struct PreparedScan: Sendable {
    public let seq: UInt64
    public let counted: CountedScan
    /// The row's header (`ScanRow.encodedHeader`), then the scanId's bytes: one allocation for both.
    private let bytes: [UInt8]
    private let headerCount: Int
    let code: CodeDigest
    /// For a stored scan, the hashes a rebuild sums the scan list with (`ScanListDigest`), made here on
    /// the rebuild's decoding thread. A scan being appended (on the import's busiest thread) has none.
    private let hashes: EntryHashes?

    /// The hashes of the long parts of a scan's entries in the scan list.
    struct EntryHashes {
        var header: UInt64
        var scanId: UInt64
        var actor: UInt64
    }

    /// A scan decoded from the interchange form (`import`, a command), made before it is logged: `seq` is
    /// 0, in the header too, until `Models` lists it at its seq (`ScanRow.setSeq`).
    public init(at: Timestamp, actor: String, scan: ScanRecorded) {
        let counted = CountedScan(at: at, actor: actor, category: scan.category, isCounterfeit: scan.result == .counterfeit)
        self = ScanText.with(scan) { PreparedScan(seq: 0, counted: counted, text: $0, hashed: false) }
    }

    /// A stored scan, read in place (a rebuild). With `keepingRow` false, for a rebuild that keeps the scan
    /// list and the search index (`CheckedScanList`, which needs only the hashes), the row's bytes are hashed
    /// and let go here, on the decoding thread that made them: the scan then holds no memory of its own, and
    /// the applying thread, which reads it in place, neither frees nor retains any (docs/BULK.md).
    public init(seq: UInt64, stored: StoredScan, keepingRow: Bool = true) {
        self.init(seq: seq, counted: stored.counted, text: stored.text, hashed: true, keepingRow: keepingRow)
    }

    private init(seq: UInt64, counted: CountedScan, text: ScanText, hashed: Bool, keepingRow: Bool = true) {
        self.seq = seq
        self.counted = counted
        var bytes = ScanRow.encodedHeader(seq: seq, at: counted.at, actor: counted.actor, text: text,
                                          counterfeit: counted.isCounterfeit, report: nil)
        let headerCount = bytes.count
        bytes.append(contentsOf: text.scanId)
        code = CodeDigest(utf8: text.code)
        hashes = hashed ? PreparedScan.entryHashes(bytes, headerCount: headerCount, actor: counted.actor) : nil
        self.bytes = keepingRow ? bytes : []
        self.headerCount = keepingRow ? headerCount : 0
    }

    /// The hashes of the scan's entries' long parts (see `hashes`).
    func entryHashes() -> EntryHashes {
        hashes ?? PreparedScan.entryHashes(bytes, headerCount: headerCount, actor: counted.actor)
    }

    private static func entryHashes(_ bytes: [UInt8], headerCount: Int, actor: String) -> EntryHashes {
        bytes.withUnsafeBytes { b in
            var actor = actor
            return EntryHashes(header: EntryHash.of(b[..<headerCount]), scanId: EntryHash.of(b[headerCount...]),
                               actor: actor.withUTF8 { EntryHash.of(UnsafeRawBufferPointer($0)) })
        }
    }

    /// Calls `body` with the row's header and the scanId's bytes.
    func withHeaderAndScanId<R>(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        precondition(!bytes.isEmpty, "a scan prepared without its row (keepingRow: false) has no row to give")
        return try bytes.withUnsafeBytes { b in
            try body(UnsafeRawBufferPointer(rebasing: b[..<headerCount]), UnsafeRawBufferPointer(rebasing: b[headerCount...]))
        }
    }
}
