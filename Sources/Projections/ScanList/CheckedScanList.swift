/// The scan list of a rebuild that keeps the stored list: nothing is written to the list or its two
/// indexes; every entry the log gives is summed into `digest`, which the rebuild compares with the stored
/// list's (`ScanListDigest(of:)`). Only the `codes` table, emptied by the rebuild, is written again.
///
/// Every distinct code's count is held until `flush` (about 50 bytes a code, with the dictionary's spare
/// room), so that the rebuild never looks a code up in the table it is writing.
public final class CheckedScanList: ScanListStrategy {
    /// The digest of the scan list as the log gives it.
    public private(set) var digest = ScanListDigest()
    private var codeCounts: [CodeDigest: UInt32] = [:]
    private var tailBuffer: [UInt8] = []

    /// `codes` is about how many distinct codes the log has (the stored table's count), so that holding
    /// them all never has to grow.
    public init(codes: Int) { codeCounts.reserveCapacity(codes) }

    public func add(_ scan: () -> PreparedScan, seq: UInt64, place: ScanPlace, in models: Models) throws {
        let scan = scan()
        let seen = CheckedScanList.countOne(&codeCounts[scan.code, default: 0])
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
        var pending = PendingIndexes()
        pending.codeCounts = codeCounts
        _ = try pending.write(to: tables)
    }

    /// Adds one to `count`; returns it as it was.
    private static func countOne(_ count: inout UInt32) -> UInt32 {
        defer { count += 1 }
        return count
    }
}
