/// The scans of one chunk of the scan list that belong to one set of the search index (`SearchIndex`), as
/// 16,000 bits: bit `i` is scan ordinal `chunk × 16,000 + i`.
///
/// Stored as a container whose form follows its size, as roaring bitmaps do: the members in order as the
/// gaps between them (the first's from -1), each a LEB128 varint — a byte a member while they are less than
/// 128 apart, as they are in any set of more than a few hundred of 16,000 — while that is shorter than the
/// bits; else its 2,000 bytes of bits (a gram most scans hold costs one bit a scan). A stored value of exactly
/// `bitmapBytes` bytes is the bits, any shorter value the gaps, so the two can not be confused. (The gaps took
/// the index of the bench's log from 61 to 39 MB at 300,000 events, against sorted 16-bit offsets: a third
/// fewer pages to write in an import.)
struct ChunkBits {
    static let scansPerChunk = SearchIndex.scansPerChunk
    static let words = scansPerChunk / 64
    static let bitmapBytes = scansPerChunk / 8

    var words: [UInt64]

    init() { words = [UInt64](repeating: 0, count: ChunkBits.words) }

    /// The set stored as `container`.
    init(container: UnsafeRawBufferPointer) {
        self.init()
        or(container: container)
    }

    /// Adds the members of the stored `container`. A damaged one never writes outside the words nor reads
    /// outside its bytes (`isContainer` tells whether it is one).
    mutating func or(container: UnsafeRawBufferPointer) {
        words.withUnsafeMutableBufferPointer { w in
            if container.count == ChunkBits.bitmapBytes {
                for i in 0..<ChunkBits.words {
                    w[i] |= UInt64(littleEndian: container.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                }
            } else {
                ChunkBits.orGaps(container, into: w)
            }
        }
    }

    /// Sets the members of a container of gaps in `words`, reading each varint in place (no call per member):
    /// a query unions the sets of every shared piece its needle is in (`IndexedSearch`), tens of thousands of
    /// members a chunk for a needle in every code's head. Stops where `forEachGap` does on damage: a varint of
    /// more than 3 bytes or cut short, a gap of 0, a member past the chunk.
    private static func orGaps(_ container: UnsafeRawBufferPointer, into words: UnsafeMutableBufferPointer<UInt64>) {
        guard let base = container.baseAddress else { return }
        let n = container.count
        var at = 0, member = -1
        while at < n {
            var byte = base.load(fromByteOffset: at, as: UInt8.self)
            at += 1
            var gap = Int(byte & 0x7F)
            if byte & 0x80 != 0 {
                guard at < n else { return }
                byte = base.load(fromByteOffset: at, as: UInt8.self)
                at += 1
                gap |= Int(byte & 0x7F) << 7
                if byte & 0x80 != 0 {
                    guard at < n else { return }
                    byte = base.load(fromByteOffset: at, as: UInt8.self)
                    at += 1
                    guard byte & 0x80 == 0 else { return }
                    gap |= Int(byte) << 14
                }
            }
            member += gap
            guard gap > 0, member < scansPerChunk else { return }
            words[member >> 6] |= 1 << UInt64(member & 63)
        }
    }

    /// Calls `body` with each member of a container of gaps, in order, until it returns false or the bytes
    /// are not gaps to a member (a varint of more than 3 bytes, a member past the chunk); false then.
    @discardableResult
    static func forEachGap(_ container: UnsafeRawBufferPointer, _ body: (Int) -> Bool) -> Bool {
        guard let base = container.baseAddress else { return true }
        var at = 0, member = -1
        while at < container.count {
            guard let gap = Varint.read(base, at: &at, end: container.count, maxBytes: 3) else { return false }
            member += Int(gap)
            guard gap > 0, member < scansPerChunk, body(member) else { return false }
        }
        return true
    }

    /// Whether `bytes` is a container: the bits, or gaps to members in order, shorter than the bits.
    static func isContainer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count == bitmapBytes || (bytes.count < bitmapBytes && areGaps(bytes))
    }

