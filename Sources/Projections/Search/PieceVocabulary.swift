import Crypto
import SystemCalls

/// Every piece any chunk lists (`ChunkValues`), stored once for the whole index under a number of its own, so
/// that a chunk's list is its pieces' numbers and a query looks for its needle in the pieces' text once, not in
/// every chunk.
///
/// Why: a chunk lists about a thousand pieces (names, brands, locations, a code's heads), most of them the
/// same in every chunk. Listed as text, a chunk's list was 14 KB at ten million scans, four overflow pages
/// that a query of 4 bytes or more read in each of 625 chunks: more than half the pages it touched (a page
/// touched is a fault, what a query costs at that size). The pieces' text is ~700 KB for the whole index
/// (~100,000 pieces), and a chunk's list of numbers, sorted and stored as gaps, ~1.2 KB: it fits in its leaf.
///
/// Stored in table `search`, under group 0 after its sets' kinds, so that a group written whole is still
/// appended from group 1 on:
/// - `[0 0 0 0, byBytes, source, bytes…]`: the piece's number (4 bytes, big-endian), for a writer (a piece
///   longer than `longestAsIs` is keyed by its start and its SHA-256: `key`);
/// - `[0 0 0 0, block, b (4 bytes)]`: the pieces numbered `64·b ..< 64·b + 64`, in order, as a list of
///   pieces is written (`ChunkValues.encodedList`: source, length, bytes), read whole by a query;
/// - `[0 0 0 0, count]`: how many pieces are numbered (4 bytes).
/// Each value ends with its check (`SealedValue`), as the index's sets do. A number is never taken back: a
/// piece no chunk lists any more stays numbered.
///
/// A writer's numbers are held until the write ends (`store`); an instance lives for one write transaction.
final class PieceVocabulary {
    static let byBytes: UInt8 = 0xE0
    static let count: UInt8 = 0xE1
    static let block: UInt8 = 0xE2
    static let perBlock = 64
    /// The group the vocabulary's keys start with.
    static let home: [UInt8] = [0, 0, 0, 0]

    /// The longest piece whose key holds its bytes as they are. LMDB's keys hold at most 511 bytes: a piece of a
    /// code of hundreds of characters that many scans share once failed the whole write (`MDB_BAD_VALSIZE`).
    static let longestAsIs = 399

