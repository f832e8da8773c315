import LMDB

/// How many scans had each code, as a write transaction leaves them: the `codes` table and the counts this
/// write holds on top of it, in memory bounded by `limit` whatever the length of the write.
///
/// The counts of the codes a write meets are held and written in key order (one sorted pass through the
/// B-tree instead of a search from the root for every scan: the codes are random keys). Once a write has
/// held `limit` codes they are written, and from then on a Bloom filter of the stored codes (`CodeFilter`)
/// answers "never seen" without a search of the table. An import and a rebuild that writes the scan list
/// (`WrittenScanList`) count this way, and so does a rebuild that keeps it (`CheckedScanList`): it held
/// every code of the log, ~50 bytes each, which at ten million scans was most of a gigabyte.
struct CodeCounts {
    /// Scans per code digest, as the write transaction leaves them (stored counts included).
    private var held = HeldCodes()
    /// The codes the `codes` table may hold, from the first time this write's held codes are written.
    private var filter: CodeFilter?

    /// How many codes are held before they are written: about 40 bytes each, in a table at most half full
    /// (`HeldCodes`) and the sorted copy that writing them makes.
    let limit: Int

    /// What an import holds (about 5 MB): its peak is near its memory bar already.
    static let importLimit = 131_072
    /// What a rebuild that keeps the scan list holds (about 40 MB): a log of up to a million codes is
    /// counted without a search of the table, as fast as when every code was held.
    static let rebuildLimit = 1 << 20

    /// What a rebuild holds: `rebuildLimit`, or `importLimit` when it makes the search index too, whose sets
    /// then take the memory (about 100 MB): the counts of as many codes as an import's (about 5 MB) instead
    /// of a million (40–60 MB), written to the table more often.
    static func heldLimit(makingSearchIndex: Bool) -> Int { makingSearchIndex ? importLimit : rebuildLimit }

    /// Whether the `codes` table is known to hold nothing: a code not held is then one never seen, without
    /// a search of the table (a rebuild empties it first).
    private var tableIsEmpty: Bool

    init(limit: Int, tableIsEmpty: Bool = false, largeTable: Int = 1 << 20) {
        self.limit = limit
        self.tableIsEmpty = tableIsEmpty
        self.largeTable = largeTable
    }

    /// Whether the held codes should be written before the write goes on: at `limit`, or at `largeTableLimit`
    /// once the `codes` table holds `largeTable` codes (a million). Writing the held codes then touches nearly
    /// every leaf of the table whatever their number (random keys, about 90 a leaf), and each touch of a page
    /// the write has spilled or its pager dropped costs a fault and a place among LMDB's dirty pages: at ten
    /// million events an import's writes of 131,072 codes were a fifth of its writer's time (docs/BULK.md).
    var isFull: Bool { held.count >= ((filter?.count ?? 0) >= largeTable ? max(limit, Self.largeTableLimit) : limit) }

    /// What is held once the table is large: four times what an import holds, about 20 MB more, which only a
    /// write past a million codes holds (an import of a million events stays as it was).
    static let largeTableLimit = 4 * importLimit
    /// How many codes make the table large (`isFull`): a million, but in tests.
    private let largeTable: Int

    /// How many scans had the code with this digest before this one, which it counts.
    mutating func countOne(_ digest: CodeDigest, in tables: any ModelTables) throws -> UInt32 {
        let seen = try count(digest, in: tables)
        held.set(digest, to: seen + 1)
        return seen
    }

    /// Writes the held counts to the `codes` table in key order and forgets them; `midWrite` when the write
    /// goes on after (the held codes reached their limit).
    mutating func write(to tables: any ModelTables, midWrite: Bool) throws {
        guard !held.isEmpty else { return }
        let codes = held.takeSorted()
        tableIsEmpty = false
        var entries = SortedEntries(keyWidth: 16, valueWidth: 4, capacity: codes.count)
        for (digest, count) in codes {
            entries.append { bytes in
                digest.appendStoredKey(to: &bytes)
                count.appendBigEndianBytes(to: &bytes)
            }
        }
        try tables.put(.codes, sorted: entries)
        // The filter is made when a write first reaches the limit, after the codes are written (from the
        // table, which holds them), not when a small write ends (it would read the whole table); once made,
        // it is kept up to date.
        if let count = filter?.count, let capacity = filter?.capacity, count + codes.count <= capacity {
            for (digest, _) in codes { filter?.insert(digest) }
        } else if filter != nil || midWrite {
            try makeFilter(holding: codes.count, from: tables)
        }
    }

    private func count(_ digest: CodeDigest, in tables: any ModelTables) throws -> UInt32 {
        if let count = held[digest] { return count }
        if tableIsEmpty { return 0 }
        if let filter, !filter.mayContain(digest) { return 0 }
        return try tables.withValue(.codes, digest.storedKey) { bytes in bytes.flatMap { UInt32(bigEndianBytes: $0) } } ?? 0
    }

    /// A filter of every code in the `codes` table, which holds the codes of the filter before (if any) and
    /// `more`, with room for as many again (and at least a million): the table is read once, and again only
    /// when the filter is full. (A table with codes from before this write may hold more: the filter is
    /// then full sooner, and made again.)
    private mutating func makeFilter(holding more: Int, from tables: any ModelTables) throws {
        var made = CodeFilter(capacity: max(2 * ((filter?.count ?? 0) + more), 1 << 20))
        try tables.forEach(.codes, prefix: []) { key, _ in
            made.insert(CodeDigest(storedKey: key))
            return true
        }
        filter = made
    }
}
