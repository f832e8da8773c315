import Domain

/// Keeps the search index (`SearchIndex`) in the write transaction of the events that change it: a new
/// scan adds its ordinal to the sets of its grams and labels, a report adds it to the sets of its message's
/// grams.
///
/// The members are held per chunk and written when the list moves on to the next chunk, or at `flush`: an
/// import writes each set of a chunk once (a chunk begun in this write is known to be stored nowhere yet,
/// so it is written without a read), while one appended event reads, merges and writes the few sets of its
/// chunk it touches.
final class SearchIndexWriter {
    /// The members held for one chunk.
    private final class ChunkPostings {
        /// Whether no scan of the chunk was stored before this write: its sets are written without a read.
        let fresh: Bool
        var gramSlots = GramSlots()
        var labelSlots: [[UInt8]: Int] = [:]
        var labels: [[UInt8]] = []
        /// Per slot (grams first, in `gramSlots` order, then labels: see `slot`), the offsets added, and
        /// the last one (an offset comes once however many times its scan holds the gram).
        var offsets: [[UInt16]] = []
        var last: [Int32] = []

        init(fresh: Bool) { self.fresh = fresh }

        func add(_ offset: UInt16, slot: Int) {
            if last[slot] == Int32(offset) { return }
            last[slot] = Int32(offset)
            offsets[slot].append(offset)
        }

        func newSlot() -> Int {
            offsets.append([]); last.append(-1)
            return offsets.count - 1
        }

        func add(_ offset: UInt16, gram: UInt32) {
            let slot = gramSlots.slot(for: gram) { newSlot() }
            add(offset, slot: slot)
        }

        func add(_ offset: UInt16, label: [UInt8]) {
            if let slot = labelSlots[label] { return add(offset, slot: slot) }
            let slot = newSlot()
            labelSlots[label] = slot
            labels.append(label)
            add(offset, slot: slot)
        }
    }

    private var chunks: [UInt32: ChunkPostings] = [:]
    /// The chunk new scans go to.
    private var current: UInt32?

    init() {}

    /// Adds scan `ordinal`: its grams (`PreparedScan.grams`), whether counterfeit, its category and actor.
    func add(ordinal: UInt32, grams: [UInt32], counterfeit: Bool, category: String, actor: String, to tables: any ModelTables) throws {
        let chunk = SearchIndex.chunk(of: ordinal), offset = UInt16(SearchIndex.offset(of: ordinal))
        if current != chunk {
            // The list has moved on: the chunks held so far get no more scans.
            try write(to: tables)
            current = chunk
            chunks[chunk] = ChunkPostings(fresh: ordinal == max(1, chunk << 16))
        }
        let postings = chunks[chunk]!
        for gram in grams { postings.add(offset, gram: gram) }
        if counterfeit { postings.add(offset, label: SearchIndex.labelPrefix(SearchIndex.counterfeit, [])) }
        postings.add(offset, label: SearchIndex.labelPrefix(SearchIndex.category, category.utf8))
        postings.add(offset, label: SearchIndex.labelPrefix(SearchIndex.actor, actor.utf8))
    }

    /// Adds the grams of a report's message on scan `ordinal`.
    func addMessage(_ message: String, ordinal: UInt32) {
        let chunk = SearchIndex.chunk(of: ordinal), offset = UInt16(SearchIndex.offset(of: ordinal))
        let postings = chunks[chunk] ?? ChunkPostings(fresh: false)
        chunks[chunk] = postings
        for gram in SearchIndex.grams(of: CaseFolding.lowercasedUTF8(message), flag: SearchIndex.messageFlag) {
            postings.add(offset, gram: gram)
        }
    }

    /// Writes every set held.
    func write(to tables: any ModelTables) throws {
        for (chunk, postings) in chunks.sorted(by: { $0.key < $1.key }) {
            var entries: [(key: [UInt8], slot: Int)] = []
            entries.reserveCapacity(postings.offsets.count)
            postings.gramSlots.forEach { gram, slot in entries.append((SearchIndex.key(gram: gram, chunk: chunk), slot)) }
            for (label, slot) in postings.labelSlots { entries.append((SearchIndex.key(labelPrefix: label, chunk: chunk), slot)) }
            entries.sort { $0.key.lexicographicallyPrecedes($1.key) }
            for (key, slot) in entries {
                var offsets = postings.offsets[slot]
                // Offsets come in order but for a report's, which may be of an earlier scan.
                if !SearchIndexWriter.increasing(offsets) { offsets = SearchIndexWriter.dedupe(offsets.sorted()) }
                let value: [UInt8]
                if postings.fresh {
                    value = ChunkBits.container(merging: offsets, into: nil)
                } else {
                    value = try tables.withValue(.search, key) { ChunkBits.container(merging: offsets, into: $0) }
                }
                try tables.put(.search, key, value)
            }
        }
        chunks.removeAll(keepingCapacity: true)
        current = nil
    }

    private static func increasing(_ offsets: [UInt16]) -> Bool {
        offsets.indices.dropFirst().allSatisfy { offsets[$0 - 1] < offsets[$0] }
    }

    private static func dedupe(_ sorted: [UInt16]) -> [UInt16] {
        var out: [UInt16] = []
        out.reserveCapacity(sorted.count)
        for o in sorted where out.last != o { out.append(o) }
        return out
    }
}

/// Gram → slot, by open addressing over a power-of-two table: the hot loop of keeping the index (a few
/// hundred grams a scan), where a `Dictionary` costs several times as much.
struct GramSlots {
    private var keys = [UInt32](repeating: 0, count: 1 << 12)
    private var slots = [Int32](repeating: 0, count: 1 << 12)
    private var count = 0

    /// The slot of `gram` (never 0: every kind is above 0), made by `make` when it has none.
    mutating func slot(for gram: UInt32, make: () -> Int) -> Int {
        let mask = keys.count - 1
        var i = GramSlots.home(gram, mask)
        while true {
            let k = keys[i]
            if k == gram { return Int(slots[i]) }
            if k == 0 { break }
            i = (i + 1) & mask
        }
        let slot = make()
        keys[i] = gram
        slots[i] = Int32(slot)
        count += 1
        if count * 2 > keys.count { grow() }
        return slot
    }

    func forEach(_ body: (UInt32, Int) -> Void) {
        for i in keys.indices where keys[i] != 0 { body(keys[i], Int(slots[i])) }
    }

    /// Where `gram` is looked for first: the high bits of a multiplicative hash.
    private static func home(_ gram: UInt32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(gram) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    private mutating func grow() {
        let oldKeys = keys, oldSlots = slots
        keys = [UInt32](repeating: 0, count: oldKeys.count * 2)
        slots = [Int32](repeating: 0, count: oldKeys.count * 2)
        let mask = keys.count - 1
        for j in oldKeys.indices where oldKeys[j] != 0 {
            var i = GramSlots.home(oldKeys[j], mask)
            while keys[i] != 0 { i = (i + 1) & mask }
            keys[i] = oldKeys[j]
            slots[i] = oldSlots[j]
        }
    }
}
