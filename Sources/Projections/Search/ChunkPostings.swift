import Domain

/// The members held for one chunk: per set, its first `inlineCapacity` members in a row of offsets, then a
/// bitmap of the chunk's scans (`ChunkBits.words` words); the set of a gram found by its slot (a table for
/// the unigrams, open addressing for the trigrams and digits), made into stored containers when written
/// (`forEachSet`).
///
/// Why a row first: most sets of a chunk are rare grams (a code's random letters) of a few dozen members,
/// and a bitmap each held 2 KiB for them: 15 MB a chunk of the bench's log, which an import's peak memory
/// felt, and 250 words for each to read when written. Only about a third of the sets get a bitmap.
///
/// Why bitmaps beyond: adding a member is setting a bit (no check for repeats, nor for order: a message's
/// member may come after later scans'), where a buffer of every entry sorted at the end costs a pass over
/// each member and twice the memory (a chunk of the bench's log has 3.2 million). Why pointers: this is the hot loop of
/// keeping the index (about 400 grams a scan); arrays held by a class pay a uniqueness check and a
/// dynamic exclusivity check for every member added. One is made per write and reused chunk to chunk.
final class ChunkPostings {
    private(set) var chunk: UInt32 = 0
    /// Whether no scan of the chunk was stored before this write: its sets are appended without a read.
    private(set) var fresh = false
    /// How many scans were added (their labels): all of the chunk's, when it is fresh and full.
    private(set) var scans = 0
    /// Trigram or digits → slot, by open addressing (never more than half full: `slotLimit`).
    private let keys: UnsafeMutablePointer<UInt32>
    private let slotOfKey: UnsafeMutablePointer<UInt16>
    /// Unigram (a byte, and 256 more for the message's) → slot + 1 (0: none yet).
    private let unigramSlots: UnsafeMutablePointer<UInt16>
    /// The bitmaps, `slotLimit` of them reserved (the pages of those never used are never touched).
    private let bits: UnsafeMutablePointer<UInt64>
    private var bitmapsUsed = 0
    /// Per slot: how many members its row holds, or `promoted` once it has a bitmap (`bitmapOf`).
    private let counts: UnsafeMutablePointer<UInt8>
    private let rows: UnsafeMutablePointer<UInt16>
    private let bitmapOf: UnsafeMutablePointer<UInt16>
    static let inlineCapacity = 32
    private static let promoted: UInt8 = 0xFF
    /// What each slot stands for.
    private(set) var slotKeys: [SlotKey] = []
    /// The values many of the chunk's fields are whole (`ChunkValues.hotFields`), by number: each value's
    /// bytes (and the 0 after it), and a bitmap of the scans whose fields are the value after it became hot
    /// (`stride` words apart, as `bits`), added to the sets of its grams when they are made (`addHotValues`)
    /// instead of a bit a gram a scan: half the bytes of a chunk's fields are such values.
    private var hotTexts: [[UInt8]] = []
    private var hotBits: UnsafeMutablePointer<UInt64>
    private var hotCapacity = 0
    private var categorySlots: [TextKey: Int] = [:]
    private var actorSlots: [TextKey: Int] = [:]
    private var counterfeitSlot: Int?

    enum SlotKey { case gram(UInt32), label([UInt8]) }

    /// Words from one bitmap to the next: one cache line more than a bitmap, so that the same word of
    /// every bitmap (a scan's members) does not fall in the same few sets of the cache, as it does 2 KiB
    /// apart (`perf` put 70 % of adding a scan on that one instruction).
    static let stride = ChunkBits.words + 8
    static let tableSize = 1 << 16
    /// How many sets a chunk's held members may have, at 2 KiB each (a chunk of the bench's log has about
    /// 17,500, 10,000 of them runs of four digits: a chunk's scan ids alone have most of them): the writer
    /// writes the chunk when the next scan might need more. Reserved, not touched: only the bitmaps used.
    static let slotLimit = tableSize / 2

    init() {
        keys = .allocate(capacity: ChunkPostings.tableSize)
        keys.initialize(repeating: 0, count: ChunkPostings.tableSize)
        slotOfKey = .allocate(capacity: ChunkPostings.tableSize)
        unigramSlots = .allocate(capacity: 512)
        unigramSlots.initialize(repeating: 0, count: 512)
        bits = .allocate(capacity: ChunkPostings.slotLimit * ChunkPostings.stride)
        counts = .allocate(capacity: ChunkPostings.slotLimit)
        rows = .allocate(capacity: ChunkPostings.slotLimit * ChunkPostings.inlineCapacity)
        bitmapOf = .allocate(capacity: ChunkPostings.slotLimit)
        hotBits = .allocate(capacity: 0)
    }

    deinit {
        keys.deallocate(); slotOfKey.deallocate(); unigramSlots.deallocate(); bits.deallocate()
        counts.deallocate(); rows.deallocate(); bitmapOf.deallocate(); hotBits.deallocate()
    }

