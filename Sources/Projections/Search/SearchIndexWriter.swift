import Domain

/// Keeps the search index (`SearchIndex`) in the write transaction of the events that change it: a new
/// scan adds its ordinal to the sets of its grams and labels, a report adds it to the sets of its message's
/// grams.
///
/// The members of the chunk new scans go to are held (`ChunkPostings`, on a thread of its own: `GramWorker`;
/// this thread only copies each scan's text into a batch for it) and written when the list moves on to
/// the next chunk or when the write ends (`write`): an import or a rebuild writes each set of a chunk once,
/// appended at the end of the table without a read when its group of chunks is complete (a group begun in
/// this write is stored nowhere yet, and its keys sort after every stored one), while one appended event
/// reads, merges and writes the few sets of its chunk it touches. A message reported on a scan of an
/// earlier chunk is kept as text and merged into its chunk's stored sets when the write ends, when every
/// message's pieces are counted too (`writeMessages`).
final class SearchIndexWriter {
    /// One scan's text (or a report's message) as the writer hands it to the worker, in a batch of bytes:
    /// `[offset 2][flag 1][labels 1][text count 4][category count 4][actor count 4][text][category][actor]`,
    /// `labels` being 0 for a message (no labels), else 2 plus 1 for a counterfeit scan.
    struct Record {
        let offset: Int
        let flag: UInt8
        let text: UnsafeRawBufferPointer
        let labels: (counterfeit: Bool, category: UnsafeRawBufferPointer, actor: UnsafeRawBufferPointer)?
        let end: Int