    /// `forEachGap(bytes) { _ in true }`, eight bytes at a time while their gaps take one or two bytes each, as
    /// nearly all do: `log verify` checks every set of the index (`ModelTable.recordCheck`), and byte by byte
    /// that was a tenth of its time at a million events. Each eight begin with a gap (a gap begun in the last
    /// byte is left to the next eight); members only grow, so the last of each eight is checked.
    private static func areGaps(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var at = 0, member = -1
        while bytes.count - at >= 8 {
            let word = bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            var continues = (word >> 7) & ones
            let count = continues >> 56 == 0 ? 8 : 7
            let taken: UInt64 = count == 8 ? .max : 0x00FF_FFFF_FFFF_FFFF
            continues &= taken
            let seconds = (continues << 8) & taken
            // A gap of three bytes or more, or one that does not end in the bytes taken: byte by byte from here.
            guard continues >> UInt64(8 * (count - 1)) == 0, continues & seconds == 0 else { break }
            let low = word & lows & taken
            let zero = ~(((low &+ lows) >> 7) & ones) & ones & taken
            // A gap of nothing (a byte 0, or 0x80 then 0): byte by byte, which refuses it.
            guard zero & ~seconds & ~continues == 0, zero & continues & (zero >> 8) == 0 else { break }
            let secondBytes = seconds &* 0xFF
            member += byteSum(low & ~secondBytes) + 128 * byteSum(low & secondBytes)
            guard member < scansPerChunk else { return false }
            at += count
        }
        // The rest's members count from -1: each is `member + 1` more in the container.
        return forEachGap(UnsafeRawBufferPointer(rebasing: bytes[at...])) { $0 + member + 1 < scansPerChunk }
    }

    /// The sum of the eight bytes of `x`, each below 128.
    private static func byteSum(_ x: UInt64) -> Int {
        let pairs = (x & 0x00FF_00FF_00FF_00FF) &+ ((x >> 8) & 0x00FF_00FF_00FF_00FF)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
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

    /// Whether no member is in `allowed` but outside `excluded` (nil: nothing excluded).
    func hasNone(in allowed: ChunkBits, outside excluded: ChunkBits?) -> Bool {
        words.withUnsafeBufferPointer { w in
            allowed.words.withUnsafeBufferPointer { a in
                guard let excluded else { return (0..<ChunkBits.words).allSatisfy { w[$0] & a[$0] == 0 } }
                return excluded.words.withUnsafeBufferPointer { e in
                    (0..<ChunkBits.words).allSatisfy { w[$0] & a[$0] & ~e[$0] == 0 }
                }
            }
        }
    }

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

    /// The stored form of the set whose `words` are given: the gaps, unless they would be as long as the
    /// bits (certainly so from `bitmapBytes` members, a byte each at least).
    static func container(_ words: UnsafeBufferPointer<UInt64>) -> [UInt8] {
        var members = 0
        for w in words { members += w.nonzeroBitCount }
        if members < bitmapBytes {
            var gaps: [UInt8] = []
            if gaps.setToGaps(words, members: members) { return gaps }
        }
        // With room for the check a stored set ends with (`SealedValue`).
        return [UInt8](unsafeUninitializedCapacity: ChunkBits.bitmapBytes + SealedValue.checkBytes) { b, written in
            let raw = UnsafeMutableRawBufferPointer(b)
            for i in 0..<ChunkBits.words { raw.storeBytes(of: words[i].littleEndian, toByteOffset: i * 8, as: UInt64.self) }
            written = ChunkBits.bitmapBytes
        }
    }
}

extension ChunkBits {
    /// The stored form of a set of members (`members` sorted, repeats allowed and dropped): as gaps for a few,
    /// as `container()` chooses for many (the smaller of gaps and bits).
    static func container(sortedMembers members: some Collection<Int>) -> [UInt8] {
        if members.count >= bitmapBytes / 2 {
            var bits = ChunkBits()
            for member in members { bits.insert(member) }
            return bits.container()
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 * members.count + SealedValue.checkBytes)
        var previous = -1
        for member in members where member != previous {
            Varint.append(UInt64(member - previous), to: &bytes)
            previous = member
        }
        return bytes
    }
}

private extension [UInt8] {
    /// Sets `self` to the gaps of the `members` members of `words`; false when they take `bitmapBytes` or more.
    mutating func setToGaps(_ words: UnsafeBufferPointer<UInt64>, members: Int) -> Bool {
        var fits = true
        // Room for the gaps (a gap is below 2^14, two bytes at most; three a member to spare), a last varint
        // past `bitmapBytes - 1`, and the check (`SealedValue`); no more, since a chunk's stored sets are held
        // until its group is written (`SearchIndexWriter`): a capacity of `bitmapBytes` for every set was ten
        // times their bytes.
        let capacity = Swift.min(3 * members, ChunkBits.bitmapBytes + 2) + SealedValue.checkBytes
        self = [UInt8](unsafeUninitializedCapacity: capacity) { bytes, written in
            var at = 0, previous = -1
            for i in 0..<ChunkBits.words {
                var w = words[i]
                while w != 0 {
                    let offset = i * 64 + w.trailingZeroBitCount
                    w &= w - 1
                    var gap = offset - previous
                    previous = offset
                    while gap >= 0x80 {
                        bytes[at] = UInt8(truncatingIfNeeded: gap) | 0x80
                        gap >>= 7
                        at += 1
                    }
                    bytes[at] = UInt8(gap)
                    at += 1
                    if at >= ChunkBits.bitmapBytes {
                        fits = false
                        written = 0
                        return
                    }
                }
            }
            written = at
        }
        return fits
    }
}
