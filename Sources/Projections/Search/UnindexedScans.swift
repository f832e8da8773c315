/// The newest scans the search index leaves out of its sets, as its mark says (`SearchIndex.unindexedKey`):
/// every scan from `first` on, whose rows a query reads (`IndexedSearch.page`); and, while the first of them
/// are being added to the sets, how far that has come (`adding`).
///
/// Why: a write of a few scans into a chunk stored before (a served store's group commit, a single `scan`)
/// read, merged and wrote every set its scans' grams touch, and so did the next write, and the next. Such a
/// write now leaves its scans out. Once `limit` are left out, the writes after add them to the sets a slice
/// of the sets' keys each (`slice(ofKind:firstByte:)`), while leaving out their own: one write adding all of
/// them dirtied ~1,100 pages (4.4 MB) and took 45–58 ms to commit on the 1M store, where a write of one scan
/// takes 3 ms, and every request waiting on it waited that much longer (docs/SERVER.md). The sets a query
/// reads are those of scans before `first` only, so sets that hold some of the scans being added are read
/// as they were.
struct UnindexedScans: Equatable {
    /// The first scan left out; it may be one not recorded yet (the one after the last scan added).
    var first: UInt32
    /// The scans `first..<end` being added to the sets, one slice a write; `slice` is the next.
    var adding: Adding?

    struct Adding: Equatable {
        var end: UInt32
        var slice: UInt8
    }

    /// How many scans are left out before the writes begin adding them: the rows a query reads besides its
    /// chunks' sets, about a millisecond's worth.
    static let limit: UInt32 = 1_024
    /// How many may be left out at most: a write that would leave out more adds them all at once, as a write
    /// of more scans does (an import, a batch).
    static let most: UInt32 = 2 * limit

    /// The slices of the sets' keys (`slice(ofKind:firstByte:)`); the last also lists the pieces, the reports
    /// and their messages' sets, and moves `first` on.
    static let slices: UInt8 = 9

    /// The slice of the sets' keys a gram or a label of `kind` whose first byte is `firstByte` is in: the
    /// trigrams by their first byte (in ranges of about equal pages for text in Latin letters), the unigrams,
    /// runs of digits and labels together, and the messages' sets with the last.
    static func slice(ofKind kind: UInt8, firstByte: UInt8) -> UInt8 {
        if kind & SearchIndex.messageFlag != 0 { return slices - 1 }
        guard kind == SearchIndex.trigram else { return 0 }
        switch firstByte {
        case ..<0x61: return 1
        case 0x61...0x64: return 2
        case 0x65...0x68: return 3
        case 0x69...0x6C: return 4
        case 0x6D...0x6F: return 5
        case 0x70...0x73: return 6
        default: return 7
        }
    }

    /// The slice of a set's key (its group's 4 bytes, its kind, its first byte).
    static func slice(ofKey key: [UInt8]) -> UInt8 {
        key.count > 5 ? slice(ofKind: key[4], firstByte: key[5]) : slices - 1
    }

    init(first: UInt32, adding: Adding? = nil) {
        self.first = first
        self.adding = adding
    }

    /// The mark from its stored form: 4 bytes big-endian (`first`), then 4 (`adding.end`) and 1 (`adding.slice`)
    /// while adding, sealed (`SealedValue`); nil when it does not read (a damaged value).
    init?(stored value: UnsafeRawBufferPointer) {
        guard value.count == 4 + SealedValue.checkBytes || value.count == 9 + SealedValue.checkBytes,
              SealedValue.isSound(key: SearchIndex.unindexedKey, value: value) else { return nil }
        first = UInt32(bigEndian: value.loadUnaligned(as: UInt32.self))
        guard first > 0 else { return nil }
        if value.count == 9 + SealedValue.checkBytes {
            let end = UInt32(bigEndian: value.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            let slice = value[8]
            guard end > first, slice < UnindexedScans.slices else { return nil }
            adding = Adding(end: end, slice: slice)
        }
    }

    /// The stored form (see `init(stored:)`).
    var stored: [UInt8] {
        var body = PieceVocabulary.bigEndian(first)
        if let adding { body += PieceVocabulary.bigEndian(adding.end) + [adding.slice] }
        return SealedValue.seal(key: SearchIndex.unindexedKey, body)
    }
}
