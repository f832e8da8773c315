import SystemCalls

/// The pieces of text that many scans of one chunk share, each with the scans that hold it: a value many
/// scans repeat whole (a product name, a brand, a location, a note, an actor, a report's message) or the
/// head many values of a field start with (a code's `https://verify.veritrail.example`, a scan id's `s-00`).
///
/// Why: a needle of more than 3 bytes is found by its trigrams, which say "may hold" — the trigrams of a
/// scan may lie apart — so every candidate used to be checked against its row, and a needle that many scans
/// hold (`hologram`, `verify.veritrail`) cost a row read for each: seconds at ten million scans. A scan that
/// holds a piece containing the needle holds the needle, so the scans of every piece that contains it are
/// matches proven without their rows, and only the candidates outside them are checked (`IndexedSearch`).
/// Each piece is a prefix of one field's text (the field is a 0-separated part of the row's search text):
/// the whole of it, its first 4, 8, 16 or 32 bytes, or what ends with a delimiter (a code's
/// `https://verify.veritrail.example/c/role-` before `9f3a…`); or a prefix of a tail, the text from a
/// delimiter past that shared head (`?lot=07`, in `…/c/role-9f3a?lot=07317`, `addTails`). A field or tail is
/// listed under the longest of its pieces that at least `threshold` (`messageThreshold`) of the chunk's fields
/// and tails have (a needle in a shorter one is in the longer).
///
/// Stored per chunk (`SearchIndex`): the numbers of its pieces at `[chunk, list]` (`PieceNumbers`; each piece's
/// text is stored once for the whole index, `PieceVocabulary`), and the scans of the piece numbered `n` at
/// `[chunk, members, n (4 bytes)]`, as the index's other sets (`ChunkBits`). A
/// report's message is a piece of its own source (`message`), counted when the write ends rather than with
/// the chunk's scans (`SearchIndexWriter.writeMessages`), which a replay of a prefix of the log does not
/// use: the report may come after the prefix.
///
/// Held on the worker's thread (`GramWorker`), beside the chunk's gram sets: every piece seen, counted, in an
/// open-addressed table over an arena of its bytes, and for each scan's field the pieces it has, which
/// `listed` reads once the counts are known. A noncopyable struct, not a class: its storage is then reached
/// through `self` passed in place, where a class's stored properties pay a dynamic exclusivity check at
/// every touch (a third of what the pieces first cost an import, by instruction count).
struct ChunkValues: ~Copyable {
    /// Where a piece comes from: the scan's own fields, or the report's message.
    static let own: UInt8 = 0
    static let message: UInt8 = 1
    /// How many of a chunk's fields must hold a piece for it to be listed: a piece fewer scans hold saves
    /// few row reads and costs a query a comparison in every chunk.
    static let threshold = 16
    /// The prefixes of a field that are pieces besides the whole field: those of 4, 8, 16 and 32 bytes
    /// (`isFixedLength`; a tail's, `isTailLength`), and every prefix that ends with a delimiter
    /// (`isDelimiter`), at most `maxPrefixes` of them, shortest first.
    static let maxPrefixes = 16
    /// The same for a piece only tails have (`addTails`): a tail's digits part the scans finely (`?lot=073`,
    /// 16 a chunk), and a piece that proves so few saves few row reads while every query reads it in the
    /// chunk's list.
    static let tailThreshold = 64
    /// The same for a piece of reports' messages: a chunk's scans have few reports, counted per write
    /// (`SearchIndexWriter.writeMessages`), so a message many reports repeat may have a handful a chunk.
    static let messageThreshold = 4
    /// The same for an actor's name whole: a person recording a few scans a chunk (a customer) is a value
    /// too rare for `threshold`, yet a needle in it then read a row for each of their scans in every chunk
    /// (`mma.moreau179` at ten million scans: 10,744 page faults, 2,165 listed); a store's actors are few,
    /// so listing them adds a few numbers to a chunk's list and one a name to the index's vocabulary.
    static let actorThreshold = 4
    /// A needle must be at least this long to be looked for in the pieces: a shorter one is answered
    /// exactly by the gram sets.
    static let shortest = 4
    /// The most tails taken of a field (`addTails`).
    static let maxTails = 4
    /// The most pieces a chunk lists.
    static let maxListed = 1 << 16

    /// Per piece seen: its hash, where its bytes are in `arena`, their count, its source and how many
    /// fields have it; a struct of arrays, grown by doubling, read and written through pointers (this runs
    /// for every field of every scan an import adds).
    private var capacity = 0
    private var count = 0
    private var hashes: UnsafeMutablePointer<UInt64>
    private var starts: UnsafeMutablePointer<UInt32>
    private var lengths: UnsafeMutablePointer<UInt32>
    private var seen: UnsafeMutablePointer<UInt32>
    private var sources: UnsafeMutablePointer<UInt8>
    /// Whether some scan's actor is the piece whole (`actorThreshold`).
    private var actors: UnsafeMutablePointer<Bool>
    /// How many fields `add` took that are the piece whole (up to 255: only 0 and `hotAfter` are asked), and
    /// where the pieces of the first of them begin in `fieldPieces` and how many there are before the whole
    /// (`addKnownField`). Narrow, since every piece of a chunk has them (a few hundred thousand).
    private var wholeSeen: UnsafeMutablePointer<UInt8>
    private var prefixStarts: UnsafeMutablePointer<UInt32>
    private var prefixCounts: UnsafeMutablePointer<UInt8>
    /// The piece's number among the hot values (`hotFields`), or `notHot` (a chunk's fields are fewer than
    /// `hotAfter` times that).
    private var hotNumbers: UnsafeMutablePointer<UInt16>
    private static let notHot = UInt16.max
    private var hotCount = 0
    /// Piece index + 1 by open addressing on the hash (0: empty), never more than half full.
    private var table: UnsafeMutablePointer<UInt32>
    private var tableSize = 1 << 12
    private var arena: [UInt8] = []
    /// Per field of a scan: its offset in the chunk (the low 16 bits) and where its pieces end in
    /// `fieldPieces` (the bits above).
    private var fields: [UInt64] = []
    /// The pieces of each field, shortest first.
    private var fieldPieces: [UInt32] = []
    /// The bytes of the fields added, one after the other, and where each ends: read for their tails.
    private var texts: [UInt8] = []
    private var textEnds: [UInt32] = []
    /// Whether `listed` has counted the tails (it does once a chunk), and the first piece that only tails
    /// have (those counted before are fields').
    private var tailsCounted = false
    private var tailsFrom = Int.max
    /// Per field added (not tail), the piece `listed` listed it under (-1: none), and whether the list was
    /// cut at `maxListed`: read by `uncovered`.
    private var headPieces: [Int32] = []
    /// Per tail (`addTails`), the three bytes before it in its field (-1: none), and the piece `listed` listed
    /// it under (-1: none): read by `tailsAfter`.
    private var tailBefore: [(Int16, Int16, Int16)] = []
    private var tailPieces: [Int32] = []
    /// The pairs of set and member `headNext`, `headFollowing` and `tailsAfter` gather (`pair`), kept for their
    /// capacity.
    private var pairs: [UInt64] = []
    private var isCut = false
    /// Whether every field's head is known (`listed` did not cut its list) and a field's number fits the 26
    /// bits `headFollowing` gives it (a chunk has far fewer: 10 fields a scan): `uncovered`, `headNext` and
    /// `headFollowing` are made for a chunk together or not at all, since a query rules candidates out only
    /// with all three (`IndexedSearch.startsPastHeads`).
    private var headsAreKnown: Bool { !isCut && headPieces.count == textEnds.count && textEnds.count < 1 << 26 }
    /// A bit per trigram (2 MB, made when first needed): those of the covered heads, in `uncovered`.
    private var gramBits: [UInt64] = []

