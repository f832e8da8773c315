/// The scan list of a rebuild that keeps the stored list: nothing is written to the list or its two
/// indexes; every entry the log gives is summed into `digest`, which the rebuild compares with the stored
/// list's (`ScanListDigest(of:)`). Only the `codes` table, emptied by the rebuild, is written again, as
/// an import writes it (`CodeCounts`: the memory held does not grow with the log).
public final class CheckedScanList: ScanListStrategy {
    /// The digest of the scan list as the log gives it.
    public private(set) var digest = ScanListDigest()
    /// The rebuild emptied the `codes` table (`Store.rebuild`).
    private var codes: CodeCounts
    private var tailBuffer: [UInt8] = []

    /// `makingSearchIndex`: whether the rebuild makes the search index too, whose sets then take the
    /// memory (about 100 MB): the counts of as many codes as an import's are held (`CodeCounts.importLimit`,
    /// about 5 MB) instead of a million (40–60 MB), and written to the table more often.
    public init(makingSearchIndex: Bool) {
        codes = CodeCounts(limit: makingSearchIndex ? CodeCounts.importLimit : CodeCounts.rebuildLimit, tableIsEmpty: true)
    }

    public func add(_ scan: () -> PreparedScan, seq: UInt64, place: ScanPlace, in models: Models) throws {
        let scan = scan()
        let seen = try codes.countOne(scan.code, in: models.tables)
        tailBuffer.removeAll(keepingCapacity: true)
        ScanRow.appendTail(seenBefore: Int(seen), report: nil, to: &tailBuffer)
        let ordinal = EntryHash.of(place.ordinal), hashes = scan.entryHashes()
        digest.addRow(key: ordinal, header: hashes.header, tail: EntryHash.of(tailBuffer))
        digest.addScanId(hashes.scanId, ordinal: ordinal)
        digest.addActorScan(actor: hashes.actor, n: EntryHash.of(place.ofActor), ordinal: ordinal)
        if codes.isFull { try codes.write(to: models.tables, midWrite: true) }
    }

    /// The stored row is taken as it was before this report; were it stale, the sums differ.
    public func report(_ report: ScanRow.Report, onScan ordinal: UInt32, in models: Models) throws -> String {
        var row = try models.scanRow(ordinal)
        row.report = nil
        let before = row.encodedParts()
        digest.removeRow(key: EntryHash.of(ordinal), header: EntryHash.of(before.header), tail: EntryHash.of(before.tail))
        row.report = report
        let after = row.encodedParts()
        digest.addRow(key: EntryHash.of(ordinal), header: EntryHash.of(after.header), tail: EntryHash.of(after.tail))
        return row.actor
    }

    public func flush(_ tables: any ModelTables) throws { try codes.write(to: tables, midWrite: false) }
}
