/// The order in which a needle of 3 bytes or more intersects its sets (its runs of four digits and its
/// trigrams, `SearchIndex`) in every chunk: the rarest first, as the newest chunks of the query hold them.
///
/// Why: a chunk's intersection stops as soon as every candidate left is proven by a piece or ruled out
/// (`IndexedSearch.needleSet`), and each set read is a page the query touches. In the needle's own order
/// the first sets are often ones many scans hold (`pau`, `aul`, `ula` in `paula.mueller040`: 9.5 sets a
/// chunk at ten million scans, where its rarest one settles the chunk; 4,564 page faults, 1,961 in this
/// order). Which gram is rare is a matter of the data, not of the bytes, so it is learnt from the first
/// chunks the query reads anyway: there every set is read and counted, until `sample` scans were seen, then
/// the sets are read rarest first. The intersection is the same in any order; only the sets read change.
final class GramOrder {
    /// The sets, runs of four digits then trigrams in the needle's order until sampled, then rarest first.
    private(set) var grams: [UInt32]
    private var counts: [Int]
    private var scansSeen = 0
    /// How many scans the sample must cover before the order is trusted: a quarter of a chunk, so that a
    /// newest chunk holding a few scans only is not the whole sample.
    static let sample = ChunkBits.scansPerChunk / 4

    init(needle: [UInt8], flag: UInt8) {
        var grams: [UInt32] = []
        if needle.count >= 4 {
            let digits = UInt32(SearchIndex.digits | flag) << 24
            for i in needle.indices.dropLast(3) {
                if let gram = SearchIndex.digitsGram(digits, needle[i], needle[i + 1], needle[i + 2], needle[i + 3]),
                   !grams.contains(gram) {
                    grams.append(gram)
                }
            }
        }
        if needle.count >= 3 && !SearchIndex.isDigits(needle) {
            for i in 0...(needle.count - 3) {
                let gram = SearchIndex.gram(SearchIndex.trigram | flag, needle[i], needle[i + 1], needle[i + 2])
                if !grams.contains(gram) { grams.append(gram) }
            }
        }
        self.grams = grams
        counts = [Int](repeating: 0, count: grams.count)
    }

    /// Whether every set is still to be read and counted (`sampled`).
    var isSampling: Bool { scansSeen < GramOrder.sample && grams.count > 1 }

    /// Whether the set at `index` of `grams` held a quarter of the sampled scans or more: one that rules out
    /// few candidates for the page it costs.
    func isCommon(_ index: Int) -> Bool { !isSampling && 4 * counts[index] >= scansSeen }

    /// Adds the members each set (in `grams`' order) had in a chunk of which `scans` were in the query.
    func sampled(_ chunkCounts: [Int], scans: Int) {
        for i in counts.indices { counts[i] += chunkCounts[i] }
        scansSeen += max(scans, 1)
        guard !isSampling else { return }
        let order = counts.indices.sorted { (counts[$0], $0) < (counts[$1], $1) }
        grams = order.map { grams[$0] }
        counts = order.map { counts[$0] }
    }
}
