import SystemCalls

/// The scans that hold a needle (4 bytes or more) from one to three bytes before a tail of a field
/// (`ChunkValues.tailsAfter`): the byte before a tail listed under a piece that starts with the rest of the
/// needle, or two bytes before a tail whose first four bytes start with it (a needle of 4 to 6 bytes), or
/// three bytes before such a tail (a needle of 4 to 7 bytes: `829?lo`), or,
/// for a longer needle, both at once for a scan whose tails start unlike (not `tailsRepeated`): the two bytes
/// before a tail whose first four bytes begin the rest, and the second of them before a tail listed under a
/// piece that starts with the rest, which is then the same tail (`29?lot=9`). Read as `GroupProofs` reads,
/// when some piece has the shape (`TailShapes`). The sets of a group's chunks lie together under one range of
/// keys (`f?lo`: a hundred `?lot=NN` a chunk).
typealias TailProofs = GroupProofs<TailSets>

struct TailSets: ProofSets {
    private let needle: [UInt8]
    private let shapes: TailShapes

    var mayProve: Bool { shapes.afterByte || shapes.afterTwo || shapes.afterTwoLong || shapes.afterThree }

    init(needle: [UInt8], tables: any ModelTables) throws {
        self.needle = needle
        shapes = try needle.withUnsafeBytes { try TailShapes(needle: $0, in: tables) }
    }

    func read(groupOf chunk: UInt32, in tables: any ModelTables) throws -> [ChunkBits?] {
        let prefix = SearchIndex.groupBytes(chunk)
        var proofs = shapes.afterByte ? try union(prefix + [SearchIndex.tailAfterByte] + needle, in: tables) : TailSets.none
        if shapes.afterTwo { TailSets.add(try union(prefix + [SearchIndex.tailAfterTwo] + needle, in: tables), to: &proofs) }
        if shapes.afterThree { TailSets.add(try union(prefix + [SearchIndex.tailAfterThree] + needle, in: tables), to: &proofs) }
        if shapes.afterTwoLong {
            let before = try union(prefix + [SearchIndex.tailAfterTwo] + needle.prefix(6), in: tables)
            let after = try union(prefix + [SearchIndex.tailAfterByte] + needle.dropFirst(), in: tables)
            let repeated = try union(prefix + [SearchIndex.tailsRepeated], in: tables)
            TailSets.add(before.indices.map { place in
                guard var both = before[place], let after = after[place], let repeated = repeated[place] else { return nil }
                both.formIntersection(after)
                both.subtract(repeated)
                return both
            }, to: &proofs)
        }
        return proofs
    }

    private static var none: [ChunkBits?] { Array(repeating: nil, count: Int(SearchIndex.chunksPerGroup)) }

    private static func add(_ more: [ChunkBits?], to proofs: inout [ChunkBits?]) {
        for (place, bits) in more.enumerated() {
            guard let bits else { continue }
            if proofs[place] == nil { proofs[place] = bits } else { proofs[place]!.formUnion(bits) }
        }
    }

    /// Per chunk of the group, the union of the sets under keys that start with `prefix` (nil: none).
    private func union(_ prefix: [UInt8], in tables: any ModelTables) throws -> [ChunkBits?] {
        var sets = TailSets.none
        try tables.forEach(.search, prefix: prefix) { key, value in
            // A key longer than the prefix: its place is past the needle (which may hold a byte 1 to 3).
            guard key.count > prefix.count, let place = key.last, UInt32(place) < SearchIndex.chunksPerGroup else { return true }
            if sets[Int(place)] == nil { sets[Int(place)] = ChunkBits() }
            sets[Int(place)]!.or(container: SealedValue.body(value))
            return true
        }
        return sets
    }
}

/// Whether a needle (4 bytes or more) may start one to three bytes before a tail (`ChunkValues.tailsAfter`): a
/// set of the first kind holds a piece a tail is listed under, which the rest of the needle starts; one of
/// the second (and third) holds a tail's first four bytes, which a piece the tail is listed under starts with
/// too; past four bytes of the tail, a piece starts with all of the needle but its first two (`afterTwoLong`). No
/// such piece in the vocabulary, no such set in any chunk: the sets are not looked for (a range read a chunk,
/// a page touched, for a needle that has rows to read).
struct TailShapes {
    private(set) var afterByte = false
    private(set) var afterTwo = false
    private(set) var afterTwoLong = false
    private(set) var afterThree = false

    init(needle: UnsafeRawBufferPointer, in tables: any ModelTables) throws {
        let one = UnsafeRawBufferPointer(rebasing: needle.dropFirst()), two = UnsafeRawBufferPointer(rebasing: needle.dropFirst(2))
        let three = UnsafeRawBufferPointer(rebasing: needle.dropFirst(3))
        guard one.count <= ChunkValues.maxTailKey, two.count > 0 else { return }
        let isLong = two.count > 4
        // Three bytes before a tail and at most four of it: the sets hold no more of the tail.
        let mayBeThree = three.count > 0 && three.count <= 4
        var afterByte = false, startsTwo = false, startsThree = false
        try tables.forEach(.search, prefix: PieceVocabulary.home + [PieceVocabulary.block]) { key, value in
            guard key.count == 9 else { return true }
            // A piece that starts with any of the needle's rests holds the shortest one that may be asked.
            ChunkValues.forEachListed(SealedValue.body(value), holding: mayBeThree ? three : two) { _, source, bytes in
                guard source == ChunkValues.own else { return }
                if bytes.count >= one.count && ByteSearch.equal(bytes.baseAddress!, one.baseAddress!, count: one.count) { afterByte = true }
                if bytes.count >= two.count && ByteSearch.equal(bytes.baseAddress!, two.baseAddress!, count: two.count) { startsTwo = true }
                if mayBeThree && bytes.count >= three.count && ByteSearch.equal(bytes.baseAddress!, three.baseAddress!, count: three.count) {
                    startsThree = true
                }
            }
            return !(afterByte && startsTwo && (startsThree || !mayBeThree))
        }
        self.afterByte = afterByte
        afterTwo = startsTwo && !isLong
        afterTwoLong = startsTwo && isLong
        afterThree = startsThree
    }
}
