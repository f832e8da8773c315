/// The pairs of bytes of a full chunk whose trigram sets are large, each stored as the union of those sets
/// (`SearchIndex.pairKey`): what a needle of two bytes reads in place of them.
///
/// Why: a needle of two bytes is in a field exactly when a trigram that starts with it is, so its matches in a
/// chunk are the union of the chunk's trigram sets `b0 b1 *`. A pair that many texts hold has many: `er`
/// about twenty a chunk, 17 KB of gaps to decode, in each of 625 chunks at ten million scans, which made the
/// second keystroke of a search one of the slowest queries (docs/SCALE.md). Their union, made once, is one set
/// of at most 2,000 bytes.
///
/// Why only for a full chunk: no write adds scans to it any more, so the union can not fall behind the
/// trigram sets it was made from, whichever writes come after (a report's message has sets of its own,
/// which a query reads apart). A chunk without a pair's set is answered from the trigram sets, as before.
///
/// Why only where the trigram sets take `threshold` bytes or more (twice a union's largest form): a query
/// unions smaller ones quickly, and a set for each of a chunk's ~900 pairs would add to the store what it saves
/// no query. At ten million scans about 120 pairs a chunk pass it (`ho`, `ac`, `00`: 5–7 KB of sets).
enum PairSets {
    static let threshold = 2 * ChunkBits.bitmapBytes

    /// The sealed entries of `chunk`'s pairs whose trigram sets take `threshold` bytes or more, in key order,
    /// made from `sets`: sealed entries in key order, of which those of `chunk`'s fields' trigrams are read
    /// (the others are passed over).
    static func entries(of chunk: UInt32, from sets: [(key: [UInt8], value: [UInt8])]) -> [(key: [UInt8], value: [UInt8])] {
        var made: [(key: [UInt8], value: [UInt8])] = []
        var i = 0
        while i < sets.count {
            guard isTrigram(sets[i].key, of: chunk) else {
                i += 1
                continue
            }
            let b0 = sets[i].key[5], b1 = sets[i].key[6]
            var end = i, bytes = 0
            while end < sets.count, isTrigram(sets[end].key, of: chunk), sets[end].key[5] == b0, sets[end].key[6] == b1 {
                bytes += sets[end].value.count - SealedValue.checkBytes
                end += 1
            }
            if bytes >= threshold {
                var union = ChunkBits()
                for set in sets[i..<end] { set.value.withUnsafeBytes { union.or(container: SealedValue.body($0)) } }
                let key = SearchIndex.pairKey(b0, b1, chunk: chunk)
                made.append((key, SealedValue.seal(key: key, union.container())))
            }
            i = end
        }
        return made
    }

    /// The sealed entries of the pairs of full `chunk`, made from its stored trigram sets (`entries`).
    static func entries(of chunk: UInt32, in tables: any ModelTables) throws -> [(key: [UInt8], value: [UInt8])] {
        var sets: [(key: [UInt8], value: [UInt8])] = []
        try tables.forEach(.search, prefix: SearchIndex.groupBytes(chunk) + [SearchIndex.trigram]) { key, value in
            if SearchIndex.isKey(key, of: chunk) { sets.append((Array(key), Array(value))) }
            return true
        }
        return entries(of: chunk, from: sets)
    }

    private static func isTrigram(_ key: [UInt8], of chunk: UInt32) -> Bool {
        key.count == 9 && key[4] == SearchIndex.trigram && SearchIndex.isKey(key, of: chunk)
    }
}
