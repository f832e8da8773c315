import SystemCalls

/// Makes the sets of the chunk a write adds scans to (`ChunkPostings`) on a thread of its own, so that the
/// thread that applies events — the one an import or a rebuild waits on — only copies each scan's text into
/// a batch (`SearchIndexWriter`) and stores the sets made: the grams (about 400 bits to set a scan) and the
/// stored forms (`ChunkBits.container`) were a quarter of its time (docs/SCALE.md).
///
/// The writer sends commands in order (`start` a chunk, `scans`, `finish` it); the worker answers each
/// `finish` with the chunk's sets in key order (`Finished`), which the writer takes when it next looks
/// (`takeFinished`) or waits for at the end of the write (`waitFinished`). At most `maxWaiting` commands wait,
/// so the batches held stay a few MB. When no thread can be started the commands run on the caller's.
final class GramWorker: @unchecked Sendable {
    /// One chunk's sets as made, for the writer to store.
    struct Finished {
        let chunk: UInt32
        /// Whether no scan of the chunk was stored before this write (`ChunkPostings.fresh`).
        let fresh: Bool
        let sets: [(key: [UInt8], value: [UInt8])]
        /// The grams of texts too long for the held sets, in `SearchIndexWriter`'s `late` form.
        let late: [UInt64]
        /// The pieces of text many of the chunk's scans share, each with its scans' stored set
        /// (`ChunkValues`), sorted by source and bytes.
        let pieces: [(source: UInt8, bytes: [UInt8], members: [UInt8])]
        /// What the fields hold past their heads (`ChunkValues.uncovered`), as sealed entries in key order;
        /// nil when the list of pieces was cut.
        let uncovered: [(key: [UInt8], value: [UInt8])]?
        /// The scans of each head by the byte after it (`ChunkValues.headNext`), their sets stored; nil when
        /// the chunk is not fresh or the list of pieces was cut.
        let headNext: [(head: [UInt8], byte: UInt8, members: [UInt8])]?
        /// The same scans by the two bytes after the head (`ChunkValues.headFollowing`), their heads not yet
        /// numbered; nil as `headNext`.
        let headFollowing: HeadFollowing?
        /// The scans by what comes before their tails (`ChunkValues.tailsAfter`), as sealed entries in key
        /// order; empty when the chunk is not fresh.
        let tailsAfter: [(key: [UInt8], value: [UInt8])]
        /// Whether scans were added, not only reports' messages.
        let addsScans: Bool
    }

    enum Command {
        case start(chunk: UInt32, fresh: Bool)
        /// Records of `SearchIndexWriter.Record`'s form.
        case scans([UInt8])
        case finish
    }

    /// 24 batches (3 MiB) cover what the writer hands over while the worker finishes a chunk (a tenth of a
    /// second, its sets and pieces made): with 8, the writer waited there, and the decoding thread behind it,
    /// and a core was idle for 14 % of an import.
    static let maxWaiting = 24

    private let condition = ConditionLock()
    private var inbox: [Command] = []
    private var finished: [Finished] = []
    private var working = false
    private var stopped = false
    private var threaded = false
    /// Used by the worker's thread only (or the caller's, when no thread could be started).
    private let postings = ChunkPostings()
    private var values = ChunkValues()
    private var late: [UInt64] = []

    init() {
        do {
            try SystemThread.start(stackSize: 1 << 20, detached: true) { [self] in run() }
            threaded = true
        } catch {
            threaded = false
        }
    }

    /// Hands `command` over, waiting while `maxWaiting` others wait.
    func send(_ command: Command) {
        guard threaded else { return handle(command) }
        condition.lock()
        while inbox.count >= GramWorker.maxWaiting { condition.wait() }
        inbox.append(command)
        condition.broadcast()
        condition.unlock()
    }

    /// The chunks finished so far, without waiting.
    func takeFinished() -> [Finished] {
        condition.lock()
        defer { condition.unlock() }
        let taken = finished
        finished.removeAll()
        return taken
    }

