/// The scan list of a rebuild that keeps the stored list: nothing is written to the list or its two
/// indexes; every entry the log gives is summed into `digest`, which the rebuild compares with the stored
/// list's (`ScanListDigest(of:)`). The `codes` table is checked the same way and kept (`KeptCodes`), or,
/// emptied by the rebuild, written again as an import writes it (`CodeCounts`: the memory held does not
/// grow with the log).
public final class CheckedScanList: ScanListStrategy {
    // Changed for every scan a rebuild applies, each in place by this class's own code, which calls out to
    // nothing that reaches them again: unchecked for overlapping access at run time, as `Models`' caches are.
    /// The digest of the scan list as the log gives it.
    @exclusivity(unchecked) public private(set) var digest = ScanListDigest()
    /// The stored `codes` table checked, or (nil) the table written again by `writtenCodes`. Two optionals
    /// rather than an enum: a count taken through an enum's payload would copy the held codes' table.
    @exclusivity(unchecked) private var keptCodes: KeptCodes?
    @exclusivity(unchecked) private var writtenCodes: CodeCounts?
    @exclusivity(unchecked) private var tailBuffer: [UInt8] = []

    /// A list that writes the `codes` table again; `makingSearchIndex`: whether the rebuild makes the search
    /// index too, and so holds fewer codes (`CodeCounts.heldLimit`).
    public init(makingSearchIndex: Bool) {
        writtenCodes = CodeCounts(limit: CodeCounts.heldLimit(makingSearchIndex: makingSearchIndex), tableIsEmpty: true)
    }

    /// A list that keeps the stored `codes` table (`KeptCodes.read`), if the log gives it (`keptCodesHold`).
    public init(keeping codes: KeptCodes) {
        keptCodes = codes
    }

    /// Whether the `codes` table is the log's: always, when it is written again; when it is kept, only once
    /// every event is applied, and then the `seenBefore` this list took, and so its digest, are right only
    /// if it is.
    public var keptCodesHold: Bool {
        keptCodes?.isStoredTable ?? true
    }

    public func add(_ scan: () -> PreparedScan, seq: UInt64, place: ScanPlace, in models: Models) throws {
        let scan = scan()
        let seen: UInt32
        if let kept = keptCodes?.countOne(scan.code) {
            seen = kept
        } else {
            seen = try writtenCodes?.countOne(scan.code, in: models.tables) ?? 0
            if writtenCodes?.isFull == true { try writtenCodes?.write(to: models.tables, midWrite: true) }
        }
        tailBuffer.removeAll(keepingCapacity: true)
        ScanRow.appendTail(seenBefore: Int(seen), report: nil, to: &tailBuffer)
        let ordinal = EntryHash.of(place.ordinal), hashes = scan.entryHashes()
        digest.addRow(key: ordinal, header: hashes.header, tail: EntryHash.of(tailBuffer))
        digest.addScanId(hashes.scanId, ordinal: ordinal)
        digest.addActorScan(actor: hashes.actor, n: EntryHash.of(place.ofActor), ordinal: ordinal)
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

    public func flush(_ tables: any ModelTables) throws {
        try writtenCodes?.write(to: tables, midWrite: false)
    }
}
