import LMDB
import EventLog
/// The scan list written row by row: the store's own models, kept event by event in the log's write
/// transaction (and a rebuild that starts from empty tables).
///
/// The index entries whose keys are random (`codes`, `CodeCounts`) or runs of their own (`scansByActor`,
/// `PendingIndexes`) are held and written in key order, each whenever it reaches its limit.
public final class WrittenScanList: ScanListStrategy {
    private var codes = CodeCounts(limit: CodeCounts.importLimit)
    private var pending = PendingIndexes()
    /// What follows a new scan's row header (`ScanRow.appendTail`), made in the same buffer each time.
    private var tailBuffer: [UInt8] = []

    public init() {}

    public func add(_ scan: () -> PreparedScan, seq: UInt64, place: ScanPlace, in models: Models) throws {
        let scan = scan()
        let seen = try codes.countOne(scan.code, in: models.tables)
        tailBuffer.removeAll(keepingCapacity: true)
        ScanRow.appendTail(seenBefore: Int(seen), report: nil, to: &tailBuffer)
        try scan.withHeaderAndScanId { header, scanId in
            var row: [UInt8] = []
            row.reserveCapacity(header.count + tailBuffer.count)
            row.append(contentsOf: header)
            // A scan made ready before it was logged has no seq in its header yet.
            ScanRow.setSeq(seq, inHeader: &row)
            row.append(contentsOf: tailBuffer)
            try models.tables.insert(.scans, Models.ordinalKey(place.ordinal), row)
            try models.tables.insert(.scanIds, Array(scanId), place.ordinal.bigEndianBytes)
            pending.add(actor: scan.counted.actor, place.ofActor, ordinal: place.ordinal)
        }
        // Held entries cost memory: a long import writes them every so many scans.
        if codes.isFull { try codes.write(to: models.tables, midWrite: true) }
        if pending.isFull { try writeHeldActorScans(models.tables) }
    }

    public func report(_ report: ScanRow.Report, onScan ordinal: UInt32, in models: Models) throws -> String {
        var row = try models.scanRow(ordinal)
        row.report = report
        try models.tables.put(.scans, Models.ordinalKey(ordinal), row.encoded())
        return row.actor
    }

    public func heldOrdinal(actor: String, _ n: UInt32) -> UInt32? { pending.ordinal(actor: actor, n) }

    public func flush(_ tables: any ModelTables) throws {
        try codes.write(to: tables, midWrite: false)
        try writeHeldActorScans(tables)
    }

    private func writeHeldActorScans(_ tables: any ModelTables) throws {
        guard !pending.isEmpty else { return }
        try pending.write(to: tables)
        pending = PendingIndexes()
    }
}