    /// Adds `offset` to the set of `slot`. A scan's repeated gram comes with the same offset as the member
    /// before it, so a row drops it there; a message's (on an earlier scan) may repeat one further back,
    /// which `forEachSet` drops.
    @inline(__always)
    private func insert(_ slot: Int, _ offset: Int) {
        let count = counts[slot]
        if count == ChunkPostings.promoted {
            bits[Int(bitmapOf[slot]) * ChunkPostings.stride + offset >> 6] |= 1 << UInt64(offset & 63)
            return
        }
        let row = rows + slot * ChunkPostings.inlineCapacity
        let member = UInt16(truncatingIfNeeded: offset)
        if count > 0 && row[Int(count) - 1] == member { return }
        if Int(count) < ChunkPostings.inlineCapacity {
            row[Int(count)] = member
            counts[slot] = count + 1
            return
        }
        promote(slot, adding: offset)
    }

    /// Gives `slot` a bitmap holding its row's members and `offset`.
    private func promote(_ slot: Int, adding offset: Int) {
        promote(slot)[offset >> 6] |= 1 << UInt64(offset & 63)
    }

    /// Gives `slot` a bitmap holding its row's members, and returns it.
    private func promote(_ slot: Int) -> UnsafeMutablePointer<UInt64> {
        let map = bits + bitmapsUsed * ChunkPostings.stride
        map.initialize(repeating: 0, count: ChunkBits.words)
        let row = rows + slot * ChunkPostings.inlineCapacity
        for i in 0..<Int(counts[slot]) { map[Int(row[i]) >> 6] |= 1 << UInt64(row[i] & 63) }
        bitmapOf[slot] = UInt16(bitmapsUsed)
        counts[slot] = ChunkPostings.promoted
        bitmapsUsed += 1
        return map
    }

    /// Adds the members of the bitmap `members` to the set of `slot`.
    private func insert(_ slot: Int, members: UnsafePointer<UInt64>) {
        let map = counts[slot] == ChunkPostings.promoted ? bits + Int(bitmapOf[slot]) * ChunkPostings.stride : promote(slot)
        for i in 0..<ChunkBits.words { map[i] |= members[i] }
    }

    /// Empties the postings for `chunk`.
    func reset(chunk: UInt32, fresh: Bool) {
        self.chunk = chunk
        self.fresh = fresh
        scans = 0
        if !slotKeys.isEmpty {
            keys.update(repeating: 0, count: ChunkPostings.tableSize)
            unigramSlots.update(repeating: 0, count: 512)
        }
        slotKeys.removeAll(keepingCapacity: true)
        bitmapsUsed = 0
        hotTexts.removeAll(keepingCapacity: true)
        categorySlots.removeAll(keepingCapacity: true)
        actorSlots.removeAll(keepingCapacity: true)
        counterfeitSlot = nil
    }

    var isEmpty: Bool { slotKeys.isEmpty }

    /// Whether a slot can be made for every gram of a text of `count` bytes (three a byte at most) and a
    /// scan's three labels.
    func hasRoom(forTextOf count: Int) -> Bool { slotKeys.count + 3 * count + 3 <= ChunkPostings.slotLimit }

    private func newSlot(_ key: SlotKey) -> Int {
        let slot = slotKeys.count
        slotKeys.append(key)
        counts[slot] = 0
        return slot
    }

    /// Adds `offset` to the sets of the grams of `text` (lower-cased fields, each followed by a 0 byte), of
    /// the kinds `flag` says (`SearchIndex`), but for the fields `hot` lists (`ChunkValues.hotFields`, of a
    /// scan's own text only): those are added to their value's bitmap.
    func add(_ offset: Int, text: UnsafeRawBufferPointer, flag: UInt8, hot: [ChunkValues.HotField] = []) {
        for field in hot where field.isNew {
            hotTexts.append(Array(UnsafeRawBufferPointer(rebasing: text[field.start..<field.end])) + [0])
            if hotTexts.count > hotCapacity { growHotBits() }
            (hotBits + field.number * ChunkPostings.stride).initialize(repeating: 0, count: ChunkPostings.stride)
        }
        var next = 0
        forEachGram(of: text, flag: flag, skipping: { start in
            guard next < hot.count, hot[next].start == start else { return nil }
            let field = hot[next]
            next += 1
            hotBits[field.number * ChunkPostings.stride + offset >> 6] |= 1 << UInt64(offset & 63)
            return field.end
        }, { insert($0, offset) })
    }

    /// Adds each hot value's scans to the sets of its grams (`add`); every one of those sets was made when
    /// the value's first fields were added (`ChunkValues.hotAfter`).
    private func addHotValues() {
        for (number, text) in hotTexts.enumerated() {
            let members = UnsafePointer(hotBits + number * ChunkPostings.stride)
            text.withUnsafeBytes { text in forEachGram(of: text, flag: 0, skipping: { _ in nil }) { insert($0, members: members) } }
        }
        hotTexts.removeAll(keepingCapacity: true)
    }