    /// Whether a field seen before is counted from its first time (`addKnownField`, and its tails in
    /// `addTails`); false only as the tests' oracle, which probes every piece of every field.
    private let reusesFields: Bool

    init(reusingFields: Bool = true) {
        reusesFields = reusingFields
        hashes = .allocate(capacity: 0); starts = .allocate(capacity: 0); lengths = .allocate(capacity: 0)
        seen = .allocate(capacity: 0); sources = .allocate(capacity: 0); actors = .allocate(capacity: 0)
        wholeSeen = .allocate(capacity: 0); prefixStarts = .allocate(capacity: 0); prefixCounts = .allocate(capacity: 0)
        hotNumbers = .allocate(capacity: 0)
        table = .allocate(capacity: tableSize)
        table.initialize(repeating: 0, count: tableSize)
    }

    deinit {
        hashes.deallocate(); starts.deallocate(); lengths.deallocate(); seen.deallocate(); sources.deallocate()
        actors.deallocate(); wholeSeen.deallocate(); prefixStarts.deallocate(); prefixCounts.deallocate()
        hotNumbers.deallocate()
        table.deallocate()
    }

    var isEmpty: Bool { fields.isEmpty }

    /// Whether a scan's own text was added (not only reports' messages): a chunk stored before then has
    /// scans whose heads `uncovered` does not know.
    private(set) var addsOwnText = false

    mutating func reset() {
        if count > 0 { table.update(repeating: 0, count: tableSize) }
        count = 0
        hotCount = 0
        hotStopped = false
        hotFields.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        fieldPieces.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
        textEnds.removeAll(keepingCapacity: true)
        tailsCounted = false
        tailsFrom = .max
        headPieces.removeAll(keepingCapacity: true)
        tailBefore.removeAll(keepingCapacity: true)
        tailPieces.removeAll(keepingCapacity: true)
        isCut = false
        addsOwnText = false
    }

    /// A field of the text `add` took last that is a value the chunk's fields were whole more than `hotAfter`
    /// times before (a product name, a brand, a location, an actor): `start..<end` in the text, the value's
    /// number among the chunk's hot values, and whether this is its first time hot.
    struct HotField {
        let start: Int
        let end: Int
        let number: Int
        let isNew: Bool
    }

    /// How many times a value is a field whole before it is hot (`ChunkPostings.add`). The sets of the grams
    /// of a hot value's first `hotAfter` fields were made then, so that every set its grams go to exists.
    static let hotAfter: UInt8 = 32

    /// The hot values among the fields of the last text of source `own` that `add` took, in text order.
    private(set) var hotFields: [HotField] = []
    /// Whether `add` no longer lists hot values in this chunk: a text of it was too long for the held sets,
    /// so a value's first fields may not have made its sets (`GramWorker`).
    private var hotStopped = false

    /// Stops listing hot values until the next `reset`.
    mutating func stopHotValues() { hotStopped = true }