    /// Every chunk finished once each command sent has run.
    func waitFinished() -> [Finished] {
        condition.lock()
        defer { condition.unlock() }
        while threaded && (!inbox.isEmpty || working) { condition.wait() }
        let taken = finished
        finished.removeAll()
        return taken
    }

    /// Ends the thread once it is done with the command it runs; the commands waiting are dropped.
    func stop() {
        condition.lock()
        stopped = true
        inbox.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while inbox.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let command = inbox.removeFirst()
            working = true
            condition.broadcast()
            condition.unlock()
            handle(command)
            condition.lock()
            working = false
            condition.broadcast()
            condition.unlock()
        }
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let chunk, let fresh):
            postings.reset(chunk: chunk, fresh: fresh)
            values.reset()
        case .scans(let records): add(records)
        case .finish: finish()
        }
    }

    private func finish() {
        guard !postings.isEmpty || !late.isEmpty else { return }
        var sets: [(key: [UInt8], value: [UInt8])] = []
        sets.reserveCapacity(postings.slotKeys.count)
        postings.forEachSet { key, container in sets.append((key, SealedValue.seal(key: key, consume container))) }
        // Every scan of a full chunk held here, none of them with grams left for later (`late`): its trigram
        // sets are final, and so are their pairs' unions (`PairSets`).
        if postings.fresh && postings.scans == SearchIndex.scans(inFull: postings.chunk) && late.isEmpty {
            sets += PairSets.entries(of: postings.chunk, from: sets)
        }
        let pieces = values.listed().map { ($0.source, $0.bytes, $0.members.container()) }
        let uncovered = postings.fresh ? values.uncovered().map { SearchIndexWriter.sealed($0, chunk: postings.chunk) } : nil
        let headNext = postings.fresh ? values.headNext() : nil
        let headFollowing = postings.fresh ? values.headFollowing() : nil
        let tailsAfter = postings.fresh ? SearchIndexWriter.sealed(tailsAfter: values.tailsAfter(), chunk: postings.chunk) : []
        let made = Finished(chunk: postings.chunk, fresh: postings.fresh, sets: sets, late: late, pieces: pieces,
                            uncovered: uncovered, headNext: headNext, headFollowing: headFollowing,
                            tailsAfter: tailsAfter, addsScans: values.addsOwnText)
        late = []
        // What comes after for the same chunk is merged into the sets stored.
        postings.reset(chunk: postings.chunk, fresh: false)
        values.reset()
        if !threaded { return finished.append(made) }
        condition.lock()
        finished.append(made)
        condition.unlock()
    }

    private func add(_ records: [UInt8]) {
        records.withUnsafeBytes { bytes in
            var at = 0
            while at < bytes.count {
                let record = SearchIndexWriter.Record(bytes, at: at)
                at = record.end
                let chunk = postings.chunk
                if !postings.hasRoom(forTextOf: record.text.count) {
                    // The held sets are full: the chunk's sets so far are stored, the rest merged into them.
                    finish()
                }
                let fits = postings.hasRoom(forTextOf: record.text.count)
                // A hot value's sets must all have been made from its first fields (`ChunkValues.hotAfter`).
                if !fits { values.stopHotValues() }
                // A message's pieces are counted when the write ends (`SearchIndexWriter.writeMessages`).
                if record.flag == 0 { values.add(record.offset, text: record.text, source: ChunkValues.own) }
                if fits {
                    postings.add(record.offset, text: record.text, flag: record.flag, hot: record.flag == 0 ? values.hotFields : [])
                } else {
                    // A text with more grams than a chunk's sets (tens of kB): merged at the end.
                    let shift = UInt64(SearchIndex.offsetBits)
                    for gram in SearchIndex.grams(of: record.text, flag: record.flag) {
                        late.append(UInt64(chunk) << (32 + shift) | UInt64(gram) << shift | UInt64(record.offset))
                    }
                }
                if let labels = record.labels {
                    postings.add(record.offset, counterfeit: labels.counterfeit,
                                 category: String(decoding: labels.category, as: UTF8.self),
                                 actor: String(decoding: labels.actor, as: UTF8.self))
                }
            }
        }
    }
}
