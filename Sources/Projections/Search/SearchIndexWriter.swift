import Domain

/// Keeps the search index (`SearchIndex`) in the write transaction of the events that change it: a new
/// scan adds its ordinal to the sets of its grams and labels, a report adds it to the sets of its message's
/// grams.
///
/// The members are held per chunk and written when the list moves on to the next chunk, when `heldScans`
/// scans are held, or at `flush`: an import writes each set of a chunk a few times (the first time without
/// a read: a chunk begun in this write is stored nowhere yet), while one appended event reads, merges and
/// writes the few sets of its chunk it touches.
final class SearchIndexWriter {
    /// The members held for one chunk: each an entry `slot << 16 | offset` in one buffer, the slot standing
    /// for a gram or a label, sorted into sets by slot when written (`sets`).
    ///
    /// Why pointers: this is the hot loop of keeping the index (a few hundred grams a scan); arrays held by
    /// a class pay a uniqueness check and a dynamic exclusivity check for every member added, which took
    /// more than the rest of an import together. The loop (`add(_:grams:)`) works on locals.
    private final class ChunkPostings {
        /// Whether no scan of the chunk was stored before this write: its sets are written without a read.
        let fresh: Bool
        /// Gram → slot, by open addressing (never more than half full: `slotLimit`).
        private let keys: UnsafeMutablePointer<UInt32>
        private let slotOfKey: UnsafeMutablePointer<UInt16>
        /// Per slot, the last offset added (an offset comes once however many times its scan holds a gram).
        private let last: UnsafeMutablePointer<Int32>
        private var entries: UnsafeMutablePointer<UInt32>
        private var capacity = 1 << 20
        private(set) var count = 0
        /// What each slot stands for.
        private(set) var slotKeys: [SlotKey] = []
        private var labelSlots: [[UInt8]: Int] = [:]

        enum SlotKey { case gram(UInt32), label([UInt8]) }

        static let tableSize = 1 << 17
        /// How many slots a chunk's held members may have (16 bits each); the writer writes them when full.
        static let slotLimit = 1 << 16 - 1

        init(fresh: Bool) {
            self.fresh = fresh
            keys = .allocate(capacity: ChunkPostings.tableSize)
            keys.initialize(repeating: 0, count: ChunkPostings.tableSize)
            slotOfKey = .allocate(capacity: ChunkPostings.tableSize)
            last = .allocate(capacity: ChunkPostings.slotLimit)
            entries = .allocate(capacity: capacity)
        }

        deinit {
            keys.deallocate(); slotOfKey.deallocate(); last.deallocate(); entries.deallocate()
        }

        var isFull: Bool { slotKeys.count >= ChunkPostings.slotLimit - 4_096 }

        private func newSlot(_ key: SlotKey) -> Int {
            last[slotKeys.count] = -1
            slotKeys.append(key)
            return slotKeys.count - 1
        }

        /// Adds `offset` to the sets of `grams`.
        func add(_ offset: UInt16, grams: [UInt32]) {
            let keys = keys, slotOfKey = slotOfKey, last = last, mask = ChunkPostings.tableSize - 1
            var entries = entries, count = count
            let member = Int32(offset)
            grams.withUnsafeBufferPointer { grams in
                for gram in grams {
                    var i = Int(truncatingIfNeeded: (UInt64(gram) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
                    var slot = -1
                    while true {
                        let k = keys[i]
                        if k == gram { slot = Int(slotOfKey[i]); break }
                        if k == 0 { break }
                        i = (i + 1) & mask
                    }
                    if slot < 0 {
                        slot = newSlot(.gram(gram))
                        keys[i] = gram
                        slotOfKey[i] = UInt16(slot)
                    }
                    if last[slot] == member { continue }
                    last[slot] = member
                    if count == capacity { entries = grow(count) }
                    entries[count] = UInt32(slot) << 16 | UInt32(offset)
                    count += 1
                }
            }
            self.count = count
        }

        /// Adds `offset` to the set of `label`.
        func add(_ offset: UInt16, label: [UInt8]) {
            let slot: Int
            if let known = labelSlots[label] { slot = known } else { slot = newSlot(.label(label)); labelSlots[label] = slot }
            if last[slot] == Int32(offset) { return }
            last[slot] = Int32(offset)
            if count == capacity { _ = grow(count) }
            entries[count] = UInt32(slot) << 16 | UInt32(offset)
            count += 1
        }

        private func grow(_ count: Int) -> UnsafeMutablePointer<UInt32> {
            let bigger = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity * 2)
            bigger.update(from: entries, count: count)
            entries.deallocate()
            entries = bigger
            capacity *= 2
            return bigger
        }

        /// Calls `body` with each slot and its offsets, in the order they were added, grouped by slot (a
        /// counting sort: stable, so that scans added in order stay in order).
        func sets(_ body: (Int, ArraySlice<UInt16>) throws -> Void) rethrows {
            var start = [Int](repeating: 0, count: slotKeys.count + 1)
            for i in 0..<count { start[Int(entries[i] >> 16) + 1] += 1 }
            for s in 0..<slotKeys.count { start[s + 1] += start[s] }
            var next = start
            var offsets = [UInt16](repeating: 0, count: count)
            for i in 0..<count {
                let slot = Int(entries[i] >> 16)
                offsets[next[slot]] = UInt16(truncatingIfNeeded: entries[i])
                next[slot] += 1
            }
            for slot in slotKeys.indices { try body(slot, offsets[start[slot]..<start[slot + 1]]) }
        }
    }

