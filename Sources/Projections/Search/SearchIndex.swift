/// The search index of the scan list (table `search`): for `history`'s search and filters, the scans that
/// hold a piece of text or a label, as sets of scan ordinals kept per chunk of 16,000 scans (`ChunkBits`),
/// so that a query reads the sets it names and never a scan it does not return (docs/SCALE.md).
///
/// The text is each search field of projections.md §1 lower-cased (the row's search text, `ScanRow`), as
/// UTF-8 bytes; a substring of scalars is a substring of their bytes, so the index works on bytes. Its sets:
///
/// - a **unigram** per byte a field holds: exact for a needle of 1 byte;
/// - a **trigram** per place in a field that has a byte after it: the byte there, the next, and the one
///   after (0 when the field ends first). A needle of 3 bytes is in a field exactly when its trigram is;
///   one of 2 bytes exactly when some trigram starts with it (the keys of those trigrams lie together);
///   a longer needle only where all its trigrams are, so those candidates are checked against the row;
/// - a **pair** of bytes in a full chunk where its trigrams' sets are large (`pairKey`, `PairSets`): their
///   union, which a needle of 2 bytes reads in place of them;
/// - a **run of four digits** per place in a field where four digits follow (`digits`): exact for a
///   needle of four digits, and for a longer needle that holds one far fewer candidates than its trigrams
///   give. Digits are the text whose trigrams say least: scan ids, lots, batch numbers and a code's hex
///   share the ten of them, so `0042` had thousands of candidates at ten million scans, each a row read;
/// - the same two kinds for the report's message apart (`messageFlag`), since a replay of a prefix of the
///   log (`--as-of`) must leave out a message reported after it: only those scans are checked then;
/// - the labels the other filters ask for: counterfeit, per category, per actor;
/// - the pieces of text many of the chunk's scans share, each with its scans (`ChunkValues`): the matches
///   of a longer needle that need no row read; and what the fields hold past them, which rules candidates
///   out without a row read;
/// - the scans by the head a field is listed under and the byte after it (with the two after that), and by
///   what comes before a tail (`headNext`, `headFollowing`, `tailAfterByte`, `tailAfterTwo`, `tailAfterThree`,
///   with `tailsRepeated`): the matches of a needle that runs one to three bytes past a head, or starts one
///   to three bytes before a tail, which no piece holds (a code's random part).
///
/// Keys start with the chunk's group (`chunksPerGroup` chunks, 4 bytes, big-endian) and end with the chunk's
/// place in it (1 byte), so that the sets of one gram or label in the chunks of a group lie side by side: a
/// query walks the chunks newest first and reads a gram's sets of four chunks from one or two pages, not
/// four (a page touched is a fault, what a query costs at ten million scans). A group written whole (an
/// import, a rebuild) is appended at the end of the table (`SearchIndexWriter` holds a group's chunks until it
/// is complete). Between the two, a gram's key is `[kind, b0, b1, b2]` (the trigrams of a group that start
/// with two given bytes are one range), a label's `[kind, length (2 bytes), bytes…]`. A needle holding a 0
/// byte (which no field holds) is answered by reading every row, as a store written before the index is
/// (`isReady`).
enum SearchIndex {
    static let unigram: UInt8 = 1
    static let trigram: UInt8 = 3
    /// Four digits, as the gram `[0, d0 d1, d2 d3]` (a nibble each: `1777` is `0x00_17_77`).
    static let digits: UInt8 = 4
    static let messageFlag: UInt8 = 0x80
    static let counterfeit: UInt8 = 0x10
    static let category: UInt8 = 0x11
    static let actor: UInt8 = 0x12
    /// The pieces of text many scans of a chunk share (`ChunkValues`): the list of their numbers
    /// (`PieceNumbers`, the pieces themselves in `PieceVocabulary`), and each one's scans by its number.
    /// Their kinds sort after every gram's and label's, so a chunk written whole is still appended in order.
    static let pieceList: UInt8 = 0xD0
    static let pieceMembers: UInt8 = 0xD1
    /// What the fields hold past the pieces they are listed under (`ChunkValues.uncovered`): per trigram of
    /// the listed heads, the scans that have it past a head (often none). Present only for a chunk whose
    /// scans were all written at once (or remade, `SearchIndexWriter`).
    static let uncoveredGram: UInt8 = 0xD2
    /// The scans whose field is listed under a head (its number, `PieceVocabulary`) and has a given byte
    /// after it (`ChunkValues.headNext`): the matches of a needle that ends one byte past a head. Present
    /// only for a chunk whose scans were all written at once (or remade), as `uncoveredGram`; a set a
    /// later write leaves out only means those scans' rows are read.
    static let headNext: UInt8 = 0xD3
    /// The scans whose field has a tail (`ChunkValues.addTails`) listed under a piece and a given byte before
    /// it, `[tailAfterByte, byte, piece…]`; and those with two given bytes before a tail whose first four bytes
    /// are a piece, `[tailAfterTwo, byte, byte, four bytes]` (`ChunkValues.tailsAfter`): the matches of a
    /// needle that starts one or two bytes before a tail. Kept as `headNext` is.
    static let tailAfterByte: UInt8 = 0xD4
    static let tailAfterTwo: UInt8 = 0xD5
    /// The scans with three given bytes before a tail whose first four bytes are a piece,
    /// `[tailAfterThree, byte, byte, byte, four bytes]` (`ChunkValues.tailsAfter`): the matches of a needle that
    /// starts three bytes before a tail (`829?lo`: a 4,096th of the codes, each a row read without them). Kept
    /// as `headNext` is, and in the same form: an index written before them (form 10 too) only lacks them for
    /// the chunks it wrote, whose rows are read then, and `rebuild` keeps it.
    static let tailAfterThree: UInt8 = 0xD9
    /// The scans whose report's message is a listed message piece whole, `[wholeMessages]`
    /// (`SearchIndexWriter.wholeMessages`): such a scan is in the set of every listed piece its message starts
    /// with, so when no set a query reads for its needle proves it, its message does not hold the needle, and
    /// a candidate only through its message is no match (`IndexedSearch`). Why: a needle whose trigrams a
    /// message many reports repeat holds apart (`d ov` in a note, `QR code printed on a sticker over the
    /// original` for the message) had every such report as a candidate, each a row read: 15,000 at ten million
    /// scans. Only ever missing scans (a store written before it, a report placed under a shorter piece): those
    /// are checked against their rows.
    static let wholeMessages: UInt8 = 0xDA
    /// The reports with a message on the chunk's scans, by seq (`ReportSeqs`), `[reportSeqs]`: a replay of a
    /// prefix of the log takes from the messages' sets the scans reported within it. Since form 11, every
    /// report with a message is in its chunk's list; an index of an older form has none (a replay then
    /// checks its message candidates against their rows).
    static let reportSeqs: UInt8 = 0xDB
    /// The scans two of whose tails (`ChunkValues.addTails`, own fields) start with the same four bytes,
    /// `[tailsRepeated]`, written with the two kinds above, most often empty. A scan not in it has at most one
    /// tail that starts with a needle's tail part, so its sets of both kinds are of that one tail, and
    /// together they prove a needle of two bytes before a tail and more than four of it (`TailProofs`). In a
    /// chunk without it they prove nothing together.
    static let tailsRepeated: UInt8 = 0xD6
    /// The scans of `headNext`'s sets with the two bytes after the head's next byte (`ChunkValues.headFollowing`,
    /// in `HeadFollowers`' form: each scan with its head's number and the second byte), keyed by the head's
    /// last byte, that byte and the first after it, `[headFollowing, last, byte, next]`: the matches of a
    /// needle that ends two or three bytes past a head are one set a chunk, whichever heads it may run past
    /// (`-283`: every code's head ends in `-`, and its scans with `28` after one are a sixteenth of those with
    /// `2`). Kept as `headNext` is.
    static let headFollowing: UInt8 = 0xD8
    /// The same scans in index form 9, a set per head (`[0xD7, last, byte, head's number]`, each scan with its
    /// two bytes): a needle three bytes past a code's `-` read the entries of every code's head with that
    /// byte after it, 740,000 at ten million scans, 2.2 MB (7–8 ms). Queries do not read them; `log verify`
    /// checks their seal, and a chunk's pieces made again, or `rebuild`, delete them.
    static let formerHeadFollowing: UInt8 = 0xD7