    /// Adds the fields of one text of scan `offset` (a scan's search text, fields separated by 0 bytes, or a
    /// message with `source` `message`), the first of which is search field `firstField` (`ScanRow`).
    mutating func add(_ offset: Int, text: UnsafeRawBufferPointer, source: UInt8, firstField: Int = 0) {
        if source == ChunkValues.own { addsOwnText = true }
        hotFields.removeAll(keepingCapacity: true)
        guard let base = text.baseAddress else { return }
        let n = text.count
        var i = 0
        var field = firstField
        while i < n {
            let start = i
            while i < n && base.load(fromByteOffset: i, as: UInt8.self) != 0 { i += 1 }
            if i - start >= ChunkValues.shortest {
                let isActor = source == ChunkValues.own && field == ScanRow.actorField
                if let whole = addKnownField(offset, base + start, count: i - start, source: source, isActor: isActor) {
                    if source == ChunkValues.own && !hotStopped && wholeSeen[whole] > ChunkValues.hotAfter
                        && hotCount < Int(ChunkValues.notHot) {
                        let isNew = hotNumbers[whole] == ChunkValues.notHot
                        if isNew {
                            hotNumbers[whole] = UInt16(hotCount)
                            hotCount += 1
                        }
                        hotFields.append(HotField(start: start, end: i, number: Int(hotNumbers[whole]), isNew: isNew))
                    }
                } else {
                    addPrefixes(offset, base + start, count: i - start, source: source, fixed: ChunkValues.isFixedLength,
                                isActor: isActor, isField: true)
                }
                texts.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: i - start))
                textEnds.append(UInt32(truncatingIfNeeded: texts.count))
            }
            i += 1
            field += 1
        }
    }

    /// Counts the pieces of one field (or tail) of `count` bytes, 4 or more: the prefixes of a length
    /// `fixed` allows and those that end with a delimiter, at most `maxPrefixes` of them, the text before a
    /// number it ends with (below), and the whole; then lists it as a field of scan `offset` with those pieces.
    ///
    /// A name and its number (`oscar.lopez123`, and the tail `.lindqvist113`): the text before the last run
    /// of digits is a piece too when it holds no digit and is longer than 8 bytes (`oscar.lopez`,
    /// `.lindqvist`), so that a needle across the name's parts (`car.lope`) or the whole surname
    /// (`lindqvist`) is proven for a name too rare to be listed whole; the fixed prefixes stop at 8 bytes in a
    /// tail and miss it in a field. A random value (a code's hex, an id) has a digit before its end, and gains
    /// no piece (every tail prefix up to 16 bytes, tried before, doubled a random tail's pieces).
    ///
    /// One pass over the bytes: the hash of every prefix is the running hash where the prefix ends, so a
    /// field's pieces cost a table probe each, not a hash each.
    ///
    /// A field (`isField`, from `add`) whose whole piece is new, or was only a prefix or a tail before, has its
    /// pieces kept for the next field of the same bytes (`addKnownField`).
    @inline(__always)
    private mutating func addPrefixes(_ offset: Int, _ bytes: UnsafeRawPointer, count n: Int, source: UInt8, fixed: (Int) -> Bool,
                                      isActor: Bool = false, isField: Bool = false) {
        var hash = ChunkValues.seed ^ UInt64(source)
        var prefixes = 0
        let firstPiece = fieldPieces.count
        var name = n
        while name > 0 && ChunkValues.isDigit(bytes.load(fromByteOffset: name - 1, as: UInt8.self)) { name -= 1 }
        if name == n || name <= 8 { name = 0 }
        var digitSeen = false
        for i in 0..<(n - 1) {
            let byte = bytes.load(fromByteOffset: i, as: UInt8.self)
            hash = (hash ^ UInt64(byte)) &* ChunkValues.multiplier
            let length = i + 1
            if ChunkValues.isDigit(byte) { digitSeen = true }
            let isName = length == name && !digitSeen
            if length >= ChunkValues.shortest && prefixes < ChunkValues.maxPrefixes
                && (fixed(length) || ChunkValues.isDelimiter(byte) || isName) {
                fieldPieces.append(piece(hash, bytes, length, source))
                prefixes += 1
            }
        }
        hash = (hash ^ UInt64(bytes.load(fromByteOffset: n - 1, as: UInt8.self))) &* ChunkValues.multiplier
        let whole = piece(hash, bytes, n, source)
        if isActor { actors[Int(whole)] = true }
        if isField {
            if wholeSeen[Int(whole)] == 0 {
                prefixStarts[Int(whole)] = UInt32(truncatingIfNeeded: firstPiece)
                prefixCounts[Int(whole)] = UInt8(truncatingIfNeeded: prefixes)
            }
            countWhole(Int(whole))
        }
        fieldPieces.append(whole)
        fields.append(UInt64(fieldPieces.count) << 16 | UInt64(UInt16(truncatingIfNeeded: offset)))
    }

    /// Counts a field `add` took before, whole, as `addPrefixes` would: the pieces its first time found (its
    /// prefixes depend on its bytes and source only), each counted once more, without a probe of the table
    /// for each. Nil, counting nothing, when no field was the same bytes whole before.
    ///
    /// Why: half the bytes of a chunk's fields are values it holds 32 times or more (product names, brands,
    /// locations, actors); each of their prefixes was a probe and a comparison of its bytes.
    @inline(__always)
    private mutating func addKnownField(_ offset: Int, _ bytes: UnsafeRawPointer, count n: Int, source: UInt8, isActor: Bool) -> Int? {
        guard reusesFields else { return nil }
        var hash = ChunkValues.seed ^ UInt64(source)
        for i in 0..<n { hash = (hash ^ UInt64(bytes.load(fromByteOffset: i, as: UInt8.self))) &* ChunkValues.multiplier }
        guard let whole = probe(hash, bytes, n, source).index, wholeSeen[whole] > 0 else { return nil }
        let first = Int(prefixStarts[whole])
        for k in first..<(first + Int(prefixCounts[whole])) {
            let prefix = fieldPieces[k]
            seen[Int(prefix)] += 1
            fieldPieces.append(prefix)
        }
        seen[whole] += 1
        countWhole(whole)
        if isActor { actors[whole] = true }
        fieldPieces.append(UInt32(truncatingIfNeeded: whole))
        fields.append(UInt64(fieldPieces.count) << 16 | UInt64(UInt16(truncatingIfNeeded: offset)))
        return whole
    }

    /// Counts the tails of the fields added so far, and lists each as a field of its scan: past the longest
    /// piece the field shares from its start (a needle inside it is proven already), the text after that
    /// head and the text from each delimiter on (`9f3a?lot=07317`, `?lot=07317` and `=07317` in
    /// `https://verify.example/c/role-9f3a?lot=07317`), at most `maxTails` a field. Its prefixes of 4 to 8
    /// bytes are pieces (`isTailLength`): a tail's head is a parameter's name and the first digits of its
    /// value (`?lot=0`, `?lot=07`), each byte of which parts the scans by ten, and a needle there that many
    /// scans hold is then proven too. The first tail begins at the head's last delimiter, not at the
    /// head's end: a name too rare to be listed whole (`ines.rossi083`, under `ines.` or `ines.rossi`) and a
    /// name listed whole (`quentin.rossi066`, whose head is all of it) then share the tail `.rossi0`, and a
    /// needle in it (`rossi`, `.rossi`) is proven for both by one piece instead of a row read for each of
    /// the first.
    ///
    /// Why at the chunk's end: only then is it known where a field's shared head ends; a tail taken at
    /// every delimiter would cost a code's head (`https:`, `//verify.`, `example/`, `c/`) pieces no query
    /// needs.
    ///
    /// A field whose whole piece an earlier field was has the same tails (they depend on its bytes and on which
    /// of its pieces pass): their pieces are counted again from the first one's, without a probe each — while
    /// no tail has counted a field's piece once more, which could make it pass and move a later field's head.
    private mutating func addTails() {
        let texts = self.texts
        let firstTailPiece = count
        let fieldCount = textEnds.count
        var from = 0, textFrom = 0
        // Per whole piece of a field: the number of its first field's first tail (-1: not seen), and how many.
        var firstTails = [Int32](repeating: -1, count: count)
        var tailCounts = [UInt8](repeating: 0, count: count)
        var reusing = reusesFields
        texts.withUnsafeBytes { texts in
            for k in 0..<fieldCount {
                let field = fields[k]
                let end = Int(field >> 16), textEnd = Int(textEnds[k])
                defer { from = end; textFrom = textEnd }
                let whole = Int(fieldPieces[end - 1])
                if reusing && firstTails[whole] >= 0 {
                    addTails(Int(field & 0xFFFF), like: Int(firstTails[whole]), count: Int(tailCounts[whole]), fieldCount: fieldCount)
                    continue
                }
                let firstTail = tailBefore.count, firstNewPiece = fieldPieces.count
                defer {
                    if reusing {
                        firstTails[whole] = Int32(firstTail)
                        tailCounts[whole] = UInt8(tailBefore.count - firstTail)
                        reusing = !fieldPieces[firstNewPiece...].contains { Int($0) < firstTailPiece }
                    }
                }
                var shared = 0
                for i in from..<end where passes(Int(fieldPieces[i])) { shared = Int(lengths[Int(fieldPieces[i])]) }
                let text = texts.baseAddress! + textFrom, length = textEnd - textFrom
                let source = sources[Int(fieldPieces[end - 1])]
                var tails = 0
                // The first tail begins at the head's last delimiter, so that it is the same whatever prefix
                // is the head (`.rossi083` past `ines.` or `ines.rossi`), and a value listed whole has one too
                // (`.rossi066` in `quentin.rossi066`); with the delimiter, as every later tail has it, so
                // that a needle from it on (`.rossi0`) is in the tail.
                var first = shared
                while first > 0 && !ChunkValues.isDelimiter(text.load(fromByteOffset: first - 1, as: UInt8.self)) { first -= 1 }
                first = first == 0 ? shared : first - 1
                var at = shared
                func before(_ start: Int) -> (Int16, Int16, Int16) {
                    func byte(_ back: Int) -> Int16 { start >= back ? Int16(text.load(fromByteOffset: start - back, as: UInt8.self)) : -1 }
                    return (byte(3), byte(2), byte(1))
                }
                if shared > 0 && first + ChunkValues.shortest <= length {
                    addPrefixes(Int(field & 0xFFFF), text + first, count: length - first, source: source, fixed: ChunkValues.isTailLength)
                    tailBefore.append(before(first))
                    tails += 1
                    if first == shared { at += 1 }
                }
                while at + ChunkValues.shortest <= length && tails < ChunkValues.maxTails {
                    if ChunkValues.isDelimiter(text.load(fromByteOffset: at, as: UInt8.self)) {
                        addPrefixes(Int(field & 0xFFFF), text + at, count: length - at, source: source, fixed: ChunkValues.isTailLength)
                        tailBefore.append(before(at))
                        tails += 1
                    }
                    at += 1
                }
            }
        }
        tailsFrom = firstTailPiece
    }

    /// Adds `count` tails to the field of scan `offset`, those of the tails numbered from `first` on.
    private mutating func addTails(_ offset: Int, like first: Int, count: Int, fieldCount: Int) {
        for tail in first..<(first + count) {
            let entry = fieldCount + tail
            for k in Int(fields[entry - 1] >> 16)..<Int(fields[entry] >> 16) {
                let piece = fieldPieces[k]
                seen[Int(piece)] += 1
                fieldPieces.append(piece)
            }
            fields.append(UInt64(fieldPieces.count) << 16 | UInt64(UInt16(truncatingIfNeeded: offset)))
            tailBefore.append(tailBefore[tail])
        }
    }

    /// Whether enough fields have the piece at `index` for it to be listed.
    @inline(__always)
    private func passes(_ index: Int) -> Bool {
        if index >= tailsFrom { return seen[index] >= ChunkValues.tailThreshold }
        if actors[index] && seen[index] >= ChunkValues.actorThreshold { return true }
        return seen[index] >= (sources[index] == ChunkValues.message ? ChunkValues.messageThreshold : ChunkValues.threshold)
    }

    /// Whether a prefix that ends with `byte` is a piece, and a tail starts after it: the punctuation that
    /// parts a code, an id or an address (`https://verify.example/c/ROLE-9f3a?lot=07317`, `B-0823-00012`,
    /// `ines.m@example.org`), whose heads many scans share while what follows differs.
    @inline(__always)
    static func isDelimiter(_ byte: UInt8) -> Bool {
        byte < 64 ? (delimitersBelow64 >> UInt64(byte)) & 1 != 0 : byte < 128 && (delimitersFrom64 >> UInt64(byte - 64)) & 1 != 0
    }

    /// `# & , - . / : = ?` and `@ _`, as bits of a byte's value (a test per byte of every field; a literal,
    /// so that reading it is not a lazy global's check). `ChunkValuesTests` checks them against the text.
    static let delimitersBelow64: UInt64 = 0xa400_f048_0000_0000
    static let delimitersFrom64: UInt64 = 0x0000_0000_8000_0001

    /// Whether a prefix of `length` (4 or more) bytes is one of the fixed ones: 4, 8, 16 or 32.
    @inline(__always)
    static func isFixedLength(_ length: Int) -> Bool { length & (length - 1) == 0 && length <= 32 }

    /// Whether a prefix of a tail of `length` (4 or more) bytes is one of the fixed ones: 4 to 8, 16 or 32.
    /// Not every length up to 16 (`lindqvist`, 9 bytes, in `lindqvist042`): a random tail (a drawn scan id,
    /// a code's random part) then has twice the prefixes, each a piece of its own, which took a batch of
    /// 100,000 scans from 141 to 212 MB of heap.
    @inline(__always)
    static func isTailLength(_ length: Int) -> Bool { length <= 8 || isFixedLength(length) }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// FNV-1a's, over 64 bits; a table's slot is taken from the mixed high bits.
    private static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let multiplier: UInt64 = 0x0000_0100_0000_01b3

    /// Counts one more field that is the piece at `index` whole (`wholeSeen` stops at 255).
    @inline(__always)
    private func countWhole(_ index: Int) {
        if wholeSeen[index] < .max { wholeSeen[index] += 1 }
    }

    /// Finds the piece of `length` bytes at `bytes` from `source` whose running hash is `hash`: its index (nil
    /// when there is none yet), the place in `table` where it is or would go, and its key there.
    @inline(__always)
    private func probe(_ hash: UInt64, _ bytes: UnsafeRawPointer, _ length: Int, _ source: UInt8)
        -> (index: Int?, place: Int, key: UInt64) {
        let key = hash ^ UInt64(length) &* 0x9E37_79B9_7F4A_7C15
        let mask = tableSize - 1
        var h = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while true {
            let slot = Int(table[h]) - 1
            if slot < 0 { return (nil, h, key) }
            if hashes[slot] == key && Int(lengths[slot]) == length && sources[slot] == source
                && arena.withUnsafeBytes({ ByteSearch.equal($0.baseAddress! + Int(starts[slot]), bytes, count: length) }) {
                return (slot, h, key)
            }
            h = (h + 1) & mask
        }
    }

    /// The index of the piece of `length` bytes at `bytes` from `source`, whose running hash is `hash`,
    /// counted once more; its bytes are compared, so two pieces are never taken for one.
    @inline(__always)
    private mutating func piece(_ hash: UInt64, _ bytes: UnsafeRawPointer, _ length: Int, _ source: UInt8) -> UInt32 {
        let (found, h, key) = probe(hash, bytes, length, source)
        if let found {
            seen[found] += 1
            return UInt32(found)
        }
        if count == capacity { growPieces() }
        let index = count
        hashes[index] = key
        starts[index] = UInt32(truncatingIfNeeded: arena.count)
        lengths[index] = UInt32(truncatingIfNeeded: length)
        seen[index] = 1
        sources[index] = source
        actors[index] = false
        wholeSeen[index] = 0
        hotNumbers[index] = ChunkValues.notHot
        arena.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
        count += 1
        if 2 * count > tableSize {
            growTable()
        } else {
            table[h] = UInt32(index + 1)
        }
        return UInt32(index)
    }

    private mutating func growPieces() {
        let grown = max(1 << 12, 2 * capacity)
        func moved<T>(_ old: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
            let new = UnsafeMutablePointer<T>.allocate(capacity: grown)
            new.moveInitialize(from: old, count: count)
            old.deallocate()
            return new
        }
        hashes = moved(hashes); starts = moved(starts); lengths = moved(lengths); seen = moved(seen); sources = moved(sources)
        actors = moved(actors); wholeSeen = moved(wholeSeen); prefixStarts = moved(prefixStarts)
        prefixCounts = moved(prefixCounts); hotNumbers = moved(hotNumbers)
        capacity = grown
    }

    /// Doubles the table and places every piece again (the last one made included).
    private mutating func growTable() {
        table.deallocate()
        tableSize *= 2
        table = .allocate(capacity: tableSize)
        table.initialize(repeating: 0, count: tableSize)
        let mask = tableSize - 1
        for index in 0..<count {
            var h = Int(truncatingIfNeeded: (hashes[index] &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while table[h] != 0 { h = (h + 1) & mask }
            table[h] = UInt32(index + 1)
        }
    }

    /// The pieces to list, sorted by source and bytes, each with its scans: the fields listed under it (each
    /// field under its longest piece that `threshold` fields have) and under every listed piece it is a
    /// prefix of (`closeUnderPrefixes`). Besides the pieces fields are listed under, the branch points: a
    /// prefix that many fields have and that at least two listed pieces start with (a code's
    /// `https://verify.veritrail.example/c` above each brand's head, `marco` above each `marco.…`), the
    /// longest of those with the same pieces below, so that a needle in it takes one set, not one per piece.
    mutating func listed() -> [(source: UInt8, bytes: [UInt8], members: ChunkBits)] {
        if !tailsCounted { addTails() }
        tailsCounted = true
        // Per piece: its place in `members` (-1: no field is listed under it), and whether it is a passing
        // piece that some field has a longer one beyond (a candidate branch point). Arrays, not dictionaries:
        // this runs for every field of a chunk.
        var slotOf = [Int32](repeating: -1, count: count)
        var isBelowLongest = [Bool](repeating: false, count: count)
        var members: [ChunkBits] = []
        var owners: [Int] = []
        var from = 0
        headPieces.removeAll(keepingCapacity: true)
        tailPieces.removeAll(keepingCapacity: true)
        for (k, field) in fields.enumerated() {
            let end = Int(field >> 16)
            var longest = -1
            for i in from..<end where passes(Int(fieldPieces[i])) {
                if longest >= 0 { isBelowLongest[longest] = true }
                longest = Int(fieldPieces[i])
            }
            from = end
            if k < textEnds.count { headPieces.append(Int32(longest)) } else { tailPieces.append(Int32(longest)) }
            guard longest >= 0 else { continue }
            if slotOf[longest] < 0 {
                slotOf[longest] = Int32(members.count)
                members.append(ChunkBits())
                owners.append(longest)
            }
            members[Int(slotOf[longest])].insert(Int(field & 0xFFFF))
        }
        func piece(_ index: Int) -> (source: UInt8, bytes: [UInt8]) {
            let start = Int(starts[index]), length = Int(lengths[index])
            return (sources[index], Array(arena[start..<(start + length)]))
        }
        var listed = zip(owners, members).map { index, members in
            let (source, bytes) = piece(index)
            return (source: source, bytes: bytes, members: members)
        }
        listed.sort { ChunkValues.precedes(($0.source, $0.bytes), ($1.source, $1.bytes)) }
        // Keyed by the listed pieces below: of candidates over the same ones, the longest is kept.
        var branches: [Range<Int>: (source: UInt8, bytes: [UInt8])] = [:]
        for index in 0..<count where isBelowLongest[index] && slotOf[index] < 0 {
            let candidate = piece(index)
            let below = ChunkValues.startingWith(candidate, in: listed)
            // Over one piece, or over pieces that all start with the first of them: that one answers for it.
            guard below.count >= 2, !below.allSatisfy({ listed[$0].bytes.starts(with: listed[below.lowerBound].bytes) }) else { continue }
            if let kept = branches[below], kept.bytes.count >= candidate.bytes.count { continue }
            branches[below] = candidate
        }
        listed += branches.values.map { (source: $0.source, bytes: $0.bytes, members: ChunkBits()) }
        listed.sort { ChunkValues.precedes(($0.source, $0.bytes), ($1.source, $1.bytes)) }
        ChunkValues.closeUnderPrefixes(&listed)
        isCut = listed.count > ChunkValues.maxListed
        return Array(listed.prefix(ChunkValues.maxListed))
    }

    /// What the chunk's own fields hold past the piece each is listed under, for a query to rule out
    /// candidates without their rows (`IndexedSearch`): for each trigram of the listed heads, the scans that
    /// have it in a field where it ends past the field's head (a code's unique part, a field no piece lists;
    /// mostly none), in trigram order. Nil when the fields' heads are not known (`headsAreKnown`: a head may
    /// not be listed). Called after `listed`.
    ///
    /// Why: a longer needle's candidates are the scans that hold all its trigrams, anywhere; `marco`'s are
    /// in `powercore 20000 mah` and `marché de la croix-rousse` as well, read row by row. A match not proven
    /// by a piece lies in a field but not inside its head, so the needle's last trigram ends past the head:
    /// a candidate outside that trigram's set here (and unproven, and with no message holding the needle's
    /// trigrams) is no match. Only the heads' trigrams get sets: for any other, every scan that has it has
    /// it outside a head, and the set would rule nothing out (a query finds no set and rules out nothing).
    mutating func uncovered() -> [(gram: UInt32, members: ChunkBits)]? {
        guard headsAreKnown else { return nil }
        if gramBits.isEmpty { gramBits = [UInt64](repeating: 0, count: 1 << 18) }
        var covered: [UInt32] = []
        var done = [Bool](repeating: false, count: count)
        for k in 0..<textEnds.count {
            let head = Int(headPieces[k])
            guard head >= 0, !done[head], sources[head] == ChunkValues.own else { continue }
            done[head] = true
            let start = Int(starts[head]), length = Int(lengths[head])
            guard length >= 3 else { continue }
            for j in start...(start + length - 3) {
                let gram = UInt32(arena[j]) << 16 | UInt32(arena[j + 1]) << 8 | UInt32(arena[j + 2])
                if gramBits[Int(gram >> 6)] & (1 << UInt64(gram & 63)) == 0 {
                    gramBits[Int(gram >> 6)] |= 1 << UInt64(gram & 63)
                    covered.append(gram)
                }
            }
        }
        covered.sort()
        var slot: [UInt32: Int] = [:]
        var sets = covered.map { (gram: $0, members: ChunkBits()) }
        for (i, gram) in covered.enumerated() { slot[gram] = i }
        var textFrom = 0
        texts.withUnsafeBytes { texts in
            for k in 0..<textEnds.count {
                let end = Int(fields[k] >> 16), textEnd = Int(textEnds[k])
                defer { textFrom = textEnd }
                guard sources[Int(fieldPieces[end - 1])] == ChunkValues.own else { continue }
                let head = Int(headPieces[k])
                let headLength = head >= 0 ? Int(lengths[head]) : 0
                let length = textEnd - textFrom
                guard length >= 3, headLength < length else { continue }
                let offset = Int(fields[k] & 0xFFFF)
                for j in max(headLength - 2, 0)...(length - 3) {
                    let at = textFrom + j
                    let gram = UInt32(texts[at]) << 16 | UInt32(texts[at + 1]) << 8 | UInt32(texts[at + 2])
                    guard gramBits[Int(gram >> 6)] & (1 << UInt64(gram & 63)) != 0 else { continue }
                    sets[slot[gram]!].members.insert(offset)
                }
            }
        }
        for gram in covered { gramBits[Int(gram >> 6)] = 0 }
        return sets
    }

    /// The scans of the chunk's own fields by the head each is listed under and the byte after it: for a
    /// query to prove without their rows the matches of a needle that ends one byte past a head
    /// (`IndexedSearch`), each set in its stored form (`ChunkBits`). Nil when the fields' heads are not known
    /// (`headsAreKnown`). Called after `listed`.
    ///
    /// Why: such a needle (`/bosc-6`, from a code's shared head into its random part) is in no piece, and its
    /// matches are many (a sixteenth of the head's fields, for a hex digit), each a row read: 9,258 of them,
    /// 79 ms, at ten million scans. A field that starts with the head and then that byte holds the needle
    /// whenever the head ends with all of the needle but its last byte.
    mutating func headNext() -> [(head: [UInt8], byte: UInt8, members: [UInt8])]? {
        guard headsAreKnown else { return nil }
        var pairs = takePairs()
        defer { givePairs(pairs) }
        forEachFieldUnderAHead { field, head, text in
            let length = Int(lengths[head])
            guard length < text.count else { return }
            pairs.append(ChunkValues.pair(set: UInt64(head) << 8 | UInt64(text[length]), offset: field))
        }
        var sets: [(head: [UInt8], byte: UInt8, members: [UInt8])] = []
        ChunkValues.forEachSet(of: &pairs) { set, members in
            let head = Int(set >> 8)
            sets.append((Array(bytes(ofPiece: head)), UInt8(truncatingIfNeeded: set), members))
        }
        return sets
    }

    /// The scans of `headNext`'s sets by the two bytes that follow the head's next byte in their field: per
    /// head's last byte, byte after the head and the one after that, each field's scan with its head (an index
    /// into `heads`) and the byte after those two (0 where the field ends first), in the order of their scans.
    /// A field that ends right after the head's next byte is in none. For a query to prove without their rows
    /// the matches of a needle that ends two or three bytes past a head (`HeadProofs`). Nil as `headNext`.
    /// Called after `listed`.
    ///
    /// Why: such a needle (`burb-6d`, `r-51`, `-283`: from a code's shared head two or three characters into its
    /// random part) is in no piece, and its matches were each a row read: 837 to 2,157 rows, 56–103 ms, at ten
    /// million scans.
    mutating func headFollowing() -> HeadFollowing? {
        guard headsAreKnown else { return nil }
        var pairs = takePairs()
        defer { givePairs(pairs) }
        // Sorted by the set's three bytes and the scan; the rest of an entry lies beside them, by its index.
        var found: [(head: Int32, third: UInt8)] = []
        forEachFieldUnderAHead { field, head, text in
            let next = Int(lengths[head])
            guard next > 0, next + 1 < text.count else { return }
            let set = UInt64(text[next - 1]) << 16 | UInt64(text[next]) << 8 | UInt64(text[next + 1])
            pairs.append(set << 40 | (field & 0x3FFF) << 26 | UInt64(found.count))
            found.append((Int32(head), next + 2 < text.count ? text[next + 2] : 0))
        }
        pairs.sort()
        var made = HeadFollowing()
        var headIndex: [Int32: Int] = [:]
        var start = 0
        while start < pairs.count {
            var end = start + 1
            while end < pairs.count && pairs[end] >> 40 == pairs[start] >> 40 { end += 1 }
            let entries = pairs[start..<end].map { pair in
                let entry = found[Int(pair & 0x3FF_FFFF)]
                let head = headIndex[entry.head] ?? {
                    made.heads.append(Array(bytes(ofPiece: Int(entry.head))))
                    headIndex[entry.head] = made.heads.count - 1
                    return made.heads.count - 1
                }()
                return (offset: Int(pair >> 26 & 0x3FFF), head: head, third: entry.third)
            }
            let set = pairs[start] >> 40
            made.sets.append((UInt8(truncatingIfNeeded: set >> 16), UInt8(truncatingIfNeeded: set >> 8), UInt8(truncatingIfNeeded: set), entries))
            start = end
        }
        return made
    }

    /// Calls `body` with each of the chunk's own fields that is listed under a head (`listed`): its entry in
    /// `fields`, the head's piece, and its bytes.
    private func forEachFieldUnderAHead(_ body: (_ field: UInt64, _ head: Int, _ text: UnsafeRawBufferPointer) -> Void) {
        var textFrom = 0
        texts.withUnsafeBytes { texts in
            for k in 0..<textEnds.count {
                let end = Int(fields[k] >> 16), textEnd = Int(textEnds[k])
                defer { textFrom = textEnd }
                let head = Int(headPieces[k])
                guard head >= 0, sources[Int(fieldPieces[end - 1])] == ChunkValues.own else { continue }
                body(fields[k], head, UnsafeRawBufferPointer(rebasing: texts[textFrom..<textEnd]))
            }
        }
    }

    /// The scans of the chunk's own fields by what comes before a tail of theirs (`addTails`), for a query to
    /// prove without their rows the matches of a needle that starts one or two bytes before a tail
    /// (`IndexedSearch`): keys (below the chunk's group) and sets in their stored form. Called after `listed`.
    /// - `[tailAfterByte, byte, piece…]`: the byte before a tail, and the piece the tail is listed under (at
    ///   most `maxTailKey` bytes): a needle of that byte and then a prefix of the piece.
    /// - `[tailAfterTwo, byte, byte, start…]`: the two bytes before a tail, and its first four bytes when they
    ///   are a piece that passes (`?lot` of a code's `?lot=07317`): a needle of those bytes and then at most
    ///   four of the tail's.
    /// - `[tailAfterThree, byte, byte, byte, start…]`: the same with three bytes before the tail.
    /// - `[tailsRepeated]`: the scans two of whose tails here (those with a byte before them) start with the
    ///   same four bytes, or that have two and one of them has no piece of four bytes: most often none.
    ///
    /// Why: such a needle (`f?lot`, from a code's random part into its lot) is in no piece, and its matches
    /// are a sixteenth of the codes (a hex digit), each a row read: 163,048 page faults and 1.9 s at ten million
    /// scans. Two bytes before (`29?lo`) are a 256th, still 39,000 rows. Keyed by the piece's bytes, not its
    /// number, so that a needle's tail prefix is one range of keys (`f?lo`: every `?lot=NN` a chunk lists).
    /// Two bytes before and more of the tail (`29?lot=9`, 3,477 rows at ten million) is no key of its own (a
    /// set for each pair of bytes and piece, thousands a chunk): the scans of both kinds' sets whose tails
    /// are not repeated. Three bytes before (`829?lo`, a 4,096th of the codes, each a row read without them)
    /// have keys of their own: sets of a few scans each, thousands a chunk (docs/SCALE.md).
    mutating func tailsAfter() -> [(key: [UInt8], members: [UInt8])] {
        guard tailsCounted, tailPieces.count == tailBefore.count, fields.count == textEnds.count + tailBefore.count else { return [] }
        var one = takePairs(), two: [UInt64] = [], three: [UInt64] = [], firsts: [UInt64] = []
        defer { givePairs(one) }
        firsts.reserveCapacity(tailBefore.count)
        var from = textEnds.isEmpty ? 0 : Int(fields[textEnds.count - 1] >> 16)
        for (j, before) in tailBefore.enumerated() {
            let field = fields[textEnds.count + j]
            let end = Int(field >> 16)
            defer { from = end }
            guard before.2 >= 0, sources[Int(fieldPieces[end - 1])] == ChunkValues.own else { continue }
            let piece = Int(tailPieces[j])
            if piece >= 0 && Int(lengths[piece]) <= ChunkValues.maxTailKey {
                one.append(ChunkValues.pair(set: UInt64(piece) << 8 | UInt64(before.2), offset: field))
            }
            let first = fieldPieces[from..<end].first(where: { lengths[Int($0)] == 4 })
            if before.1 >= 0, let first, passes(Int(first)) {
                two.append(ChunkValues.pair(set: UInt64(first) << 16 | UInt64(before.1) << 8 | UInt64(before.2), offset: field))
                // The set's number and three bytes take 48 bits, beside the member's 16.
                if before.0 >= 0 && first < 1 << 24 {
                    three.append(ChunkValues.pair(set: UInt64(first) << 24 | UInt64(before.0) << 16 | UInt64(before.1) << 8
                                                  | UInt64(before.2), offset: field))
                }
            }
            // Equal pieces are equal bytes (`piece`); a tail without four bytes' piece is taken as like any.
            firsts.append((field & 0xFFFF) << 32 | UInt64(first ?? UInt32.max))
        }
        var sets: [(key: [UInt8], members: [UInt8])] = []
        ChunkValues.forEachSet(of: &one) { set, members in
            sets.append(([SearchIndex.tailAfterByte, UInt8(truncatingIfNeeded: set)] + bytes(ofPiece: Int(set >> 8)), members))
        }
        ChunkValues.forEachSet(of: &two) { set, members in
            let key = [SearchIndex.tailAfterTwo, UInt8(truncatingIfNeeded: set >> 8), UInt8(truncatingIfNeeded: set)]
            sets.append((key + bytes(ofPiece: Int(set >> 16)), members))
        }
        ChunkValues.forEachSet(of: &three) { set, members in
            let key = [SearchIndex.tailAfterThree, UInt8(truncatingIfNeeded: set >> 16), UInt8(truncatingIfNeeded: set >> 8),
                       UInt8(truncatingIfNeeded: set)]
            sets.append((key + bytes(ofPiece: Int(set >> 24)), members))
        }
        sets.append(([SearchIndex.tailsRepeated], ChunkBits.container(sortedMembers: ChunkValues.repeated(&firsts))))
        return sets
    }

    /// The scans of `firsts` (a scan's offset, then a tail's piece of four bytes or `UInt32.max`, in one
    /// number) that have two tails starting alike, in order: sorted, a scan's tails are side by side, a
    /// piece's repeats next to each other and `UInt32.max` last.
    private static func repeated(_ firsts: inout [UInt64]) -> [Int] {
        firsts.sort()
        var scans: [Int] = []
        var i = 1
        while i < firsts.count {
            let scan = firsts[i] >> 32
            if scan == firsts[i - 1] >> 32 && (firsts[i] == firsts[i - 1] || firsts[i] & 0xFFFF_FFFF == UInt64(UInt32.max)) {
                scans.append(Int(scan))
                while i < firsts.count && firsts[i] >> 32 == scan { i += 1 }
            } else {
                i += 1
            }
        }
        return scans
    }

    /// A set's number and a member's offset (the low 16 bits of a field's entry) as one number that sorts by
    /// set, then member: a chunk's thousands of small sets are gathered in one array and sorted, not each in
    /// an array of its own (whose allocations, in a write of millions of scans, left the heap 37 MB larger).
    @inline(__always)
    private static func pair(set: UInt64, offset field: UInt64) -> UInt64 { set << 16 | field & 0xFFFF }

    /// Calls `body` with each set of `pairs` (sorted here) and its members' stored form.
    private static func forEachSet(of pairs: inout [UInt64], _ body: (_ set: UInt64, _ members: [UInt8]) -> Void) {
        pairs.sort()
        var start = 0
        while start < pairs.count {
            let set = pairs[start] >> 16
            var end = start + 1
            while end < pairs.count && pairs[end] >> 16 == set { end += 1 }
            body(set, ChunkBits.container(sortedMembers: pairs[start..<end].lazy.map { Int($0 & 0xFFFF) }))
            start = end
        }
    }

    /// The bytes of the piece at `index`.
    private func bytes(ofPiece index: Int) -> ArraySlice<UInt8> {
        let start = Int(starts[index])
        return arena[start..<(start + Int(lengths[index]))]
    }

    /// The array of pairs kept from one chunk to the next (its capacity), empty.
    private mutating func takePairs() -> [UInt64] {
        var taken: [UInt64] = []
        swap(&taken, &pairs)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    private mutating func givePairs(_ given: [UInt64]) { pairs = given }

    /// The longest piece a key of `tailsAfter` holds (LMDB's keys are at most 511 bytes).
    static let maxTailKey = 64

    /// The order of a chunk's list: by source, then bytes (a piece's extensions follow it together).
    static func precedes(_ a: (source: UInt8, bytes: [UInt8]), _ b: (source: UInt8, bytes: [UInt8])) -> Bool {
        a.source != b.source ? a.source < b.source : a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    /// The range of `sorted` (in `precedes` order) whose pieces are of `piece`'s source and start with its
    /// bytes.
    static func startingWith(_ piece: (source: UInt8, bytes: [UInt8]), in sorted: [(source: UInt8, bytes: [UInt8], members: ChunkBits)]) -> Range<Int> {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if precedes((sorted[middle].source, sorted[middle].bytes), piece) { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < sorted.count && sorted[end].source == piece.source && sorted[end].bytes.starts(with: piece.bytes) { end += 1 }
        return low..<end
    }

    /// Makes every piece's set hold the sets of the pieces of its source that start with it, so that a query
    /// whose needle is in a piece takes that piece's set and none of those below it (`IndexedSearch`). Every
    /// scan added holds the piece (its field starts with a longer piece that starts with this one), so the
    /// sets stay proofs. `pieces` in `precedes` order: the pieces below one follow it together.
    static func closeUnderPrefixes(_ pieces: inout [(source: UInt8, bytes: [UInt8], members: ChunkBits)]) {
        for i in pieces.indices.reversed() {
            var j = i + 1
            while j < pieces.count && pieces[j].source == pieces[i].source && pieces[j].bytes.starts(with: pieces[i].bytes) {
                pieces[i].members.formUnion(pieces[j].members)
                // Below `j`, its own pieces are in its set already: they are passed over.
                j = startingWith((pieces[j].source, pieces[j].bytes), in: pieces).upperBound
            }
        }
    }
}

extension ChunkValues {
    /// A list of pieces as the vocabulary stores them (`PieceVocabulary`): per piece its source (1 byte), its
    /// length (a varint) and its bytes.
    static func encodedList(_ listed: some Sequence<(source: UInt8, bytes: [UInt8])>) -> [UInt8] {
        var bytes: [UInt8] = []
        for piece in listed {
            bytes.append(piece.source)
            Varint.append(UInt64(piece.bytes.count), to: &bytes)
            bytes.append(contentsOf: piece.bytes)
        }
        return bytes
    }

    /// Calls `body` with each piece of a stored list that holds `needle` (not empty), in order: the list's
    /// bytes are searched whole, and a piece is compared only where a place found lies in it (a query walks
    /// a list of hundreds of pieces in every chunk, and most hold nothing of the needle).
    static func forEachListed(_ list: UnsafeRawBufferPointer, holding needle: UnsafeRawBufferPointer,
                              _ body: (_ index: Int, _ source: UInt8, _ bytes: UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard let base = list.baseAddress else { return }
        func search(from offset: Int) -> Int? {
            guard offset < list.count else { return nil }
            return ByteSearch.firstIndex(of: needle, in: UnsafeRawBufferPointer(rebasing: list[offset...])).map { $0 + offset }
        }
        var next = search(from: 0)
        try forEachListed(list) { index, source, bytes in
            guard next != nil, let start = bytes.baseAddress.map({ base.distance(to: $0) }) else { return }
            let end = start + bytes.count
            // A place before the piece lay in a length, one running past its end across into the next.
            while let at = next, at < end {
                if at >= start && at + needle.count <= end {
                    try body(index, source, bytes)
                    next = search(from: end)
                    return
                }
                next = search(from: at + 1)
            }
        }
    }

    /// Calls `body` with each piece of a stored list, in order; false when the bytes are not a list (a source
    /// other than `own` and `message`, a length past the end, more than `maxListed` pieces), after the
    /// pieces read before the damage.
    @discardableResult
    static func forEachListed(_ list: UnsafeRawBufferPointer,
                              _ body: (_ index: Int, _ source: UInt8, _ bytes: UnsafeRawBufferPointer) throws -> Void) rethrows -> Bool {
        guard let base = list.baseAddress else { return true }
        var at = 0, index = 0
        while at < list.count {
            let source = list[at]
            at += 1
            guard source == own || source == message, index < maxListed, at < list.count,
                  let length = Varint.read(base, at: &at, end: list.count, maxBytes: 4).map(Int.init),
                  length <= list.count - at else { return false }
            try body(index, source, UnsafeRawBufferPointer(rebasing: list[at..<(at + length)]))
            at += length
            index += 1
        }
        return true
    }
}

/// A chunk's scans by the two bytes after a head's next byte (`ChunkValues.headFollowing`), before the heads
/// are numbered (`SearchIndexWriter`).
struct HeadFollowing: Sendable {
    /// The heads the entries name, by their index.
    var heads: [[UInt8]] = []
    /// Per head's last byte, byte after the head and the one after that, the entries in the order of their
    /// scans: the scan, its head's index in `heads`, the byte after the two (0 where the field ends).
    var sets: [(last: UInt8, byte: UInt8, next: UInt8, entries: [(offset: Int, head: Int, third: UInt8)])] = []
}
