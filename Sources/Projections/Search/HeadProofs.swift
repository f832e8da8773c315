import SystemCalls

/// The scans that hold a needle (4 bytes or more) ending two or three bytes past a head a field is listed
/// under (`ChunkValues.headFollowing`): a field listed under head `H` with bytes `b1 b2 b3` after it holds
/// every needle that is a suffix of `H` followed by `b1 b2`, or by `b1 b2 b3` (`burb-6d`, `r-51`, `-283`: from
/// a code's shared head into its random part). Read as `GroupProofs` reads, when some of the scans' own
/// pieces ends with the needle's start. The sets of a group's chunks of the heads that end with one byte and
/// have another after them lie together (`SearchIndex.headFollowingKey`): one range a group, however many
/// heads the needle may run past (`-283`: every code's head ends in `-`).
typealias HeadProofs = GroupProofs<HeadSets>

struct HeadSets: ProofSets {
    private let needle: [UInt8]
    /// The numbers of the scans' own pieces that end with all of the needle but its last two bytes, and but
    /// its last three, sorted.
    private let two: [UInt32], three: [UInt32]

    var mayProve: Bool { !two.isEmpty || !three.isEmpty }

    /// Finds the heads: one pass over the vocabulary, each piece's end compared (looking for the start
    /// anywhere in the blocks' bytes first, as `PieceMatches` does for the needle, found a `-` in most pieces
    /// for `-283`: 6 ms).
    init(needle: [UInt8], tables: any ModelTables) throws {
        self.needle = needle
        var two: [UInt32] = [], three: [UInt32] = []
        try needle.withUnsafeBytes { needle in
            let startTwo = UnsafeRawBufferPointer(rebasing: needle.dropLast(2))
            let startThree = UnsafeRawBufferPointer(rebasing: needle.dropLast(3))
            func ends(_ bytes: UnsafeRawBufferPointer, with start: UnsafeRawBufferPointer) -> Bool {
                bytes.count >= start.count
                    && ByteSearch.equal(bytes.baseAddress! + (bytes.count - start.count), start.baseAddress!, count: start.count)
            }
            try tables.forEach(.search, prefix: PieceVocabulary.home + [PieceVocabulary.block]) { key, value in
                guard key.count == 9, let block = PieceVocabulary.number(UnsafeRawBufferPointer(rebasing: key[5...]))
                else { return true }
                ChunkValues.forEachListed(SealedValue.body(value)) { index, source, bytes in
                    guard source == ChunkValues.own, bytes.last == startTwo.last || bytes.last == startThree.last else { return }
                    let number = block * UInt32(PieceVocabulary.perBlock) + UInt32(index)
                    if ends(bytes, with: startTwo) { two.append(number) }
                    if ends(bytes, with: startThree) { three.append(number) }
                }
                return true
            }
        }
        self.two = two.sorted()
        self.three = three.sorted()
    }

    func read(groupOf chunk: UInt32, in tables: any ModelTables) throws -> [ChunkBits?] {
        var proofs = [ChunkBits?](repeating: nil, count: Int(SearchIndex.chunksPerGroup))
        let n = needle.count
        try read(two, last: needle[n - 3], byte: needle[n - 2], then: needle[n - 1], and: nil, chunk: chunk, in: tables, into: &proofs)
        try read(three, last: needle[n - 4], byte: needle[n - 3], then: needle[n - 2], and: needle[n - 1], chunk: chunk, in: tables,
                 into: &proofs)
        return proofs
    }

    /// Adds to `proofs` the scans of `chunk`'s group listed under one of `heads` (which end with `last`) with
    /// `byte` after it and then `second` (and `third`, unless nil).
    private func read(_ heads: [UInt32], last: UInt8, byte: UInt8, then second: UInt8, and third: UInt8?, chunk: UInt32,
                      in tables: any ModelTables, into proofs: inout [ChunkBits?]) throws {
        guard !heads.isEmpty else { return }
        let prefix = SearchIndex.groupBytes(chunk) + [SearchIndex.headFollowing, last, byte]
        // A head's sets of the group's chunks lie one after another: it is looked up once for all of them.
        var looked: (number: UInt32, held: Bool)?
        try tables.forEach(.search, prefix: prefix) { key, value in
            guard key.count == prefix.count + 5, let place = key.last, UInt32(place) < SearchIndex.chunksPerGroup else { return true }
            let number = key[prefix.count..<(prefix.count + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if looked?.number != number { looked = (number, HeadSets.holds(heads, number)) }
            guard looked?.held == true else { return true }
            // Taken out, not copied: the set's words are then changed in place.
            var proven = proofs[Int(place)].take() ?? ChunkBits()
            HeadFollowers.forEach(SealedValue.body(value)) { offset, next, after in
                if next == second && (third == nil || after == third) { proven.insert(offset) }
            }
            proofs[Int(place)] = proven
            return true
        }
    }

    /// Whether the sorted `numbers` hold `number`.
    private static func holds(_ numbers: [UInt32], _ number: UInt32) -> Bool {
        var low = 0, high = numbers.count
        while low < high {
            let middle = (low + high) / 2
            if numbers[middle] < number { low = middle + 1 } else { high = middle }
        }
        return low < numbers.count && numbers[low] == number
    }
}

/// The stored form of a head's scans by the byte after it with the two bytes that follow
/// (`SearchIndex.headFollowing`): per field, in the order of their scans, the gap from the scan before (the
/// first's from -1; 0 for a second field of one scan) as a LEB128 varint, then its two bytes (the second 0
/// where the field ends first: no needle holds a 0). Every field is kept, so that the entries are all that
/// follows the head and byte in the chunk's scans.
enum HeadFollowers {
    /// The stored form of `sorted` (by offset, then bytes; a repeat is kept once).
    static func entries(_ sorted: some Sequence<(offset: Int, second: UInt8, third: UInt8)>) -> [UInt8] {
        var bytes: [UInt8] = []
        var previous = (offset: -1, second: UInt8(0), third: UInt8(0))
        for entry in sorted where entry != previous {
            var gap = entry.offset - previous.offset
            while gap >= 0x80 {
                bytes.append(UInt8(gap & 0x7F) | 0x80)
                gap >>= 7
            }
            bytes.append(UInt8(gap))
            bytes.append(entry.second)
            bytes.append(entry.third)
            previous = entry
        }
        return bytes
    }

    /// Calls `body` with each entry of a stored form, in order; false when the bytes are not one (a varint of
    /// more than 3 bytes or cut short, a first gap of 0, a scan past the chunk, an entry without its two
    /// bytes), after the entries read before the damage. Nearly every gap is a byte (a head's fields with a
    /// given byte after it are a few hundred of a chunk's 16,000), read as such (`Varint`): a needle three bytes
    /// past a code's `-` reads some 700,000 entries at ten million scans.
    @discardableResult
    static func forEach(_ value: UnsafeRawBufferPointer, _ body: (_ offset: Int, _ second: UInt8, _ third: UInt8) -> Void) -> Bool {
        guard let base = value.baseAddress else { return true }
        let count = value.count
        var at = 0, previous = -1
        while at < count {
            guard let gap = Varint.read(base, at: &at, end: count, maxBytes: 3) else { return false }
            let offset = previous + Int(gap)
            guard offset >= 0, offset < ChunkBits.scansPerChunk, at + 2 <= count else { return false }
            body(offset, base.load(fromByteOffset: at, as: UInt8.self), base.load(fromByteOffset: at + 1, as: UInt8.self))
            at += 2
            previous = offset
        }
        return true
    }
}
