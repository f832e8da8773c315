/// The search index of the scan list (table `search`): for `history`'s search and filters, the scans that
/// hold a piece of text or a label, as sets of scan ordinals kept per chunk of 65,536 scans (`ChunkBits`),
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
/// - the same two kinds for the report's message apart (`messageFlag`), since a replay of a prefix of the
///   log (`--as-of`) must leave out a message reported after it: only those scans are checked then;
/// - the labels the other filters ask for: counterfeit, per category, per actor.
///
/// Keys: a gram is `[kind, b0, b1, chunk (4 bytes, big-endian), b2]`, so that the trigrams of a chunk that
/// start with two given bytes are one range; a label is `[kind, length (2 bytes), bytes…, chunk]`. A needle
/// holding a 0 byte (which no field holds) is answered by reading every row, as a store written before the
/// index is (`isReady`).
enum SearchIndex {
    static let unigram: UInt8 = 1
    static let trigram: UInt8 = 3
    static let messageFlag: UInt8 = 0x80
    static let counterfeit: UInt8 = 0x10
    static let category: UInt8 = 0x11
    static let actor: UInt8 = 0x12

    /// Present once the index holds every scan of the store (a new store, or after `rebuild`).
    static let readyKey: [UInt8] = [0] + Array("search-index-1".utf8)

    /// A gram as one number: its kind, then its three bytes (a unigram's last two are 0).
    static func gram(_ kind: UInt8, _ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> UInt32 {
        UInt32(kind) << 24 | UInt32(b0) << 16 | UInt32(b1) << 8 | UInt32(b2)
    }

    static func chunk(of ordinal: UInt32) -> UInt32 { ordinal >> 16 }
    static func offset(of ordinal: UInt32) -> Int { Int(ordinal & 0xFFFF) }

    /// The key of `gram`'s set in `chunk`.
    static func key(gram: UInt32, chunk: UInt32) -> [UInt8] {
        [UInt8(gram >> 24), UInt8(truncatingIfNeeded: gram >> 16), UInt8(truncatingIfNeeded: gram >> 8),
         UInt8(truncatingIfNeeded: chunk >> 24), UInt8(truncatingIfNeeded: chunk >> 16),
         UInt8(truncatingIfNeeded: chunk >> 8), UInt8(truncatingIfNeeded: chunk), UInt8(truncatingIfNeeded: gram)]
    }

    /// The first five bytes of the keys of every trigram of `chunk` that starts with `b0 b1`.
    static func trigramPrefix(_ kind: UInt8, _ b0: UInt8, _ b1: UInt8, chunk: UInt32) -> [UInt8] {
        Array(key(gram: gram(kind, b0, b1, 0), chunk: chunk).dropLast())
    }

    /// The key of a label's set (`kind` is `counterfeit`, `category` or `actor`) without its chunk.
    static func labelPrefix(_ kind: UInt8, _ label: some Collection<UInt8>) -> [UInt8] {
        let length = min(label.count, 0xFFFF)
        return [kind, UInt8(length >> 8), UInt8(length & 0xFF)] + label.prefix(length)
    }

    static func key(labelPrefix: [UInt8], chunk: UInt32) -> [UInt8] {
        labelPrefix + [UInt8(truncatingIfNeeded: chunk >> 24), UInt8(truncatingIfNeeded: chunk >> 16),
                       UInt8(truncatingIfNeeded: chunk >> 8), UInt8(truncatingIfNeeded: chunk)]
    }

    /// Appends the grams of the lower-cased `text` (one field, or several each followed by a 0 byte) to
    /// `grams`, with `flag` added to their kinds; a gram may come more than once.
    static func appendGrams(of text: UnsafeRawBufferPointer, flag: UInt8 = 0, to grams: inout [UInt32]) {
        let n = text.count
        let uni = UInt32(unigram | flag) << 24, tri = UInt32(trigram | flag) << 24
        var i = 0
        while i < n {
            let b0 = text[i]
            if b0 != 0 {
                grams.append(uni | UInt32(b0) << 16)
                if i + 1 < n, text[i + 1] != 0 {
                    let b2 = i + 2 < n ? text[i + 2] : 0
                    grams.append(tri | UInt32(b0) << 16 | UInt32(text[i + 1]) << 8 | UInt32(b2))
                }
            }
            i += 1
        }
    }

    /// The grams of the lower-cased `text`.
    static func grams(of text: [UInt8], flag: UInt8 = 0) -> [UInt32] {
        var grams: [UInt32] = []
        grams.reserveCapacity(text.count * 2)
        text.withUnsafeBytes { appendGrams(of: $0, flag: flag, to: &grams) }
        return grams
    }
}
