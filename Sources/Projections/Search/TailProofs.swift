import SystemCalls

/// The scans that hold a needle (4 bytes or more) from one or two bytes before a tail of a field
/// (`ChunkValues.tailsAfter`): the byte before a tail listed under a piece that starts with the rest of the
/// needle, or two bytes before a tail whose first four bytes start with it (a needle of 4 to 6 bytes). Asked
/// only for a chunk with candidates left to their rows, and only when some piece has the shape
/// (`TailShapes`, looked up the first time). The sets of a group's chunks lie together under one range of
/// keys (`f?lo`: a hundred `?lot=NN` a chunk), read once for the group.
final class TailProofs {
    private let needle: [UInt8]
    private let tables: any ModelTables
    private var shapes: TailShapes?
    private var group: UInt32?
    private var proofs: [ChunkBits?] = []

    init(needle: [UInt8], tables: any ModelTables) {
        self.needle = needle
        self.tables = tables
    }

    /// The scans of `chunk` proven so; nil: none.
    func proven(chunk: UInt32) throws -> ChunkBits? {
        let shapes = try self.shapes ?? needle.withUnsafeBytes { try TailShapes(needle: $0, in: tables) }
        self.shapes = shapes
        guard shapes.afterByte || shapes.afterTwo else { return nil }
        if group != SearchIndex.group(of: chunk) {
            group = SearchIndex.group(of: chunk)
            proofs = Array(repeating: nil, count: Int(SearchIndex.chunksPerGroup))
            let prefix = SearchIndex.groupBytes(chunk)
            if shapes.afterByte { try union(prefix + [SearchIndex.tailAfterByte] + needle) }
            if shapes.afterTwo { try union(prefix + [SearchIndex.tailAfterTwo] + needle) }
        }
        return proofs[Int(SearchIndex.place(chunk))]
    }

    private func union(_ prefix: [UInt8]) throws {
        try tables.forEach(.search, prefix: prefix) { key, value in
            // A key longer than the prefix: its place is past the needle (which may hold a byte 1 to 3).
            guard key.count > prefix.count, let place = key.last, UInt32(place) < SearchIndex.chunksPerGroup else { return true }
            if proofs[Int(place)] == nil { proofs[Int(place)] = ChunkBits() }
            proofs[Int(place)]!.or(container: SealedValue.body(value))
            return true
        }
    }
}

/// Whether a needle (4 bytes or more) may start one or two bytes before a tail (`ChunkValues.tailsAfter`): a
/// set of the first kind holds a piece a tail is listed under, which the rest of the needle starts; one of
/// the second holds a tail's first four bytes, which a piece the tail is listed under starts with too. No
/// such piece in the vocabulary, no such set in any chunk: the sets are not looked for (a range read a chunk,
/// a page touched, for a needle that has rows to read).
struct TailShapes {
    private(set) var afterByte = false
    private(set) var afterTwo = false

    init(needle: UnsafeRawBufferPointer, in tables: any ModelTables) throws {
        let one = UnsafeRawBufferPointer(rebasing: needle.dropFirst()), two = UnsafeRawBufferPointer(rebasing: needle.dropFirst(2))
        guard one.count <= ChunkValues.maxTailKey, two.count > 0 else { return }
        let wantsTwo = two.count <= 4
        var afterByte = false, afterTwo = false
        try tables.forEach(.search, prefix: PieceVocabulary.home + [PieceVocabulary.block]) { key, value in
            guard key.count == 9 else { return true }
            ChunkValues.forEachListed(SealedValue.body(value), holding: two) { _, source, bytes in
                guard source == ChunkValues.own else { return }
                if bytes.count >= one.count && ByteSearch.equal(bytes.baseAddress!, one.baseAddress!, count: one.count) { afterByte = true }
                if wantsTwo && bytes.count >= two.count && ByteSearch.equal(bytes.baseAddress!, two.baseAddress!, count: two.count) { afterTwo = true }
            }
            return !(afterByte && (afterTwo || !wantsTwo))
        }
        self.afterByte = afterByte
        self.afterTwo = afterTwo
    }
}