    private func growHotBits() {
        let grown = max(64, 2 * hotCapacity)
        let new = UnsafeMutablePointer<UInt64>.allocate(capacity: grown * ChunkPostings.stride)
        new.moveInitialize(from: hotBits, count: hotCapacity * ChunkPostings.stride)
        hotBits.deallocate()
        hotBits = new
        hotCapacity = grown
    }

    /// Calls `body` with the slot of each gram of `text`, of the kinds `flag` says, a slot made for a gram
    /// seen first; a field at whose start `skip` gives an index is skipped to it (its terminating 0).
    @inline(__always)
    private func forEachGram(of text: UnsafeRawBufferPointer, flag: UInt8, skipping skip: (Int) -> Int?, _ body: (Int) -> Void) {
        let keys = keys, slotOfKey = slotOfKey, mask = ChunkPostings.tableSize - 1
        let unigrams = unigramSlots + (flag == 0 ? 0 : 256)
        let uni = UInt32(SearchIndex.unigram | flag) << 24, tri = UInt32(SearchIndex.trigram | flag) << 24
        let quad = UInt32(SearchIndex.digits | flag) << 24
        let n = text.count
        /// The slot of a trigram's or digits' set (never 0, the table's empty place: the kind's byte is not).
        @inline(__always) func slotOf(_ gram: UInt32) -> Int {
            var h = Int(truncatingIfNeeded: (UInt64(gram) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
            while true {
                let k = keys[h]
                if k == gram { return Int(slotOfKey[h]) }
                if k == 0 {
                    let slot = newSlot(.gram(gram))
                    keys[h] = gram
                    slotOfKey[h] = UInt16(slot)
                    return slot
                }
                h = (h + 1) & mask
            }
        }
        var i = 0
        var fieldStart = true
        while i < n {
            if fieldStart, let end = skip(i) {
                i = end
                continue
            }
            let b0 = text[i]
            i += 1
            fieldStart = b0 == 0
            if b0 == 0 { continue }
            var slot = Int(unigrams[Int(b0)]) - 1
            if slot < 0 {
                slot = newSlot(.gram(uni | UInt32(b0) << 16))
                unigrams[Int(b0)] = UInt16(slot + 1)
            }
            body(slot)
            guard i < n, text[i] != 0 else { continue }
            let b2 = i + 1 < n ? text[i + 1] : 0
            body(slotOf(tri | UInt32(b0) << 16 | UInt32(text[i]) << 8 | UInt32(b2)))
            if i + 2 < n, let digits = SearchIndex.digitsGram(quad, b0, text[i], b2, text[i + 2]) {
                body(slotOf(digits))
            }
        }
    }

    /// Adds `offset` to the sets of a scan's labels.
    func add(_ offset: Int, counterfeit: Bool, category: String, actor: String) {
        scans += 1
        if counterfeit {
            let slot = counterfeitSlot ?? newSlot(.label(SearchIndex.labelPrefix(SearchIndex.counterfeit, [])))
            counterfeitSlot = slot
            insert(slot, offset)
        }
        let c = categorySlots[TextKey(category)] ?? newSlot(.label(SearchIndex.labelPrefix(SearchIndex.category, category.utf8)))
        categorySlots[TextKey(category)] = c
        insert(c, offset)
        let a = actorSlots[TextKey(actor)] ?? newSlot(.label(SearchIndex.labelPrefix(SearchIndex.actor, actor.utf8)))
        actorSlots[TextKey(actor)] = a
        insert(a, offset)
    }

    /// Calls `body` with each set's key and its stored form (`ChunkBits`, given up: sealed without a copy),
    /// in key order.
    func forEachSet(_ body: ([UInt8], consuming [UInt8]) throws -> Void) rethrows {
        addHotValues()
        let keys: [[UInt8]] = slotKeys.map { key in
            switch key {
            case .gram(let gram): SearchIndex.key(gram: gram, chunk: chunk)
            case .label(let label): SearchIndex.key(labelPrefix: label, chunk: chunk)
            }
        }
        let order = keys.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }
        var members: [Int] = []
        for slot in order {
            let count = counts[slot]
            if count == ChunkPostings.promoted {
                try body(keys[slot], ChunkBits.container(UnsafeBufferPointer(start: bits + Int(bitmapOf[slot]) * ChunkPostings.stride,
                                                                            count: ChunkBits.words)))
            } else {
                let row = rows + slot * ChunkPostings.inlineCapacity
                members.removeAll(keepingCapacity: true)
                for i in 0..<Int(count) { members.append(Int(row[i])) }
                members.sort()
                try body(keys[slot], ChunkBits.container(sortedMembers: members))
            }
        }
    }
}