        init(_ bytes: UnsafeRawBufferPointer, at start: Int) {
            offset = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt16.self)))
            flag = bytes[start + 2]
            let labelByte = bytes[start + 3]
            let textCount = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self)))
            let categoryCount = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt32.self)))
            let actorCount = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 12, as: UInt32.self)))
            var at = start + 16
            text = UnsafeRawBufferPointer(rebasing: bytes[at..<(at + textCount)])
            at += textCount
            let category = UnsafeRawBufferPointer(rebasing: bytes[at..<(at + categoryCount)])
            at += categoryCount
            let actor = UnsafeRawBufferPointer(rebasing: bytes[at..<(at + actorCount)])
            at += actorCount
            labels = labelByte & 2 != 0 ? (labelByte & 1 != 0, category, actor) : nil
            end = at
        }

        static func append(offset: Int, flag: UInt8, text: UnsafeRawBufferPointer,
                           labels: (counterfeit: Bool, category: String, actor: String)?, to batch: inout [UInt8]) {
            var category = labels?.category ?? "", actor = labels?.actor ?? ""
            category.withUTF8 { c in
                actor.withUTF8 { a in
                    withUnsafeBytes(of: UInt16(offset).littleEndian) { batch.append(contentsOf: $0) }
                    batch.append(flag)
                    batch.append(labels.map { $0.counterfeit ? 3 : 2 } ?? 0)
                    withUnsafeBytes(of: UInt32(text.count).littleEndian) { batch.append(contentsOf: $0) }
                    withUnsafeBytes(of: UInt32(c.count).littleEndian) { batch.append(contentsOf: $0) }
                    withUnsafeBytes(of: UInt32(a.count).littleEndian) { batch.append(contentsOf: $0) }
                    batch.append(contentsOf: text)
                    batch.append(contentsOf: c)
                    batch.append(contentsOf: a)
                }
            }
        }
    }

    /// How many bytes of records go to the worker at once.
    static let batchBytes = 1 << 17

    /// Makes the sets of the chunk new scans go to (nil until the first scan of this write).
    private var worker: GramWorker?
    /// The chunk the worker holds.
    private var heldChunk: UInt32?
    /// Records not yet handed to the worker.
    private var batch: [UInt8] = []
    /// Whether the held chunk's first scan came in this write.
    private var heldFresh = false
    /// Chunks this write filled that an earlier write had begun: their pieces are made again from their
    /// rows when the write ends (`remakePieces`), or named due for a later write when it `defersPieces`.
    private var completed: [UInt32] = []
    /// Whether the chunks this write fills are left to a later write to make their pieces again (`DuePieces`),
    /// a served store's: else this write makes them, and those any write before it left due.
    var defersPieces = false
    /// The chunks this write fills and leaves due.
    private var due: [UInt32] = []
    /// Pieces remade since a write before named their chunk due (`storeRemade`), stored when this write ends.
    private var remade: [RemadePieces] = []
    /// Whether chunks are due when this write ends, one of them named by it.
    private(set) var leftPiecesDue = false
    /// The grams of texts too long for the worker's held sets (`GramWorker.Finished.late`):
    /// `chunk << 46 | gram << 14 | offset` (`SearchIndex.offsetBits`), which sort by key and then offset.
    private var late: [UInt64] = []
    /// The text of every report's message this write adds, for their chunks' pieces and lists of reports and,
    /// when its chunk was not held, its grams (`writeMessages`): `[chunk 4][offset 2][held 1][seq 8][count 4][text]`
    /// each, in the order reported. Kept as text, not as grams until the write ends: two grams of 8 bytes a
    /// byte of it were 50 MB of an import of ten million events.
    private var messages: [UInt8] = []
    /// Whether the stored index is kept as it is and nothing is added to it: a rebuild that keeps a sound
    /// index (`Models.keepStoredSearchIndex`), which costs it neither the grams nor a write of its pages.
    var keepsStoredSets = false
    /// The numbers of the pieces the chunks list, stored when the write ends.
    private let vocabulary = PieceVocabulary()
    /// The stored forms of this write's fresh chunks of one group (`pendingGroup`), held until the group is
    /// complete or the write ends and then appended in key order (`appendPending`): the keys of a group's
    /// chunks interleave (`SearchIndex`).
    private var pending: [(key: [UInt8], value: [UInt8])] = []
    private var pendingGroup: UInt32?
    /// The scans left out of the sets (`UnindexedScans`), read at this write's first scan or report, or when
    /// it ends.
    private var unindexed: Unindexed?
    /// The slice of the sets' keys this write adds the scans being added to (`UnindexedScans.slice`); nil: all.
    private var slice: UInt8?

    /// The newest scans left out of the sets: as stored when this write began and as they are now, and
    /// whether this write may leave out more.
    private struct Unindexed {
        var stored: UnindexedScans?
        var now: UnindexedScans?
        var mayLeaveOut: Bool
    }

    init() {}

    deinit { worker?.stop() }

    /// Makes the worker hold `chunk`, storing what it finished of the chunk held before.
    private func hold(_ chunk: UInt32, fresh: @autoclosure () -> Bool, to tables: any ModelTables) throws {
        if heldChunk == chunk { return }
        let worker = worker ?? GramWorker()
        self.worker = worker
        if heldChunk != nil {
            // The list has moved on: the chunk held so far gets no more scans.
            sendBatch()
            worker.send(.finish)
            try store(worker.takeFinished(), to: tables)
        }
        heldFresh = fresh()
        worker.send(.start(chunk: chunk, fresh: heldFresh))
        heldChunk = chunk
    }

    private func sendBatch() {
        guard !batch.isEmpty, let worker else { return }
        worker.send(.scans(batch))
        batch = []
        batch.reserveCapacity(SearchIndexWriter.batchBytes + 4096)
    }

    /// Adds scan `ordinal`: the grams of its search text (`ScanRowHeader.searchText`), whether counterfeit,
    /// its category and actor. Or leaves it out of the sets for now (`leavesOut`).
    func add(ordinal: UInt32, text: UnsafeRawBufferPointer, counterfeit: Bool, category: String, actor: String,
             to tables: any ModelTables) throws {
        if keepsStoredSets { return }
        if try leavesOut(ordinal, in: tables) { return }
        try addToSets(ordinal: ordinal, text: text, counterfeit: counterfeit, category: category, actor: actor, to: tables)
    }

    /// What the index leaves out (`UnindexedScans`), as this write found it. Scans are left out only of an
    /// index of the current form: an older one is read by binaries that do not know to read their rows. A mark
    /// that does not read leaves out none from now on; queries read every row until `rebuild`
    /// (`Models.firstUnindexedScan`).
    private func unindexedState(in tables: any ModelTables) throws -> Unindexed {
        if let unindexed { return unindexed }
        var sound = true
        let stored = try tables.withValue(.search, SearchIndex.unindexedKey) { value -> UnindexedScans? in
            guard let value else { return nil }
            let mark = UnindexedScans(stored: value)
            sound = mark != nil
            return mark
        }
        let current = try tables.withValue(.search, SearchIndex.readyKey) { $0 != nil }
        let state = Unindexed(stored: stored, now: stored, mayLeaveOut: sound && current)
        unindexed = state
        return state
    }

    /// Whether scan `ordinal` is left out of the sets for now: it does not begin or fill its chunk, and fewer
    /// than `UnindexedScans.most` scans would be left out with it. Once `UnindexedScans.limit` are, the writes
    /// that follow add the first of them a slice at a time (`addSlice`). When it is not left out, every scan
    /// left out before it is added from its row first (`addFromRows`), and this write leaves out no more: a
    /// write of many scans adds them as it goes.
    private func leavesOut(_ ordinal: UInt32, in tables: any ModelTables) throws -> Bool {
        var state = try unindexedState(in: tables)
        let chunk = SearchIndex.chunk(of: ordinal), first = state.now?.first ?? ordinal
        let beginsChunk = ordinal == max(1, SearchIndex.first(of: chunk)) || heldChunk == chunk && heldFresh
        if state.mayLeaveOut, !beginsChunk, SearchIndex.chunk(of: first) == chunk, first <= ordinal,
           ordinal - first + 1 < UnindexedScans.most, SearchIndex.offset(of: ordinal) != SearchIndex.scansPerChunk - 1 {
            var now = state.now ?? UnindexedScans(first: first)
            if now.adding == nil && ordinal - first >= UnindexedScans.limit {
                now.adding = UnindexedScans.Adding(end: ordinal, slice: 0)
            }
            state.now = now
            unindexed = state
            return true
        }
        if let first = state.now?.first, first < ordinal { try addFromRows(first..<ordinal, in: tables) }
        state.now = nil
        state.mayLeaveOut = false
        unindexed = state
        return false
    }

    /// Whether scan `ordinal` is left out of the sets: a report's message on it is added with it, from its row.
    private func isLeftOut(_ ordinal: UInt32, in tables: any ModelTables) throws -> Bool {
        guard let first = try unindexedState(in: tables).now?.first else { return false }
        return ordinal >= first
    }

    /// Adds the scans being added (`UnindexedScans.adding`) to the next slice of the sets' keys, when this write
    /// added none of them otherwise; the last slice moves the mark past them.
    private func addSlice(in tables: any ModelTables) throws {
        guard !keepsStoredSets else { return }
        var state = try unindexedState(in: tables)
        guard state.mayLeaveOut, var now = state.now, let adding = now.adding, now == state.stored else { return }
        slice = adding.slice
        defer { slice = nil }
        try addFromRows(now.first..<adding.end, in: tables)
        try writeHeld(to: tables)
        now.adding = adding.slice + 1 < UnindexedScans.slices ? UnindexedScans.Adding(end: adding.end, slice: adding.slice + 1) : nil
        if now.adding == nil { now.first = adding.end }
        state.now = now
        unindexed = state
    }

    /// Whether this write stores what a set's `key` holds: every key but while adding a slice of them.
    private func stores(_ key: [UInt8]) -> Bool {
        slice.map { UnindexedScans.slice(ofKey: key) == $0 } ?? true
    }

    /// Whether this write stores what is not a set of grams or labels (pieces, reports, messages): every write
    /// but one adding a slice of the sets other than the last.
    private var storesTheRest: Bool { slice.map { $0 == UnindexedScans.slices - 1 } ?? true }

    /// Adds the scans `ordinals`, left out until now, from their rows: each with its report's message, if any.
    private func addFromRows(_ ordinals: Range<UInt32>, in tables: any ModelTables) throws {
        for ordinal in ordinals {
            let row = try tables.withValue(.scans, Models.ordinalKey(ordinal)) { bytes -> LeftOutRow? in
                guard let bytes else { return nil }
                return try LeftOutRow(ScanRowHeader(bytes, reportsThrough: .max))
            }
            guard let row else { continue }
            try row.text.withUnsafeBytes {
                try addToSets(ordinal: ordinal, text: $0, counterfeit: row.counterfeit, category: row.category, actor: row.actor, to: tables)
            }
            if storesTheRest, let (message, seq) = row.message { try addMessage(lowercased: message, ordinal: ordinal, seq: seq, to: tables) }
        }
    }

    /// A row's scan as `add` takes it, copied out of the row's page (the sets' writes may move it).
    private struct LeftOutRow {
        let text: [UInt8]
        let counterfeit: Bool
        let category: String
        let actor: String
        let message: (text: [UInt8], seq: UInt64)?

        /// The search text is the one the scan was recorded with: its report's message (the last field) empty.
        init(_ header: ScanRowHeader) {
            let message = header.isReported ? header.searchFields.last.map(Array.init) : nil
            var text = Array(header.searchText)
            if let message, !message.isEmpty { text.removeLast(message.count + 1); text.append(0) }
            self.text = text
            counterfeit = header.isCounterfeit
            category = String(decoding: header.category, as: UTF8.self)
            actor = String(decoding: header.actor, as: UTF8.self)
            self.message = message.flatMap { $0.isEmpty ? nil : ($0, header.reportSeq) }
        }
    }

    /// Stores what is left out when this write ends, if that changed.
    private func storeUnindexed(to tables: any ModelTables) throws {
        guard let state = unindexed else { return }
        unindexed = nil
        guard state.now != state.stored else { return }
        if let now = state.now {
            try tables.put(.search, SearchIndex.unindexedKey, now.stored)
        } else {
            try tables.delete(.search, SearchIndex.unindexedKey)
        }
    }

    /// Adds scan `ordinal` to the sets (the worker's, for its chunk).
    private func addToSets(ordinal: UInt32, text: UnsafeRawBufferPointer, counterfeit: Bool, category: String, actor: String,
                           to tables: any ModelTables) throws {
        let chunk = SearchIndex.chunk(of: ordinal)
        // A chunk is fresh when this write adds its first scan (ordinals start at 1).
        try hold(chunk, fresh: ordinal == max(1, SearchIndex.first(of: chunk)), to: tables)
        Record.append(offset: SearchIndex.offset(of: ordinal), flag: 0, text: text,
                      labels: (counterfeit, category, actor), to: &batch)
        if !heldFresh && SearchIndex.offset(of: ordinal) == SearchIndex.scansPerChunk - 1 { completed.append(chunk) }
        if batch.count >= SearchIndexWriter.batchBytes { sendBatch() }
    }

    /// Adds the grams of a report's message on scan `ordinal`, the report being event `seq`; on a scan left
    /// out of the sets, its row holds the message, added with the scan.
    func addMessage(_ message: String, ordinal: UInt32, seq: UInt64, to tables: any ModelTables) throws {
        if keepsStoredSets { return }
        if try isLeftOut(ordinal, in: tables) { return }
        try addMessage(lowercased: CaseFolding.lowercasedUTF8(message), ordinal: ordinal, seq: seq, to: tables)
    }

    private func addMessage(lowercased text: [UInt8], ordinal: UInt32, seq: UInt64, to tables: any ModelTables) throws {
        let chunk = SearchIndex.chunk(of: ordinal), offset = SearchIndex.offset(of: ordinal)
        let held = heldChunk == chunk
        withUnsafeBytes(of: chunk.littleEndian) { messages.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt16(offset).littleEndian) { messages.append(contentsOf: $0) }
        messages.append(held ? 1 : 0)
        withUnsafeBytes(of: seq.littleEndian) { messages.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(text.count).littleEndian) { messages.append(contentsOf: $0) }
        messages.append(contentsOf: text)
        // The held chunk's sets take the grams on the worker; another chunk's, when the write ends.
        if held {
            text.withUnsafeBytes { Record.append(offset: offset, flag: SearchIndex.messageFlag, text: $0, labels: nil, to: &batch) }
        }
    }

    /// Writes every set held, adds the next slice of the scans being added (`addSlice`), stores what is left
    /// out, and the pieces of the chunks due (`writeDue`).
    func write(to tables: any ModelTables) throws {
        try writeHeld(to: tables)
        try addSlice(in: tables)
        try storeUnindexed(to: tables)
        try writeDue(to: tables)
        try vocabulary.store(to: tables)
    }

    /// Stores `pieces`, made from a snapshot since a write named their chunk due, when this write ends, if
    /// their chunk is due still.
    func storeRemade(_ pieces: RemadePieces) {
        remade.append(pieces)
    }

    /// Stores the pieces remade for this write whose chunks are due still, and makes the pieces of the other
    /// chunks due itself unless it `defersPieces`; then names the chunks this write filled, if it defers them,
    /// and stores the mark. A mark that does not read is taken as naming no chunk (theirs only prove fewer
    /// matches; `log verify` finds it, and this write stores a sound one).
    private func writeDue(to tables: any ModelTables) throws {
        defer {
            due.removeAll()
            remade.removeAll()
        }
        leftPiecesDue = false
        guard !keepsStoredSets, !defersPieces || !due.isEmpty || !remade.isEmpty else { return }
        var damaged = false
        let stored = try tables.withValue(.search, SearchIndex.piecesDueKey) { value -> [UInt32]? in
            guard let value else { return nil }
            let chunks = DuePieces.chunks(stored: value)
            damaged = chunks == nil
            return chunks ?? []
        }
        var now = stored ?? []
        for pieces in remade where now.contains(pieces.chunk) {
            try store(pieces, to: tables)
            try mergeReports(of: pieces.chunk, after: pieces.through, in: tables)
            now.removeAll { $0 == pieces.chunk }
        }
        // Only an index of the current form names chunks due: an older binary would take the mark for damage.
        if try !defersPieces || !tables.withValue(.search, SearchIndex.readyKey, { $0 != nil }) {
            for chunk in now + due { try remakePieces(of: chunk, in: tables) }
            now.removeAll()
            due.removeAll()
        }
        now = Array(Set(now + due)).sorted()
        while now.count > DuePieces.most { try remakePieces(of: now.removeFirst(), in: tables) }
        leftPiecesDue = !due.isEmpty && !now.isEmpty
        if now.isEmpty {
            if stored != nil { try tables.delete(.search, SearchIndex.piecesDueKey) }
        } else if now != stored || damaged {
            try tables.put(.search, SearchIndex.piecesDueKey, DuePieces.stored(now))
        }
    }

    /// Merges into the pieces of `chunk`, just made again from its rows as they were at event `through`, the
    /// messages of its reports made after that (its list of reports, `ReportSeqs`), as their own writes had
    /// merged them into its pieces before (`mergeMessagePieces`). When the list does not read, the pieces are
    /// made again from the rows as they are now.
    private func mergeReports(of chunk: UInt32, after through: UInt64, in tables: any ModelTables) throws {
        let key = SearchIndex.reportSeqsKey(chunk: chunk)
        var offsets: [Int] = []
        let readable = try tables.withValue(.search, key) { stored -> Bool in
            guard let stored else { return true }
            return SealedValue.isSound(key: key, value: stored) && ReportSeqs.forEach(SealedValue.body(stored)) { seq, offset in
                if seq > through { offsets.append(offset) }
                return true
            }
        }
        guard readable else { return try remakePieces(of: chunk, in: tables) }
        var reports: [(offset: Int, text: ArraySlice<UInt8>)] = []
        for offset in offsets {
            try tables.withValue(.scans, Models.ordinalKey(SearchIndex.first(of: chunk) + UInt32(offset))) { row in
                guard let row else { return }
                let header = try ScanRowHeader(row, reportsThrough: .max)
                let fields = header.searchFields
                if header.isReported, fields.count == ScanRow.searchFieldCount, let message = fields.last, !message.isEmpty {
                    reports.append((offset, ArraySlice(message)))
                }
            }
        }
        try mergeMessagePieces(reports, of: chunk, in: tables)
    }

    /// Writes every set held.
    private func writeHeld(to tables: any ModelTables) throws {
        if let worker, heldChunk != nil {
            sendBatch()
            worker.send(.finish)
            try store(worker.waitFinished(), to: tables)
        }
        heldChunk = nil
        try appendPending(to: tables)
        try writeLate(&late, to: tables)
        try writeMessages(to: tables)
        for chunk in completed {
            if defersPieces { due.append(chunk) } else { try remakePieces(of: chunk, in: tables) }
        }
        completed.removeAll()
        try vocabulary.store(to: tables)
    }

    /// Stores the sets the worker made: a fresh chunk's held with those of its group until the group is
    /// complete (`appendPending`), any other's merged into the stored sets.
    private func store(_ chunks: [GramWorker.Finished], to tables: any ModelTables) throws {
        for made in chunks {
            late += made.late
            if made.fresh {
                let group = SearchIndex.group(of: made.chunk)
                if pendingGroup != group { try appendPending(to: tables) }
                pendingGroup = group
                pending += made.sets
                pending += try pieceEntries(made.pieces, of: made.chunk, in: tables)
                pending += made.uncovered ?? []
                pending += try headEntries(made.headNext ?? [], of: made.chunk, in: tables)
                pending += try headEntries(made.headFollowing, of: made.chunk, in: tables)
                pending += made.tailsAfter
                if SearchIndex.place(made.chunk) == SearchIndex.chunksPerGroup - 1 { try appendPending(to: tables) }
            } else {
                try appendPending(to: tables)
                // Scans added to a chunk stored before: its sets past the heads no longer know every scan's
                // heads, and go (until the chunk is full and its pieces are made again, `remakePieces`).
                if made.addsScans { try deleteKinds([SearchIndex.uncoveredGram], of: made.chunk, in: tables) }
                if storesTheRest { try mergePieces(of: made.chunk, made.pieces, into: tables) }
                for (key, value) in made.sets where stores(key) {
                    let merged = try tables.withValue(.search, key) { stored in
                        guard let stored else { return value }
                        var bits = ChunkBits()
                        value.withUnsafeBytes { bits.or(container: SealedValue.body($0)) }
                        bits.or(container: SealedValue.body(stored))
                        return SealedValue.seal(key: key, bits.container())
                    }
                    try tables.put(.search, key, merged)
                }
            }
        }
    }

    /// Appends the held stored forms of the fresh chunks of `pendingGroup`, in key order: after every stored
    /// key when the group is new to the table (an import, a rebuild), else put among the group's stored ones.
    private func appendPending(to tables: any ModelTables) throws {
        guard !pending.isEmpty else { return }
        pending.sort { $0.key.lexicographicallyPrecedes($1.key) }
        for (key, value) in pending { try tables.append(.search, key, value) }
        pending.removeAll()
        pendingGroup = nil
    }

    /// The entries of `pieces` as `chunk`'s list of shared pieces (`ChunkValues`: their numbers,
    /// `PieceVocabulary`) and their sets, in key order.
    private func pieceEntries(_ pieces: [(source: UInt8, bytes: [UInt8], members: [UInt8])], of chunk: UInt32,
                              in tables: any ModelTables) throws -> [(key: [UInt8], value: [UInt8])] {
        guard !pieces.isEmpty else { return [] }
        var numbered: [(number: UInt32, members: [UInt8])] = []
        for piece in pieces { numbered.append((try vocabulary.number(of: piece.source, piece.bytes, in: tables), piece.members)) }
        numbered.sort { $0.number < $1.number }
        let listKey = SearchIndex.pieceListKey(chunk: chunk)
        var entries = [(key: listKey, value: SealedValue.seal(key: listKey, PieceNumbers.encoded(numbered.map(\.number))))]
        for piece in numbered {
            let key = SearchIndex.pieceMembersKey(chunk: chunk, number: piece.number)
            entries.append((key, SealedValue.seal(key: key, piece.members)))
        }
        return entries
    }

    /// Merges `made`, pieces counted for a chunk stored before, into its stored list: a piece listed already
    /// gets the new members, a new one is listed. Each of `placing`, a report's message on one of the chunk's
    /// scans, is then listed under the longest message piece it starts with, so that a message too few of a
    /// write's reports repeat to be counted still joins the piece its text is listed under. Then every
    /// piece's set takes in those of the pieces that start with it, as a fresh list's do
    /// (`ChunkValues.closeUnderPrefixes`: a query reads only the set of the shortest piece its needle is in).
    /// Only the sets of the sources touched are read, and only those that changed are written. A list that
    /// does not read (or names a number no piece has) is left as it is for `rebuild` (`log verify` finds
    /// it); without the new pieces a query only checks more rows.
    private func mergePieces(of chunk: UInt32, _ made: [(source: UInt8, bytes: [UInt8], members: [UInt8])],
                             placing messages: [(offset: Int, text: ArraySlice<UInt8>)] = [],
                             into tables: any ModelTables) throws {
        guard !made.isEmpty || !messages.isEmpty else { return }
        let listKey = SearchIndex.pieceListKey(chunk: chunk)
        var numbers: [UInt32] = []
        let readable = try tables.withValue(.search, listKey) { stored -> Bool in
            guard let stored else { return true }
            return SealedValue.isSound(key: listKey, value: stored)
                && PieceNumbers.forEach(SealedValue.body(stored)) { numbers.append($0) }
        }
        guard readable else { return }
        var pieces: [(number: UInt32, source: UInt8, bytes: [UInt8], members: ChunkBits)] = []
        for number in numbers {
            guard let piece = try vocabulary.piece(number, in: tables) else { return }
            pieces.append((number, piece.source, piece.bytes, ChunkBits()))
        }
        var touched = Set(made.map(\.source))
        if !messages.isEmpty { touched.insert(ChunkValues.message) }
        var stored: [[UInt8]?] = Array(repeating: nil, count: pieces.count)
        for index in pieces.indices where touched.contains(pieces[index].source) {
            try tables.withValue(.search, SearchIndex.pieceMembersKey(chunk: chunk, number: pieces[index].number)) { value in
                guard let value else { return }
                stored[index] = Array(value)
                pieces[index].members.or(container: SealedValue.body(value))
            }
        }
        let before = pieces.count
        var indexOf: [[UInt8]: Int] = [:]
        for (index, piece) in pieces.enumerated() { indexOf[[piece.source] + piece.bytes] = index }
        for piece in made {
            if let known = indexOf[[piece.source] + piece.bytes] {
                piece.members.withUnsafeBytes { pieces[known].members.or(container: $0) }
            } else if pieces.count < ChunkValues.maxListed {
                var members = ChunkBits()
                piece.members.withUnsafeBytes { members.or(container: $0) }
                pieces.append((try vocabulary.number(of: piece.source, piece.bytes, in: tables), piece.source, piece.bytes, members))
            }
        }
        let messagePieces = pieces.indices.filter { pieces[$0].source == ChunkValues.message }
        // The reports listed under their message whole: once the sets are closed below, each is in the set of
        // every listed piece its message starts with.
        var whole = ChunkBits()
        for message in messages {
            var longest: Int?
            for index in messagePieces where message.text.starts(with: pieces[index].bytes)
                && pieces[index].bytes.count > longest.map({ pieces[$0].bytes.count }) ?? 0 {
                longest = index
            }
            guard let longest else { continue }
            pieces[longest].members.insert(message.offset)
            if pieces[longest].bytes.count == message.text.count { whole.insert(message.offset) }
        }
        // Closed in the pieces' sorted order.
        let order = pieces.indices.filter { touched.contains(pieces[$0].source) }
            .sorted { ChunkValues.precedes((pieces[$0].source, pieces[$0].bytes), (pieces[$1].source, pieces[$1].bytes)) }
        var sorted = order.map { (source: pieces[$0].source, bytes: pieces[$0].bytes, members: pieces[$0].members) }
        ChunkValues.closeUnderPrefixes(&sorted)
        for (place, index) in order.enumerated() {
            let key = SearchIndex.pieceMembersKey(chunk: chunk, number: pieces[index].number)
            let value = SealedValue.seal(key: key, sorted[place].members.container())
            if index < before, let old = stored[index], old == value { continue }
            try tables.put(.search, key, value)
        }
        if pieces.count > before {
            try tables.put(.search, listKey, SealedValue.seal(key: listKey, PieceNumbers.encoded(pieces.map(\.number).sorted())))
        }
        try addWholeMessages(whole, of: chunk, to: tables)
    }

    /// Adds `whole` to `chunk`'s set of the scans whose report's message is a listed message piece whole
    /// (`SearchIndex.wholeMessages`). Only added to: a scan's report and its message never change, and a piece
    /// listed stays listed (until `remakePieces` makes the set again with the chunk's pieces).
    private func addWholeMessages(_ whole: ChunkBits, of chunk: UInt32, to tables: any ModelTables) throws {
        guard !whole.isEmpty else { return }
        let key = SearchIndex.wholeMessagesKey(chunk: chunk)
        let value = try tables.withValue(.search, key) { stored -> [UInt8]? in
            var bits = whole
            // A damaged set is replaced by this write's scans: a set that lacks scans only costs their rows.
            if let stored, SealedValue.isSound(key: key, value: stored) {
                bits.or(container: SealedValue.body(stored))
            }
            let value = SealedValue.seal(key: key, bits.container())
            return stored.map { value.elementsEqual($0) } ?? false ? nil : value
        }
        if let value { try tables.put(.search, key, value) }
    }

    /// The scans of `messages` (each a report's message on a scan of a chunk, lower-cased) whose message is one
    /// of `pieces` (a chunk's listed pieces, their sets closed under prefixes) whole, and in its set.
    static func wholeMessages(_ messages: [(offset: Int, text: [UInt8])],
                              in pieces: [(source: UInt8, bytes: [UInt8], members: ChunkBits)]) -> ChunkBits {
        var listed: [[UInt8]: Int] = [:]
        for (index, piece) in pieces.enumerated() where piece.source == ChunkValues.message { listed[piece.bytes] = index }
        var whole = ChunkBits()
        for message in messages {
            if let index = listed[message.text], pieces[index].members.contains(message.offset) { whole.insert(message.offset) }
        }
        return whole
    }

    /// Makes the pieces of a full chunk again from its rows, in place of those its writes listed: a chunk
    /// filled by many small writes (a served store's single scans) lists few pieces, since each write counts
    /// only its own scans against the threshold, and its searches would check every candidate's row. Once
    /// per chunk of 16,000 scans, from their rows' search text (the report's message its last field).
    private func remakePieces(of chunk: UInt32, in tables: any ModelTables) throws {
        try store(RemadePieces(of: chunk, in: tables, through: .max), to: tables)
    }

    /// Stores a full chunk's pieces made again (`RemadePieces`) in place of those its writes listed, and the
    /// sets made with them. Its trigram sets are final now, and its pairs' unions are made from them
    /// (`PairSets`).
    private func store(_ pieces: RemadePieces, to tables: any ModelTables) throws {
        let chunk = pieces.chunk
        try deleteKinds([SearchIndex.pieceList, SearchIndex.pieceMembers, SearchIndex.uncoveredGram, SearchIndex.headNext,
                         SearchIndex.headFollowing, SearchIndex.formerHeadFollowing, SearchIndex.tailAfterByte,
                         SearchIndex.tailAfterTwo, SearchIndex.tailAfterThree, SearchIndex.tailsRepeated,
                         SearchIndex.wholeMessages],
                        of: chunk, in: tables)
        for (key, value) in try pieceEntries(pieces.listed.map { ($0.source, $0.bytes, $0.members.container()) }, of: chunk, in: tables) {
            try tables.put(.search, key, value)
        }
        try addWholeMessages(pieces.whole, of: chunk, to: tables)
        for entry in pieces.uncovered { try tables.put(.search, entry.key, entry.value) }
        for (key, value) in try headEntries(pieces.headNext, of: chunk, in: tables) { try tables.put(.search, key, value) }
        for (key, value) in try headEntries(pieces.headFollowing, of: chunk, in: tables) { try tables.put(.search, key, value) }
        for (key, value) in pieces.tailsAfter { try tables.put(.search, key, value) }
        for (key, value) in try PairSets.entries(of: chunk, in: tables) { try tables.put(.search, key, value) }
    }

    /// The entries of `chunk`'s sets by what comes before their tails (`ChunkValues.tailsAfter`), sealed, in
    /// key order.
    static func sealed(tailsAfter sets: [(key: [UInt8], members: [UInt8])], chunk: UInt32) -> [(key: [UInt8], value: [UInt8])] {
        let group = SearchIndex.groupBytes(chunk), place = SearchIndex.place(chunk)
        return sets.map { set in
            let key = group + set.key + [place]
            return (key: key, value: SealedValue.seal(key: key, set.members))
        }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }

    /// The entries of `chunk`'s sets of each head by the byte after it (`ChunkValues.headNext`), sealed, in key
    /// order; each head by its number (`PieceVocabulary`: a head is listed, and so numbered already).
    private func headEntries(_ sets: [(head: [UInt8], byte: UInt8, members: [UInt8])], of chunk: UInt32,
                             in tables: any ModelTables) throws -> [(key: [UInt8], value: [UInt8])] {
        try sets.map { set in
            let key = SearchIndex.headNextKey(chunk: chunk, number: try vocabulary.number(of: ChunkValues.own, set.head, in: tables),
                                              byte: set.byte)
            return (key, SealedValue.seal(key: key, set.members))
        }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }

    /// The entries of `chunk`'s sets by the two bytes after a head's next one (`ChunkValues.headFollowing`), in
    /// their stored form (`HeadFollowers`), sealed, in key order; each head by its number.
    private func headEntries(_ made: HeadFollowing?, of chunk: UInt32, in tables: any ModelTables) throws -> [(key: [UInt8], value: [UInt8])] {
        guard let made else { return [] }
        let numbers = try made.heads.map { try vocabulary.number(of: ChunkValues.own, $0, in: tables) }
        return made.sets.map { set in
            let key = SearchIndex.headFollowingKey(chunk: chunk, last: set.last, byte: set.byte, next: set.next)
            return (key, SealedValue.seal(key: key, HeadFollowers.stored(set.entries, numbers: numbers)))
        }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }

    /// Deletes `chunk`'s entries of the kinds given.
    private func deleteKinds(_ kinds: [UInt8], of chunk: UInt32, in tables: any ModelTables) throws {
        var stale: [[UInt8]] = []
        for kind in kinds {
            try tables.forEach(.search, prefix: SearchIndex.groupBytes(chunk) + [kind]) { key, _ in
                if SearchIndex.isKey(key, of: chunk) { stale.append(Array(key)) }
                return true
            }
        }
        for key in stale { try tables.delete(.search, key) }
    }

    /// The entries of `chunk`'s sets past the heads (`ChunkValues.uncovered`), sealed, in key order.
    static func sealed(_ uncovered: [(gram: UInt32, members: ChunkBits)], chunk: UInt32) -> [(key: [UInt8], value: [UInt8])] {
        uncovered.map { gram, members in
            let key = SearchIndex.uncoveredKey(gram: gram, chunk: chunk)
            return (key: key, value: SealedValue.seal(key: key, members.container()))
        }
    }

    /// Writes what this write's reports (`messages`) add to their chunks, once every chunk is stored: the
    /// grams of those whose chunk was not held (in its stored sets), and every message's pieces — a message
    /// that `ChunkValues.messageThreshold` of a chunk's reports in this write repeat is listed, and each
    /// report joins the longest listed message piece its message starts with (`mergePieces`), so that a
    /// report alone joins the piece its text was listed under before.
    ///
    /// Why the pieces at the end, for all of them: a report names a scan recorded a while before, so an
    /// import's reports mostly come after their scan's chunk was written, and a served store's always do.
    /// Counted with the chunk's scans, a message many reports repeat had a handful in a chunk, and a needle
    /// in it (`sticker`, `receipt`) read its matches' rows.
    private func writeMessages(to tables: any ModelTables) throws {
        guard !messages.isEmpty else { return }
        var byChunk: [UInt32: [(offset: Int, held: Bool, seq: UInt64, text: ArraySlice<UInt8>)]] = [:]
        messages.withUnsafeBytes { bytes in
            var at = 0
            while at < bytes.count {
                let chunk = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                let offset = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 4, as: UInt16.self)))
                let held = bytes[at + 6] != 0
                let seq = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 7, as: UInt64.self))
                let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 15, as: UInt32.self)))
                at += 19
                byChunk[chunk, default: []].append((offset, held, seq, messages[at..<(at + count)]))
                at += count
            }
        }
        let shift = UInt64(SearchIndex.offsetBits)
        for chunk in byChunk.keys.sorted() {
            let reports = byChunk[chunk]!
            var grams: [UInt64] = []
            for report in reports where !report.held {
                for gram in report.text.withUnsafeBytes({ SearchIndex.grams(of: $0, flag: SearchIndex.messageFlag) }) {
                    grams.append(UInt64(chunk) << (32 + shift) | UInt64(gram) << shift | UInt64(report.offset))
                }
            }
            try writeLate(&grams, to: tables)
            try mergeMessagePieces(reports.map { ($0.offset, $0.text) }, of: chunk, in: tables)
            try addReportSeqs(reports.map { ($0.seq, $0.offset) }, of: chunk, to: tables)
        }
        messages.removeAll(keepingCapacity: false)
    }

    /// Merges `reports`' messages (lower-cased) on scans of `chunk` into its pieces: those that
    /// `ChunkValues.messageThreshold` of them repeat are listed, and each joins the longest listed message
    /// piece its message starts with (`mergePieces`).
    private func mergeMessagePieces(_ reports: [(offset: Int, text: ArraySlice<UInt8>)], of chunk: UInt32,
                                    in tables: any ModelTables) throws {
        var values = ChunkValues()
        for report in reports {
            report.text.withUnsafeBytes { values.add(report.offset, text: $0, source: ChunkValues.message) }
        }
        let counted = values.listed().map { ($0.source, $0.bytes, $0.members.container()) }
        try mergePieces(of: chunk, counted, placing: reports, into: tables)
    }

    /// Lists every chunk's reports with a message (`SearchIndex.reportSeqs`) from the scan rows, in place of any
    /// list stored: how a rebuild brings a sound index of form 10 to form 11 (`Models.completeKeptSearchIndex`).
    /// One pass over the rows in ordinal order, a chunk's reports held until the next chunk's row.
    static func listReports(fromRowsIn tables: any ModelTables) throws {
        var chunk: UInt32?
        var reports: [(seq: UInt64, offset: Int)] = []
        func store() throws {
            guard let chunk, !reports.isEmpty else { return }
            let key = SearchIndex.reportSeqsKey(chunk: chunk)
            guard let list = ReportSeqs.adding(reports, to: UnsafeRawBufferPointer(start: nil, count: 0)) else { return }
            try tables.put(.search, key, SealedValue.seal(key: key, list))
        }
        try tables.forEach(.scans, prefix: []) { key, row in
            guard key.count == 4 else { return true }
            let ordinal = key.loadUnaligned(as: UInt32.self).bigEndian
            if chunk != SearchIndex.chunk(of: ordinal) {
                try store()
                chunk = SearchIndex.chunk(of: ordinal)
                reports.removeAll(keepingCapacity: true)
            }
            let header = try ScanRowHeader(row, reportsThrough: .max)
            let fields = header.searchFields
            if header.isReported, fields.count == ScanRow.searchFieldCount, !fields[fields.count - 1].isEmpty {
                reports.append((header.reportSeq, SearchIndex.offset(of: ordinal)))
            }
            return true
        }
        try store()
    }

    /// Adds `reports` (seq ascending, each after every report stored) to `chunk`'s list of reports with a
    /// message (`ReportSeqs`). A stored list that does not read is left as it is: `log verify` finds it, a
    /// replay reads the rows of that chunk's message candidates, and `rebuild` makes it again.
    private func addReportSeqs(_ reports: [(seq: UInt64, offset: Int)], of chunk: UInt32, to tables: any ModelTables) throws {
        let key = SearchIndex.reportSeqsKey(chunk: chunk)
        let value = try tables.withValue(.search, key) { stored -> [UInt8]? in
            if let stored, !SealedValue.isSound(key: key, value: stored) { return nil }
            return ReportSeqs.adding(reports, to: stored.map { SealedValue.body($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0))
                .map { SealedValue.seal(key: key, $0) }
        }
        if let value { try tables.put(.search, key, value) }
    }

    /// Merges `late`'s grams (`chunk << 46 | gram << 14 | offset`) into the stored sets, and empties it.
    private func writeLate(_ late: inout [UInt64], to tables: any ModelTables) throws {
        guard !late.isEmpty else { return }
        late.sort()
        var i = 0
        while i < late.count {
            let shift = UInt64(SearchIndex.offsetBits)
            let group = late[i] >> shift
            var offsets: [UInt16] = []
            while i < late.count, late[i] >> shift == group {
                let offset = UInt16(truncatingIfNeeded: late[i] & (1 << shift - 1))
                if offsets.last != offset { offsets.append(offset) }
                i += 1
            }
            let key = SearchIndex.key(gram: UInt32(truncatingIfNeeded: group), chunk: UInt32(truncatingIfNeeded: group >> 32))
            guard stores(key) else { continue }
            let (value, same) = try tables.withValue(.search, key) { stored in
                var bits = ChunkBits()
                if let stored { bits.or(container: SealedValue.body(stored)) }
                for offset in offsets { bits.insert(Int(offset)) }
                let value = SealedValue.seal(key: key, bits.container())
                return (value, stored.map { value.elementsEqual($0) } ?? false)
            }
            if !same { try tables.put(.search, key, value) }
        }
        late.removeAll(keepingCapacity: false)
    }
}
