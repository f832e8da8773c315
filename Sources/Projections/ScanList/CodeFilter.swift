/// The code digests that the `codes` table may hold, as a Bloom filter: a digest it does not hold is a
/// code never scanned before, counted without a search of the table.
///
/// A large import needs it: once its held codes are written (`CodeCounts.importLimit`), nearly every new
/// scan would otherwise search the table for a random key, into pages the write's pager has dropped.
/// At 16 bits a digest and 4 probes, about 1 digest in 370 not in the table is searched for anyway; at 8
/// bits, about 1 in 40.
///
/// Blocked (Putze, Sanders and Singler): a digest's 4 bits all lie in one block of 512 bits, a line of the
/// processor's cache, so a look costs at most one miss of the cache where the 4 bits spread over the whole
/// filter cost up to 4. At ten million events the filters are half a megabyte (a rebuild's repeated codes)
/// to tens (an import's codes), and what streams through the cache beside them evicts their lines: a
/// rebuild's looks were 2.6 % of its CPU there (docs/BULK.md). For that the filter claims a little more than
/// an unblocked one of the same bits (1 in 370 against 1 in 400 at 16 bits a digest).
struct CodeFilter: Sendable {
    private var words: [UInt64]
    /// Where block 0 starts in `words`: on a line of the cache, in the buffer the filter was made with. A
    /// copy that is changed gets another buffer, whose blocks may then straddle two lines: the same answers,
    /// a little slower.
    private let first: Int
    /// How many blocks `words` holds: `bitsPerDigest` per digest of `capacity`, not rounded up to a power of
    /// two, which took up to twice that at the end of a large import (docs/BULK.md, "Fault-around off while a
    /// large write runs").
    private let blocks: UInt64
    /// How many digests it can hold at that rate; past it, `Models` makes a larger one.
    let capacity: Int
    private(set) var count = 0

    private static let wordsPerBlock = 8

    /// A filter of `capacity` digests at `bitsPerDigest` bits each: 16 where a digest wrongly let through
    /// costs a search of the stored table, fewer where it costs a lookup in memory and the filter must stay
    /// in the processor's cache (`KeptCodes`).
    init(capacity: Int, bitsPerDigest: Int = 16) {
        self.capacity = capacity
        let blocks = max(1, (capacity * bitsPerDigest + 511) / 512)
        self.blocks = UInt64(blocks)
        words = Array(repeating: 0, count: blocks * CodeFilter.wordsPerBlock + CodeFilter.wordsPerBlock - 1)
        let address = words.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        first = Int((64 - address % 64) % 64) / MemoryLayout<UInt64>.size
    }

    /// The digest's block is the high word of its high half's product with the count of blocks (Lemire's
    /// reduction, as uniform as a mask for any count); its 4 bits in the block are four 9-bit fields of
    /// its low half. The two halves are already uniform and independent.
    @inline(__always)
    private static func forEachBit(_ digest: CodeDigest, blocks: UInt64, first: Int,
                                   _ body: (_ word: Int, _ bit: UInt64) -> Bool) -> Bool {
        let block = first + Int(digest.high.multipliedFullWidth(by: blocks).high) * CodeFilter.wordsPerBlock
        for i in 0..<4 as Range<UInt64> {
            let bit = (digest.low >> (9 * i)) & 511
            if !body(block + Int(bit >> 6), 1 << (bit & 63)) { return false }
        }
        return true
    }

    mutating func insert(_ digest: CodeDigest) {
        let (blocks, first) = (blocks, first)  // read before `words` is changed in place: `self` is then being changed
        words.withUnsafeMutableBufferPointer { w in
            _ = CodeFilter.forEachBit(digest, blocks: blocks, first: first) { word, bit in
                w[word] |= bit
                return true
            }
        }
        count += 1
    }

    func mayContain(_ digest: CodeDigest) -> Bool {
        words.withUnsafeBufferPointer { w in
            CodeFilter.forEachBit(digest, blocks: blocks, first: first) { word, bit in w[word] & bit != 0 }
        }
    }
}
