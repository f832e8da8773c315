import LMDB

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
public struct KeptCodes {
    /// The sum of the stored entries' hashes.
    private let stored: UInt64
    /// The codes the stored table counts more than once, each held as 1 + the scans of it applied so far
    /// (a held count is at least 1).
    private var repeated = HeldCodes()
    /// The sum of the hashes of the entries the scans applied so far give, the repeated codes' left out
    /// until `isStoredTable`.
    private var given: UInt64 = 0

    private init(stored: UInt64, repeated: HeldCodes) {
        self.stored = stored
        self.repeated = repeated
    }

    /// Reads the stored table, checking that a lookup finds each key where the walk finds it (an import
    /// counts codes by lookups). Nil when the table can not be kept this way: an entry of
    /// another shape, a key a lookup does not find, or more codes counted more than once than a rebuild
    /// would hold (`CodeCounts.heldLimit`: their memory).
    public static func read(_ tables: StoredTables, makingSearchIndex: Bool) throws -> KeptCodes? {
        try read(tables, limit: CodeCounts.heldLimit(makingSearchIndex: makingSearchIndex))
    }

    static func read(_ tables: StoredTables, limit: Int) throws -> KeptCodes? {
        var stored: UInt64 = 0
        var repeated = HeldCodes()
        let keepable = try tables.forEachReachableEntry(.codes) { key, value in
            guard key.count == 16, value.count == 4 else { return false }
            let count = UInt32(bigEndian: value.loadUnaligned(as: UInt32.self))
            stored &+= entry(key: EntryHash.of(key), count: count)
            if count > 1 { repeated.set(CodeDigest(storedKey: key), to: 1) }
            return repeated.count <= limit
        }
        return keepable ? KeptCodes(stored: stored, repeated: repeated) : nil
    }

    /// How many scans had the code before this one, which it counts.
    mutating func countOne(_ code: CodeDigest) -> UInt32 {
        guard let held = repeated[code] else {
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
