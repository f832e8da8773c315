import LMDB
import EventLog
/// The scan list written row by row: the store's own models, kept event by event in the log's write
/// transaction (and a rebuild that starts from empty tables).
///
/// The index entries whose keys are random (`codes`) or runs of their own (`scansByActor`) are held and
/// written in key order (`PendingIndexes`); once a write has held `PendingIndexes.limit` codes, a Bloom
/// filter of the stored codes (`CodeFilter`) answers "never seen" without a search of the codes table.
public final class WrittenScanList: ScanListStrategy {
    private var pending = PendingIndexes()
    /// The codes the `codes` table may hold, from the first time this write's held codes are written.
    private var codeFilter: CodeFilter?
    /// What follows a new scan's row header (`ScanRow.appendTail`), made in the same buffer each time.
    private var tailBuffer: [UInt8] = []

    public init() {}

    public func add(_ scan: () -> PreparedScan, seq: UInt64, place: ScanPlace, in models: Models) throws {
        let scan = scan()
        let seen = try codeCount(scan.code, in: models.tables)
        pending.codeCounts[scan.code] = seen + 1
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
            pending.actorScans[scan.counted.actor, default: (firstN: place.ofActor, ordinals: [])].ordinals.append(place.ordinal)
        }
        // Held entries cost memory: a long import writes them every so many scans.
        if pending.codeCounts.count >= PendingIndexes.limit { try writePending(models.tables, midWrite: true) }
    }

    public func report(_ report: ScanRow.Report, onScan ordinal: UInt32, in models: Models) throws -> String {
        var row = try models.scanRow(ordinal)
        row.report = report
        try models.tables.put(.scans, Models.ordinalKey(ordinal), row.encoded())
        return row.actor
    }

    public func heldOrdinal(actor: String, _ n: UInt32) -> UInt32? { pending.ordinal(actor: actor, n) }

    public func flush(_ tables: any ModelTables) throws { try writePending(tables, midWrite: false) }

    /// Writes the held index entries; `midWrite` when the write goes on after (the held codes reached
    /// their limit).
    private func writePending(_ tables: any ModelTables, midWrite: Bool) throws {
        guard !pending.isEmpty else { return }
        let codes = try pending.write(to: tables)
        pending = PendingIndexes()
        // The filter is made when a write first reaches the limit, after the codes are written (from the
        // table, which holds them), not when a small write ends (it would read the whole table); once made,
        // it is kept up to date.
        if let count = codeFilter?.count, let capacity = codeFilter?.capacity, count + codes.count <= capacity {
            for (digest, _) in codes { codeFilter?.insert(digest) }
        } else if codeFilter != nil || midWrite {
            try makeCodeFilter(holding: codes.count, from: tables)
        }
    }

    /// How many scans had the code with this digest.
    private func codeCount(_ digest: CodeDigest, in tables: any ModelTables) throws -> UInt32 {
        if let count = pending.codeCounts[digest] { return count }
        if let codeFilter, !codeFilter.mayContain(digest) { return 0 }
        return try tables.withValue(.codes, digest.storedKey) { bytes in bytes.flatMap { UInt32(bigEndianBytes: $0) } } ?? 0
    }

    /// A code filter of every code in the `codes` table, which holds the codes of the filter before (if
    /// any) and `more`, with room for as many again (and at least a million): the table is read once, and
    /// again only when the filter is full. (A table with codes from before this write may hold more: the
    /// filter is then full sooner, and made again.)
    private func makeCodeFilter(holding more: Int, from tables: any ModelTables) throws {
        var filter = CodeFilter(capacity: max(2 * ((codeFilter?.count ?? 0) + more), 1 << 20))
        try tables.forEach(.codes, prefix: []) { key, _ in
            key.withUnsafeBytes { filter.insert(CodeDigest(storedKey: $0)) }
            return true
        }
        codeFilter = filter
    }
}
