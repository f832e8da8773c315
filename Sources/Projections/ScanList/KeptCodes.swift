public import LMDB

/// The `codes` table as a rebuild that keeps the scan list checks it, instead of emptying it and writing it
/// again: at ten million events the table holds millions of random keys, and writing it again, a million
/// held codes at a time, was about a third of the rebuild's time on its applying thread (docs/BULK.md).
///
/// How each scan's `seenBefore` is known without the table: one walk of the stored table, before the rebuild
/// applies any event, holds the codes it counts more than once (`repeated`), whose scans are then counted in
/// memory. Every other code is taken to be scanned once, so each of its scans has `seenBefore` 0 and adds the
/// entry (code, 1). The entries the log gives are summed as `ScanListDigest` sums the list (a keyed hash of
/// each, under the process's random seed), and the walk sums the stored ones. The sums are equal only when
/// the stored table is the one the log gives (but for a chance of about 2⁻⁶⁴): a code the table counts once
/// or not at all that the log scans twice adds (code, 1) twice, which no table of distinct keys sums to;
/// a repeated code the log scans once adds (code, 1), where the table holds another count. So equal sums
/// also mean that every `seenBefore` taken is right, and the rebuild may then check the scan list with them.
/// When they differ, the rebuild starts again and writes the table (`CodeCounts`).
public struct KeptCodes: Sendable {
    /// The sum of the stored entries' hashes.
    private let stored: UInt64
    /// The codes the stored table counts more than once, each held as 1 + the scans of it applied so far
    /// (a held count is at least 1).
    private var repeated = HeldCodes()
    /// The repeated codes as a Bloom filter, a byte a code against the table's 48: nearly every code is not
    /// one, and the filter, small enough to stay in the processor's cache, says so without a read of the
    /// table at random (a miss of the cache for nearly every scan). At 16 bits a code it was 1 MB at ten
    /// million events, the size of the second-level cache, and each look missed it (docs/BULK.md); at 8, the
    /// 2.4% of codes it lets through cost a look at `repeated`.
    private let mayBeRepeated: CodeFilter
    /// The sum of the hashes of the entries the scans applied so far give, the repeated codes' left out
    /// until `isStoredTable`.
    private var given: UInt64 = 0

    private init(stored: UInt64, repeated: HeldCodes) {
        self.stored = stored
        self.repeated = repeated
        var filter = CodeFilter(capacity: max(repeated.count, 1), bitsPerDigest: 8)
        repeated.forEach { code, _ in filter.insert(code) }
        mayBeRepeated = filter
    }

    /// Reads the stored table in `transaction`, a read transaction. Its pages are audited as `log verify`
    /// audits them (`PageAudit`: bounds, offsets, keys in order and where lookups find them, which an
    /// import's counts need), and its entries read by the same walk, so that a damaged page is never read as
    /// entries (a walk by cursor would run off it). Nil when the table can not be kept this way: a damaged
    /// page, an entry of another shape, or more codes counted more than once than a rebuild would hold
    /// (`CodeCounts.heldLimit`: their memory).
    public static func read(_ transaction: Transaction, makingSearchIndex: Bool) throws -> KeptCodes? {
        try read(transaction, limit: CodeCounts.heldLimit(makingSearchIndex: makingSearchIndex))
    }

    static func read(_ transaction: Transaction, limit: Int) throws -> KeptCodes? {
        var stored: UInt64 = 0
        var repeated = HeldCodes()
        let damage: [DamagedPage]
        do {
            damage = try PageAudit.run(transaction, only: ModelTable.codes.name) { _ in
                { key, value in
                    guard key.count == 16, value.count == 4 else { return "an entry of another shape" }
                    let count = UInt32(bigEndian: value.loadUnaligned(as: UInt32.self))
                    stored &+= entry(key: EntryHash.of(key), count: count)
                    guard count > 1 else { return nil }
                    repeated.set(CodeDigest(storedKey: key), to: 1)
                    return repeated.count > limit ? "more codes counted more than once than a rebuild holds" : nil
                }
            }
        } catch is SnapshotMoved {
            return nil
        }
        return damage.isEmpty ? KeptCodes(stored: stored, repeated: repeated) : nil
    }

    /// How many scans had the code before this one, which it counts.
    mutating func countOne(_ code: CodeDigest) -> UInt32 {
        guard mayBeRepeated.mayContain(code), let held = repeated[code] else {
            given &+= Self.entry(key: EntryHash.of(code), count: 1)
            return 0
        }
        repeated.set(code, to: held + 1)
        return held - 1
    }

    /// Whether the stored table is the one the log gives, once every scan is counted.
    var isStoredTable: Bool {
        var total = given
        repeated.forEach { code, held in
            if held > 1 { total &+= Self.entry(key: EntryHash.of(code), count: held - 1) }
        }
        return total == stored
    }

    /// The hash of an entry of the table: its key's hash and its count.
    private static func entry(key: UInt64, count: UInt32) -> UInt64 { EntryHash.combine(key, EntryHash.of(count)) }
}