    /// Present once the index holds every scan of the store (a new store, or after `rebuild`), but those
    /// `unindexedKey` names; it sorts before every set (group 0, then a 0 where a set has its kind). Its name
    /// carries the index's form: a store whose index has another form answers by reading rows until `rebuild`.
    static let readyKey = readyKey(form: currentForm)
    static let currentForm = 12
    /// The forms a query reads as ready, the current first (a query looks their marks up in this order):
    /// form 11 never leaves scans out (`unindexedKey`), and a writer leaves none out of it (an older binary
    /// would not know to read their rows), form 6 lacks only the sets of a head's next byte and of what comes
    /// before a tail, form 7
    /// `tailsRepeated` and `headFollowing` too, form 8 only `headFollowing`, form 9 has it in its former
    /// layout (`formerHeadFollowing`), which queries do not read, and form 10 lacks only the reports' lists
    /// (`reportSeqs`); those sets prove matches or rule candidates out (without them those scans' rows are
    /// read), so a store written before them searches as it did and verifies, and `rebuild` makes its index
    /// again in the current form.
    static let readableForms = [currentForm, 11, 10, 9, 8, 7, 6]
    static let readableKeys = readableForms.map { readyKey(form: $0) }

    static func readyKey(form: Int) -> [UInt8] { [0, 0, 0, 0, 0] + Array("search-index-\(form)".utf8) }

