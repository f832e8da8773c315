/// The code digests that the `codes` table may hold, as a Bloom filter: a digest it does not hold is a
/// code never scanned before, counted without a search of the table.
///
/// A large import needs it: once its held codes are written (`CodeCounts.importLimit`), nearly every new
/// scan would otherwise search the table for a random key, into pages the write's pager has dropped.
/// At 16 bits a digest and 4 probes, about 1 digest in 400 not in the table is searched for anyway.
struct CodeFilter {
    private var words: [UInt64]
    private let mask: UInt64
    /// How many digests it can hold at that rate; past it, `Models` makes a larger one.
    let capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        var bits = 64
        while bits < capacity * 16 { bits *= 2 }
        words = Array(repeating: 0, count: bits / 64)
        mask = UInt64(bits - 1)
    }

    /// The probes are `high + i × low` (Kirsch and Mitzenmacher): the digest's two halves are already
    /// uniform and independent.
    mutating func insert(_ digest: CodeDigest) {
        for i in 0..<4 as Range<UInt64> {
            let bit = (digest.high &+ i &* digest.low) & mask
            words[Int(bit >> 6)] |= 1 << (bit & 63)
        }
        count += 1
    }

    func mayContain(_ digest: CodeDigest) -> Bool {
        for i in 0..<4 as Range<UInt64> {
            let bit = (digest.high &+ i &* digest.low) & mask
            if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
        }
        return true
    }
}
