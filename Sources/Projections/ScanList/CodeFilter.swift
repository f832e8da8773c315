/// The code digests that the `codes` table may hold, as a Bloom filter: a digest it does not hold is a
/// code never scanned before, counted without a search of the table.
///
/// A large import needs it: once its held codes are written (`CodeCounts.importLimit`), nearly every new
/// scan would otherwise search the table for a random key, into pages the write's pager has dropped.
/// At 16 bits a digest and 4 probes, about 1 digest in 400 not in the table is searched for anyway; at 8
/// bits, about 1 in 40.
struct CodeFilter: Sendable {
    private var words: [UInt64]
    /// How many bits `words` holds: `bitsPerDigest` per digest of `capacity`, not rounded up to a power of
    /// two, which took up to twice that at the end of a large import (docs/BULK.md, "Fault-around off while a
    /// large write runs").
    private let bits: UInt64
    /// How many digests it can hold at that rate; past it, `Models` makes a larger one.
    let capacity: Int
    private(set) var count = 0

    /// A filter of `capacity` digests at `bitsPerDigest` bits each: 16 where a digest wrongly let through
    /// costs a search of the stored table, fewer where it costs a lookup in memory and the filter must stay
    /// in the processor's cache (`KeptCodes`).
    init(capacity: Int, bitsPerDigest: Int = 16) {
        self.capacity = capacity
        let words = max(1, (capacity * bitsPerDigest + 63) / 64)
        self.words = Array(repeating: 0, count: words)
        bits = UInt64(words * 64)
    }

    /// The probes are `high + i × low` (Kirsch and Mitzenmacher): the digest's two halves are already
    /// uniform and independent. Each is mapped onto the bits by the high word of its product with their
    /// count (Lemire's reduction), as uniform as a mask, for any count.
    @inline(__always)
    private func bit(_ digest: CodeDigest, _ i: UInt64) -> UInt64 {
        (digest.high &+ i &* digest.low).multipliedFullWidth(by: bits).high
    }

    mutating func insert(_ digest: CodeDigest) {
        for i in 0..<4 as Range<UInt64> {
            let bit = bit(digest, i)
            words[Int(bit >> 6)] |= 1 << (bit & 63)
        }
        count += 1
    }

    func mayContain(_ digest: CodeDigest) -> Bool {
        for i in 0..<4 as Range<UInt64> {
            let bit = bit(digest, i)
            if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
        }
        return true
    }
}