    private var chunks: [UInt32: ChunkPostings] = [:]
    /// The chunk new scans go to.
    private var current: UInt32?
    /// How many scans are held.
    private var held = 0
    /// How many scans are held at most before they are written (about 25 MB of members).
    static let heldScans = 16_384

    init() {}

    /// Adds scan `ordinal`: its grams (`PreparedScan.grams`), whether counterfeit, its category and actor.
    func add(ordinal: UInt32, grams: [UInt32], counterfeit: Bool, category: String, actor: String, to tables: any ModelTables) throws {
        let chunk = SearchIndex.chunk(of: ordinal), offset = UInt16(SearchIndex.offset(of: ordinal))
        if current != chunk || held >= SearchIndexWriter.heldScans || chunks[chunk]?.isFull == true {
            // The list has moved on (the chunks held so far get no more scans), or enough is held.
            try write(to: tables)
            current = chunk
            chunks[chunk] = ChunkPostings(fresh: ordinal == max(1, chunk << 16))
        }
        held += 1
        let postings = chunks[chunk]!
        postings.add(offset, grams: grams)
        if counterfeit { postings.add(offset, label: SearchIndex.labelPrefix(SearchIndex.counterfeit, [])) }
        postings.add(offset, label: SearchIndex.labelPrefix(SearchIndex.category, category.utf8))
        postings.add(offset, label: SearchIndex.labelPrefix(SearchIndex.actor, actor.utf8))
    }

    /// Adds the grams of a report's message on scan `ordinal`.
    func addMessage(_ message: String, ordinal: UInt32, to tables: any ModelTables) throws {
        let chunk = SearchIndex.chunk(of: ordinal), offset = UInt16(SearchIndex.offset(of: ordinal))
        if chunks[chunk]?.isFull == true { try write(to: tables) }
        let postings = chunks[chunk] ?? ChunkPostings(fresh: false)
        chunks[chunk] = postings
        postings.add(offset, grams: SearchIndex.grams(of: CaseFolding.lowercasedUTF8(message), flag: SearchIndex.messageFlag))
    }

    /// Writes every set held.
    func write(to tables: any ModelTables) throws {
        for (chunk, postings) in chunks.sorted(by: { $0.key < $1.key }) {
            var sets: [(key: [UInt8], offsets: [UInt16])] = []
            sets.reserveCapacity(postings.slotKeys.count)
            postings.sets { slot, offsets in
                let key = switch postings.slotKeys[slot] {
                case .gram(let gram): SearchIndex.key(gram: gram, chunk: chunk)
                case .label(let label): SearchIndex.key(labelPrefix: label, chunk: chunk)
                }
                var offsets = Array(offsets)
                // Offsets come in order but for a report's, which may be of an earlier scan.
                if !SearchIndexWriter.increasing(offsets) { offsets = SearchIndexWriter.dedupe(offsets.sorted()) }
                sets.append((key, offsets))
            }
            sets.sort { $0.key.lexicographicallyPrecedes($1.key) }
            for (key, offsets) in sets {
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
        held = 0
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