    /// The newest scans, not in the sets yet (`UnindexedScans`): the key of their mark.
    static let unindexedKey = [0, 0, 0, 0, 0] + Array("unindexed-from".utf8)

    /// The full chunks whose pieces a later write is to make again (`DuePieces`): the key of their mark, which
    /// sorts before every set as `unindexedKey` does.
    static let piecesDueKey = [0, 0, 0, 0, 0] + Array("pieces-due".utf8)

    /// Scans per chunk: 16,000, so that an import or a rebuild holds one chunk's sets in a few MB and writes
    /// each once (docs/SCALE.md), and a set stored as its bits (2,000 bytes) fits in a page of LMDB's beside
    /// its key (2,048 would not: each would take a page of its own).
    static let scansPerChunk = 16_000
    /// The bits an offset in a chunk takes.
    static let offsetBits = 14

    /// A gram as one number: its kind, then its three bytes (a unigram's last two are 0).
    static func gram(_ kind: UInt8, _ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> UInt32 {
        UInt32(kind) << 24 | UInt32(b0) << 16 | UInt32(b1) << 8 | UInt32(b2)
    }

    static func chunk(of ordinal: UInt32) -> UInt32 { ordinal / UInt32(scansPerChunk) }
    static func offset(of ordinal: UInt32) -> Int { Int(ordinal % UInt32(scansPerChunk)) }
    static func first(of chunk: UInt32) -> UInt32 { chunk * UInt32(scansPerChunk) }
    /// The scans of `chunk` once it is full: the first has one fewer, since ordinals start at 1.
    static func scans(inFull chunk: UInt32) -> Int { chunk == 0 ? scansPerChunk - 1 : scansPerChunk }

    /// Chunks whose keys lie together (see above): four, so that a write holds at most three chunks' stored
    /// sets (~3 MB each at ten million scans) before it appends the group.
    static let chunksPerGroup: UInt32 = 4

    static func group(of chunk: UInt32) -> UInt32 { chunk / chunksPerGroup }

    /// The first 4 bytes of every key of `chunk`: its group.
    static func groupBytes(_ chunk: UInt32) -> [UInt8] {
        PieceVocabulary.bigEndian(group(of: chunk))
    }

    /// The last byte of every key of `chunk`: its place in its group.
    static func place(_ chunk: UInt32) -> UInt8 { UInt8(chunk % chunksPerGroup) }

    /// Whether `key` (of a set, a label or a piece) is of `chunk`, given that it starts with its group.
    static func isKey(_ key: some BidirectionalCollection<UInt8>, of chunk: UInt32) -> Bool { key.last == place(chunk) }

    /// The key of `gram`'s set in `chunk`.
    static func key(gram: UInt32, chunk: UInt32) -> [UInt8] {
        groupBytes(chunk) + [UInt8(gram >> 24), UInt8(truncatingIfNeeded: gram >> 16),
                             UInt8(truncatingIfNeeded: gram >> 8), UInt8(truncatingIfNeeded: gram), place(chunk)]
    }

    /// The first seven bytes of the keys of every trigram of `chunk`'s group that starts with `b0 b1`: those of
    /// `chunk` among them end with its place (`isKey`).
    static func trigramPrefix(_ kind: UInt8, _ b0: UInt8, _ b1: UInt8, chunk: UInt32) -> [UInt8] {
        Array(key(gram: gram(kind, b0, b1, 0), chunk: chunk).prefix(7))
    }

    /// The key of the union of `chunk`'s trigram sets `b0 b1 *` of its fields (`PairSets`), when it has one:
    /// `[group, trigram, b0, b1, place]`, a trigram's key without its third byte, so that it sorts at the head
    /// of the group's range of those sets, on the page a query of two bytes reads when it is not there (a key
    /// of a kind of its own lay on another page, a page fault a group for every pair without one).
    static func pairKey(_ b0: UInt8, _ b1: UInt8, chunk: UInt32) -> [UInt8] {
        groupBytes(chunk) + [trigram, b0, b1, place(chunk)]
    }

    /// The key of a label's set (`kind` is `counterfeit`, `category` or `actor`) without its chunk.
    static func labelPrefix(_ kind: UInt8, _ label: some Collection<UInt8>) -> [UInt8] {
        let length = min(label.count, 0xFFFF)
        return [kind, UInt8(length >> 8), UInt8(length & 0xFF)] + label.prefix(length)
    }

    static func key(labelPrefix: [UInt8], chunk: UInt32) -> [UInt8] {
        groupBytes(chunk) + labelPrefix + [place(chunk)]
    }

    /// The key of the list of `chunk`'s shared pieces (`ChunkValues`).
    static func pieceListKey(chunk: UInt32) -> [UInt8] { groupBytes(chunk) + [pieceList, place(chunk)] }

    /// The key of the scans of `chunk` that hold the piece numbered `number` (`PieceVocabulary`).
    static func pieceMembersKey(chunk: UInt32, number: UInt32) -> [UInt8] {
        groupBytes(chunk) + [pieceMembers] + PieceVocabulary.bigEndian(number) + [place(chunk)]
    }

    /// The key of the scans of `chunk` whose field is listed under the head numbered `number` and has `byte`
    /// after it.
    static func headNextKey(chunk: UInt32, number: UInt32, byte: UInt8) -> [UInt8] {
        groupBytes(chunk) + [headNext] + PieceVocabulary.bigEndian(number) + [byte, place(chunk)]
    }

    /// The key of the scans of `chunk` whose field is listed under a head whose last byte is `last` and has
    /// `byte` and then `next` after it, with the byte after that (`headFollowing`).
    static func headFollowingKey(chunk: UInt32, last: UInt8, byte: UInt8, next: UInt8) -> [UInt8] {
        groupBytes(chunk) + [headFollowing, last, byte, next, place(chunk)]
    }

    /// The key of the list of the reports with a message on `chunk`'s scans (`ReportSeqs`).
    static func reportSeqsKey(chunk: UInt32) -> [UInt8] { groupBytes(chunk) + [reportSeqs, place(chunk)] }

    /// The key of the scans of `chunk` whose report's message is a listed message piece whole.
    static func wholeMessagesKey(chunk: UInt32) -> [UInt8] { groupBytes(chunk) + [wholeMessages, place(chunk)] }

    /// The key of the scans of `chunk` that have trigram `gram` (its three bytes) past their fields' heads.
    static func uncoveredKey(gram: UInt32, chunk: UInt32) -> [UInt8] {
        groupBytes(chunk) + [uncoveredGram, UInt8(truncatingIfNeeded: gram >> 16), UInt8(truncatingIfNeeded: gram >> 8),
                             UInt8(truncatingIfNeeded: gram), place(chunk)]
    }

    /// The gram of four bytes that are digits, its kind `kind` (already in the top byte), or nil when one of
    /// them is not a digit (a 0 between fields never is).
    @inline(__always)
    static func digitsGram(_ kind: UInt32, _ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> UInt32? {
        let d0 = b0 &- 0x30, d1 = b1 &- 0x30, d2 = b2 &- 0x30, d3 = b3 &- 0x30
        guard d0 < 10, d1 < 10, d2 < 10, d3 < 10 else { return nil }
        return kind | UInt32(d0) << 12 | UInt32(d1) << 8 | UInt32(d2) << 4 | UInt32(d3)
    }

    /// Whether `needle` is four digits, which its `digits` gram answers exactly.
    static func isDigits(_ needle: [UInt8]) -> Bool {
        needle.count == 4 && digitsGram(0, needle[0], needle[1], needle[2], needle[3]) != nil
    }

    /// The distinct grams of the lower-cased `text` (one field, or several each followed by a 0 byte), with
    /// `flag` added to their kinds, in an array of their number (a scan's wait in the import's queue).
    ///
    /// Each gram comes once, so that the writer, on the busiest thread, adds a scan to a set once without a
    /// check: the duplicates are dropped here (on the decoding thread, for a scan) with tables on the stack,
    /// unigrams by a bit each, trigrams and digits by open addressing.
    static func grams(of text: UnsafeRawBufferPointer, flag: UInt8 = 0) -> [UInt32] {
        let n = text.count
        guard n > 0 else { return [] }
        let uni = UInt32(unigram | flag) << 24, tri = UInt32(trigram | flag) << 24, quad = UInt32(digits | flag) << 24
        var size = 64
        while size < 4 * n { size <<= 1 }
        let mask = size - 1
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: size + 3 * n + 4) { scratch in
            let table = scratch.baseAddress!, out = table + size
            table.initialize(repeating: 0, count: size)
            var seen: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var count = 0
            func addOnce(_ gram: UInt32) {
                var h = Int(truncatingIfNeeded: (UInt64(gram) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
                while true {
                    let k = table[h]
                    if k == gram { return }
                    if k == 0 { table[h] = gram; out[count] = gram; count += 1; return }
                    h = (h + 1) & mask
                }
            }
            var i = 0
            while i < n {
                let b0 = text[i]
                if b0 != 0 {
                    let bit = UInt64(1) << UInt64(b0 & 63)
                    let known: Bool
                    switch b0 >> 6 {
                    case 0: known = seen.0 & bit != 0; seen.0 |= bit
                    case 1: known = seen.1 & bit != 0; seen.1 |= bit
                    case 2: known = seen.2 & bit != 0; seen.2 |= bit
                    default: known = seen.3 & bit != 0; seen.3 |= bit
                    }
                    if !known { out[count] = uni | UInt32(b0) << 16; count += 1 }
                    if i + 1 < n, text[i + 1] != 0 {
                        let b2 = i + 2 < n ? text[i + 2] : 0
                        // Never 0, the empty place of the table: the kind's byte is not.
                        addOnce(tri | UInt32(b0) << 16 | UInt32(text[i + 1]) << 8 | UInt32(b2))
                        if i + 3 < n, let digits = digitsGram(quad, b0, text[i + 1], b2, text[i + 3]) { addOnce(digits) }
                    }
                }
                i += 1
            }
            return Array(UnsafeBufferPointer(start: out, count: count))
        }
    }

    /// The distinct grams of the lower-cased `text`.
    static func grams(of text: [UInt8], flag: UInt8 = 0) -> [UInt32] {
        text.withUnsafeBytes { grams(of: $0, flag: flag) }
    }
}