    /// A piece's key: its bytes as they are, or for a longer piece its first 368 bytes and their whole's SHA-256,
    /// 400 bytes, a length no piece keyed as it is has (the blocks hold every piece's bytes whole).
    static func key(source: UInt8, bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > longestAsIs else { return home + [byBytes, source] + bytes }
        return home + [byBytes, source] + bytes.prefix(368) + Array(SHA256.hash(data: bytes))
    }
    static func blockKey(_ block: UInt32) -> [UInt8] { home + [Self.block] + bigEndian(block) }
    static let countKey: [UInt8] = home + [count]

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    static func number(_ bytes: UnsafeRawBufferPointer) -> UInt32? {
        guard bytes.count == 4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Numbers known in this write: stored ones looked up, and new ones.
    private var numbers: [[UInt8]: UInt32] = [:]
    /// Pieces read back by number (`piece`).
    private var pieces: [UInt32: (source: UInt8, bytes: [UInt8])] = [:]
    /// How many pieces the store numbered before this write (nil until read).
    private var storedCount: UInt32?
    /// The pieces this write numbered, from `storedCount` on, until `store`.
    private var fresh: [(source: UInt8, bytes: [UInt8])] = []

    init() {}

    /// What is wrong with a vocabulary entry of table `search` (its kind is `key[4]`), or nil: a key of its
    /// kind's shape, a value whose check matches, a number of 4 bytes, a block of at most `perBlock` pieces.
    static func damage(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> String? {
        guard key.prefix(4).elementsEqual(home) else { return "a shared piece's number outside group 0" }
        switch key[4] {
        case byBytes: guard key.count >= 6 else { return "a shared piece's key of \(key.count) bytes" }
        case count: guard key.count == 5 else { return "the shared pieces' count's key of \(key.count) bytes" }
        default: guard key.count == 9 else { return "a block of shared pieces' key of \(key.count) bytes" }
        }
        guard SealedValue.isSound(key: key, value: value) else { return "the shared pieces' entry's check does not match its bytes" }
        let body = SealedValue.body(value)
        guard key[4] == block else { return body.count == 4 ? nil : "a shared piece's number of \(body.count) bytes" }
        var pieces = 0
        let readable = ChunkValues.forEachListed(body) { _, _, _ in pieces += 1 }
        return readable && pieces <= perBlock ? nil : "a block of shared pieces that does not read"
    }

    /// The number of `piece`: the stored one, or the next, held until `store`.
    func number(of source: UInt8, _ bytes: [UInt8], in tables: any ModelTables) throws -> UInt32 {
        let key = [source] + bytes
        if let known = numbers[key] { return known }
        let storedKey = Self.key(source: source, bytes: bytes)
        let stored = try tables.withValue(.search, storedKey) { value -> UInt32? in
            guard let value, SealedValue.isSound(key: storedKey, value: value) else { return nil }
            return Self.number(SealedValue.body(value))
        }
        let number: UInt32
        if let stored {
            number = stored
        } else {
            number = try count(in: tables) + UInt32(fresh.count)
            fresh.append((source, bytes))
        }
        numbers[key] = number
        return number
    }

    /// The piece numbered `number`, or nil when none is (a damaged list, which `log verify` reports).
    func piece(_ number: UInt32, in tables: any ModelTables) throws -> (source: UInt8, bytes: [UInt8])? {
        if let known = pieces[number] { return known }
        let stored = try count(in: tables)
        if number >= stored {
            let index = Int(number - stored)
            return index < fresh.count ? fresh[index] : nil
        }
        let block = number / UInt32(Self.perBlock)
        try tables.withValue(.search, Self.blockKey(block)) { value in
            guard let value else { return }
            ChunkValues.forEachListed(SealedValue.body(value)) { index, source, bytes in
                pieces[block * UInt32(Self.perBlock) + UInt32(index)] = (source, Array(bytes))
            }
        }
        return pieces[number]
    }

    /// How many pieces are numbered. Without a count that passes its check (none yet, or damage until
    /// `rebuild`) it is taken past the last block's numbers: numbers left unused are no harm, a number given
    /// twice would be.
    private func count(in tables: any ModelTables) throws -> UInt32 {
        if let storedCount { return storedCount }
        var count = try tables.withValue(.search, Self.countKey) { value -> UInt32? in
            guard let value else { return nil }
            guard SealedValue.isSound(key: Self.countKey, value: value) else { return nil }
            return Self.number(SealedValue.body(value))
        }
        if count == nil {
            var past: UInt32 = 0
            try tables.forEach(.search, prefix: Self.home + [Self.block]) { key, _ in
                if key.count == 9, let block = Self.number(UnsafeRawBufferPointer(rebasing: key[5...])) {
                    past = max(past, (block + 1) &* UInt32(Self.perBlock))
                }
                return true
            }
            count = past
        }
        storedCount = count
        return count ?? 0
    }

    /// Stores the pieces this write numbered: their keys, the blocks they fill (the last stored one
    /// extended), and the count. A piece's place in its block is its number, so a stored block that does not
    /// hold the pieces its numbers before say (missing, or damaged: `rebuild` mends it) is made up to them
    /// with empty pieces first, which hold no needle: a number never reads as another piece's text.
    func store(to tables: any ModelTables) throws {
        guard !fresh.isEmpty else { return }
        let first = try count(in: tables)
        for (offset, piece) in fresh.enumerated() {
            let key = Self.key(source: piece.source, bytes: piece.bytes)
            try tables.put(.search, key, SealedValue.seal(key: key, Self.bigEndian(first + UInt32(offset))))
        }
        var number = first
        var next = 0
        while next < fresh.count {
            let block = number / UInt32(Self.perBlock)
            let key = Self.blockKey(block)
            let before = Int(number % UInt32(Self.perBlock))
            var body: [UInt8] = []
            if before > 0 {
                var held = 0
                try tables.withValue(.search, key) { value in
                    guard let value else { return }
                    var pieces = 0
                    if ChunkValues.forEachListed(SealedValue.body(value), { _, _, _ in pieces += 1 }), pieces <= before {
                        body = Array(SealedValue.body(value))
                        held = pieces
                    }
                }
                body += ChunkValues.encodedList(repeatElement((source: ChunkValues.own, bytes: [UInt8]()), count: before - held))
            }
            let room = Int(UInt32(Self.perBlock) - number % UInt32(Self.perBlock))
            let taken = fresh[next..<min(fresh.count, next + room)]
            body += ChunkValues.encodedList(taken.lazy.map { ($0.source, $0.bytes) })
            try tables.put(.search, key, SealedValue.seal(key: key, body))
            number += UInt32(taken.count)
            next += taken.count
        }
        try tables.put(.search, Self.countKey, SealedValue.seal(key: Self.countKey, Self.bigEndian(number)))
        for (offset, piece) in fresh.enumerated() { pieces[first + UInt32(offset)] = piece }
        storedCount = number
        fresh.removeAll()
    }
}

/// The pieces of the whole index that hold a query's needle (`IndexedSearch`), found once a query in the
/// vocabulary's blocks, and for each the matched pieces that are its prefixes: in a chunk that lists one of
/// those, its own set is in theirs (`ChunkValues.closeUnderPrefixes`) and is not read.
struct PieceMatches {
    /// Sorted by number.
    private(set) var numbers: [UInt32] = []
    /// Per number's place: whether the piece is of reports' messages (`ChunkValues.message`).
    private(set) var isMessage: [Bool] = []
    /// Per number's place: the places of the matched pieces that are prefixes of it (of its source).
    private(set) var prefixes: [[Int]] = []
    /// The numbers of the scans' own pieces that end with all of the needle but its last byte, at most
    /// `maxHeads`: a field listed under one of them with that byte after it holds the needle
    /// (`SearchIndex.headNext`).
    private(set) var heads: [UInt32] = []
    /// Whether `heads` holds every such piece (not more than `maxHeads` of them).
    private(set) var headsAreAll = true

    /// The most heads a query reads the sets of in each chunk (a set read is a page touched); a needle that
    /// more heads end in gets its matches past them from the rows, as before.
    static let maxHeads = 8

    var isEmpty: Bool { numbers.isEmpty && heads.isEmpty }

    /// The pieces that hold `needle` (4 bytes or more), leaving out reports' messages when `withMessages` is
    /// false (a replay of a prefix of the log: the report may come after it), and the heads it runs one
    /// byte past. One pass over the vocabulary for both: every piece that holds the needle holds all of it
    /// but its last byte.
    init(needle: UnsafeRawBufferPointer, withMessages: Bool, in tables: any ModelTables) throws {
        var found: [(number: UInt32, source: UInt8, bytes: [UInt8])] = []
        var heads: [UInt32] = []
        let start = UnsafeRawBufferPointer(rebasing: needle.dropLast())
        try tables.forEach(.search, prefix: PieceVocabulary.home + [PieceVocabulary.block]) { key, value in
            guard key.count == 9, let block = PieceVocabulary.number(UnsafeRawBufferPointer(rebasing: key[5...]))
            else { return true }
            ChunkValues.forEachListed(SealedValue.body(value), holding: start) { index, source, bytes in
                guard withMessages || source != ChunkValues.message else { return }
                let number = block * UInt32(PieceVocabulary.perBlock) + UInt32(index)
                if ByteSearch.firstIndex(of: needle, in: bytes) != nil { found.append((number, source, Array(bytes))) }
                if source == ChunkValues.own, bytes.count >= start.count,
                   ByteSearch.equal(bytes.baseAddress! + (bytes.count - start.count), start.baseAddress!, count: start.count) {
                    heads.append(number)
                }
            }
            return true
        }
        headsAreAll = heads.count <= PieceMatches.maxHeads
        self.heads = headsAreAll ? heads : []
        found.sort { $0.number < $1.number }
        numbers = found.map(\.number)
        isMessage = found.map { $0.source == ChunkValues.message }
        // A piece's prefixes among the matched: by its text, in the order pieces of one source sort.
        let byText = found.indices.sorted { ChunkValues.precedes((found[$0].source, found[$0].bytes), (found[$1].source, found[$1].bytes)) }
        prefixes = Array(repeating: [], count: found.count)
        var open: [Int] = []
        for place in byText {
            let piece = found[place]
            while let last = open.last, !(found[last].source == piece.source && piece.bytes.starts(with: found[last].bytes)) {
                open.removeLast()
            }
            prefixes[place] = open
            open.append(place)
        }
    }

    /// Calls `body` with the place of each matched piece a chunk's `list` holds whose matched prefixes it
    /// does not hold; false when the list does not read.
    @discardableResult
    func forEachShortest(in list: UnsafeRawBufferPointer, _ body: (_ place: Int) throws -> Void) rethrows -> Bool {
        guard !numbers.isEmpty else { return true }
        var listed: [Int] = []
        let readable = PieceNumbers.forEachHeld(numbers, in: list) { listed.append($0) }
        for place in listed where !prefixes[place].contains(where: { listed.contains($0) }) { try body(place) }
        return readable
    }
}
