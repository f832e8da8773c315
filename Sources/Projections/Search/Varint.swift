/// The LEB128 varints of the search index's stored forms (a set's gaps, a head's entries, a chunk's piece
/// numbers, the vocabulary's lengths), which a query reads by the hundred thousand: a value under 128, as nearly
/// every one is, is read without the loop. (`ChunkBits.orGaps` reads gaps on its own: it ORs them into a set's
/// words as it goes, the one loop of a query that reads millions; and a set's gaps made from its bits are
/// written into memory sized once, `setToGaps`.)
enum Varint {
    /// The varint at `at` (below `end`) of `base`, of at most `maxBytes` bytes, with `at` moved past it; nil when
    /// it is cut short or longer.
    @inline(__always)
    static func read(_ base: UnsafeRawPointer, at: inout Int, end: Int, maxBytes: Int) -> UInt64? {
        let first = base.load(fromByteOffset: at, as: UInt8.self)
        at += 1
        if first < 0x80 { return UInt64(first) }
        var value = UInt64(first & 0x7F), shift = 7
        while true {
            guard at < end, shift < 7 * maxBytes else { return nil }
            let byte = base.load(fromByteOffset: at, as: UInt8.self)
            at += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            shift += 7
            if byte & 0x80 == 0 { return value }
        }
    }

    /// Appends `value` as a varint (`read` reads it back).
    @inline(__always)
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
