/// The scans of one chunk of the scan list that belong to one set of the search index (`SearchIndex`), as
/// 16,000 bits: bit `i` is scan ordinal `chunk × 16,000 + i`.
///
/// Stored as a container whose form follows its size, as roaring bitmaps do: up to `arrayLimit` members a
/// sorted array of 16-bit offsets (2 bytes a member: a rare gram costs little), beyond it its 2,000 bytes of bits
/// (a gram most scans hold costs one bit a scan). A stored value of exactly `bitmapBytes` bytes is the bits,
/// any shorter value is the array, so the two can not be confused.
struct ChunkBits {
    static let scansPerChunk = SearchIndex.scansPerChunk
    static let words = scansPerChunk / 64
    static let bitmapBytes = scansPerChunk / 8
    /// The most members stored as an array (one fewer than the bitmap's size in 2-byte members).
    static let arrayLimit = bitmapBytes / 2 - 1

    var words: [UInt64]

    init() { words = [UInt64](repeating: 0, count: ChunkBits.words) }

    /// The set stored as `container`.
    init(container: UnsafeRawBufferPointer) {
        self.init()
        or(container: container)
    }

    /// Adds the members of the stored `container`.
    mutating func or(container: UnsafeRawBufferPointer) {
        words.withUnsafeMutableBufferPointer { w in
            if container.count == ChunkBits.bitmapBytes {
                for i in 0..<ChunkBits.words {
                    w[i] |= UInt64(littleEndian: container.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                }
            } else {
                var at = 0
                while at + 1 < container.count {
                    // A damaged value must not write outside the words.
                    let offset = Int(UInt16(littleEndian: container.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
                    if offset < ChunkBits.scansPerChunk { w[offset >> 6] |= 1 << UInt64(offset & 63) }
                    at += 2
                }
            }
        }
    }

    mutating func insert(_ offset: Int) { words[offset >> 6] |= 1 << UInt64(offset & 63) }

    func contains(_ offset: Int) -> Bool { words[offset >> 6] & (1 << UInt64(offset & 63)) != 0 }

    mutating func formIntersection(_ other: ChunkBits) {
        words.withUnsafeMutableBufferPointer { w in
            other.words.withUnsafeBufferPointer { o in for i in 0..<ChunkBits.words { w[i] &= o[i] } }
        }
    }

    mutating func formUnion(_ other: ChunkBits) {
        words.withUnsafeMutableBufferPointer { w in
            other.words.withUnsafeBufferPointer { o in for i in 0..<ChunkBits.words { w[i] |= o[i] } }
        }
    }

    mutating func subtract(_ other: ChunkBits) {
        words.withUnsafeMutableBufferPointer { w in
            other.words.withUnsafeBufferPointer { o in for i in 0..<ChunkBits.words { w[i] &= ~o[i] } }
        }
    }

    /// Keeps only the offsets in `range` (within 0..<`scansPerChunk`).
    mutating func keep(_ range: Range<Int>) {
        for i in 0..<ChunkBits.words {
            let low = i * 64, high = low + 64
            if high <= range.lowerBound || low >= range.upperBound { words[i] = 0; continue }
            var mask = UInt64.max
            if range.lowerBound > low { mask &= UInt64.max << UInt64(range.lowerBound - low) }
            if range.upperBound < high { mask &= UInt64.max >> UInt64(high - range.upperBound) }
            words[i] &= mask
        }
    }

    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Calls `body` with each member, largest first, until it returns false; false when stopped.
    @discardableResult
    func forEachDescending(_ body: (Int) throws -> Bool) rethrows -> Bool {
        var i = ChunkBits.words - 1
        while i >= 0 {
            var w = words[i]
            while w != 0 {
                let bit = 63 - w.leadingZeroBitCount
                if !(try body(i * 64 + bit)) { return false }
                w &= ~(1 << UInt64(bit))
            }
            i -= 1
        }
        return true
    }

    /// The stored form (see the type's comment).
    func container() -> [UInt8] {
        words.withUnsafeBufferPointer { ChunkBits.container($0) }
    }

    /// The stored form of the set whose `words` are given.
    static func container(_ words: UnsafeBufferPointer<UInt64>) -> [UInt8] {
        var members = 0
        for w in words { members += w.nonzeroBitCount }
        if members > ChunkBits.arrayLimit {
            var bytes = [UInt8](repeating: 0, count: ChunkBits.bitmapBytes)
            bytes.withUnsafeMutableBytes { b in
                for i in 0..<ChunkBits.words { b.storeBytes(of: words[i].littleEndian, toByteOffset: i * 8, as: UInt64.self) }
            }
            return bytes
        }
        return [UInt8](unsafeUninitializedCapacity: members * 2) { bytes, written in
            var at = 0
            for i in 0..<ChunkBits.words {
                var w = words[i]
                while w != 0 {
                    let offset = i * 64 + w.trailingZeroBitCount
                    bytes[at] = UInt8(truncatingIfNeeded: offset); bytes[at + 1] = UInt8(truncatingIfNeeded: offset >> 8)
                    at += 2
                    w &= w - 1
                }
            }
            written = at
        }
    }

    /// The stored form of the sorted, distinct `offsets` merged with the stored `container` (nil: none),
    /// without a bitmap when both are small.
    static func container(merging offsets: [UInt16], into stored: UnsafeRawBufferPointer?) -> [UInt8] {
        if stored == nil || stored!.isEmpty, offsets.count <= arrayLimit {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(offsets.count * 2)
            for o in offsets { bytes.append(UInt8(o & 0xFF)); bytes.append(UInt8(o >> 8)) }
            return bytes
        }
        var bits = ChunkBits()
        if let stored { bits.or(container: stored) }
        for o in offsets { bits.insert(Int(o)) }
        return bits.container()
    }
}
