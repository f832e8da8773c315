import SystemCalls

/// The scans that hold a needle (4 bytes or more) ending two or three bytes past a head a field is listed
/// under (`ChunkValues.headFollowing`): a field listed under head `H` with bytes `b1 b2 b3` after it holds
/// every needle that is a suffix of `H` followed by `b1 b2`, or by `b1 b2 b3` (`burb-6d`, `r-51`, `-283`: from
/// a code's shared head into its random part). Read as `GroupProofs` reads, when some of the scans' own
/// pieces ends with the needle's start. A chunk's fields under every head that ends with a given byte and has
/// two given bytes after it are one set (`SearchIndex.headFollowingKey`), and a group's four lie together:
/// one range a group, however many heads the needle may run past (`-283`: every code's head ends in `-`).
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
        try read(two, last: needle[n - 3], byte: needle[n - 2], next: needle[n - 1], then: nil, chunk: chunk, in: tables, into: &proofs)
        try read(three, last: needle[n - 4], byte: needle[n - 3], next: needle[n - 2], then: needle[n - 1], chunk: chunk, in: tables,
                 into: &proofs)
        return proofs
    }

    /// Adds to `proofs` the scans of `chunk`'s group listed under one of `heads` (which end with `last`) with
    /// `byte` and `next` after it, and then `third` (unless nil).
    private func read(_ heads: [UInt32], last: UInt8, byte: UInt8, next: UInt8, then third: UInt8?, chunk: UInt32,
                      in tables: any ModelTables, into proofs: inout [ChunkBits?]) throws {
        guard !heads.isEmpty else { return }
        let prefix = SearchIndex.groupBytes(chunk) + [SearchIndex.headFollowing, last, byte, next]
        // Per head of a set, in its order, whether it is one of `heads` (both sorted: one walk).
        var held: [Bool] = []
        try tables.forEach(.search, prefix: prefix) { key, value in
            guard key.count == prefix.count + 1, let place = key.last, UInt32(place) < SearchIndex.chunksPerGroup else { return true }
            // Taken out, not copied: the set's words are then changed in place.
            var proven = proofs[Int(place)].take() ?? ChunkBits()
            held.removeAll(keepingCapacity: true)
            var at = 0
            HeadFollowers.read(SealedValue.body(value), heads: { number in
                while at < heads.count && heads[at] < number { at += 1 }
                held.append(at < heads.count && heads[at] == number)
            }) { offset, head, after in
                if held[head] && (third == nil || after == third) { proven.insert(offset) }
            }
            proofs[Int(place)] = proven
            return true
        }
    }
}

/// The stored form of a chunk's scans whose field has a head, a byte after it and then another
/// (`SearchIndex.headFollowing`): the heads' count and numbers (`PieceVocabulary`; the first as it is, each
/// next as its gap from the one before), then per field, in the order of their scans, the gap from the scan
/// before (the first's from -1; 0 for a second field of one scan), its head's index among those numbers (all
/// LEB128 varints) and the byte after the two (0 where the field ends). Every field is kept, so that the
/// entries are all that follows the heads and the two bytes in the chunk's scans.
enum HeadFollowers {
    /// The stored form of `entries` (in the order of their scans; any order of heads and bytes, a repeat is
    /// kept once), with `numbers` the heads' numbers by their index.
    static func stored(_ entries: [(offset: Int, head: Int, third: UInt8)], numbers: [UInt32]) -> [UInt8] {
        // The heads' numbers, sorted, each once; an entry's head by its place among them.
        var used: [UInt32] = []
        for number in entries.map({ numbers[$0.head] }).sorted() where used.last != number { used.append(number) }
        var bytes: [UInt8] = []
        Varint.append(UInt64(used.count), to: &bytes)
        var previous: UInt32 = 0
        for number in used {
            Varint.append(UInt64(number - previous), to: &bytes)
            previous = number
        }
        let sorted = entries.map { (offset: $0.offset, head: used.place(of: numbers[$0.head]), third: $0.third) }
            .sorted { ($0.offset, $0.head, $0.third) < ($1.offset, $1.head, $1.third) }
        var last = (offset: -1, head: -1, third: UInt8(0))
        for entry in sorted where entry != last {
            Varint.append(UInt64(entry.offset - last.offset), to: &bytes)
            Varint.append(UInt64(entry.head), to: &bytes)
            bytes.append(entry.third)
            last = entry
        }
        return bytes
    }

    /// Calls `heads` with each head's number, in order, then `body` with each entry, its head by its index
    /// among them (a query walks its own heads beside them once a set, and looks each entry's up); false when
    /// the bytes are not a stored form (no head, a head's number past 32 bits or not past the one before, a
    /// varint cut short or longer, a first gap of 0, a scan past the chunk, a head's index past the heads, an
    /// entry without its byte), after what was read before the damage.
    @discardableResult
    static func read(_ value: UnsafeRawBufferPointer, heads: (_ number: UInt32) -> Void,
                     _ body: (_ offset: Int, _ head: Int, _ third: UInt8) -> Void) -> Bool {
        guard let base = value.baseAddress, !value.isEmpty else { return false }
        let end = value.count
        var at = 0
        guard let count = Varint.read(base, at: &at, end: end, maxBytes: 3), count > 0 else { return false }
        var number: UInt64 = 0
        for k in 0..<count {
            guard at < end, let gap = Varint.read(base, at: &at, end: end, maxBytes: 5), k == 0 || gap > 0 else { return false }
            number += gap
            guard number <= UInt64(UInt32.max) else { return false }
            heads(UInt32(number))
        }
        var previous = -1
        while at < end {
            guard let gap = Varint.read(base, at: &at, end: end, maxBytes: 3) else { return false }
            let offset = previous + Int(gap)
            guard offset >= 0, offset < ChunkBits.scansPerChunk, at < end,
                  let head = Varint.read(base, at: &at, end: end, maxBytes: 3), head < count, at < end else { return false }
            body(offset, Int(head), base.load(fromByteOffset: at, as: UInt8.self))
            at += 1
            previous = offset
        }
        return true
    }
}

extension [UInt32] {
    /// The place of the first number not below `number` in these sorted numbers (their count when none is).
    func place(of number: UInt32) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < number { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
