import Domain

/// `history`'s filters answered from the search index (`SearchIndex`): chunk by chunk, newest first, the
/// sets the filters name are read and combined as bits, so that a query costs the chunks of the window and
/// the rows of its page, plus a check of each candidate only where the index can not be exact (a needle
/// longer than 3 bytes that no piece many scans share holds and that the fields past their heads may hold,
/// `ChunkValues`, or that a message runs past its listed piece may hold; a message in a replay of a prefix of
/// the log when the index does not list the reports by seq, `SearchIndex.reportSeqs`).
struct IndexedSearch {
    let models: Models
    /// The lower-cased needle (empty: no search), without a 0 byte.
    let needle: [UInt8]
    let type: HistoryQuery.ResultFilter
    let category: String?
    let actor: String?

    init(models: Models, needle: [UInt8], type: HistoryQuery.ResultFilter, category: String?, actor: String?) {
        self.models = models
        self.needle = needle
        self.type = type
        self.category = category
        self.actor = actor
    }

    /// How many scans with ordinals in `first...last` match, and the ordinals of the page (`offset`,
    /// `limit`), newest first. With `knownTotal` (the count, known otherwise) the chunks are read only until
    /// the page is full.
    func page(first: UInt32, last: UInt32, offset: Int, limit: Int, knownTotal: Int? = nil) throws -> (total: Int, ordinals: [UInt32]) {
        var total = 0
        var ordinals: [UInt32] = []
        guard first <= last, last > 0 else { return (0, []) }
        let check = SearchNeedle(lowercased: needle)
        // The newest scans may be left out of the sets (`UnindexedScans`): their rows are read.
        var last = last
        if let unindexed = try models.firstUnindexedScan(), unindexed <= last {
            let low = max(first, unindexed)
            let filter = RowFilter(type: type, category: category, actor: actor, needle: check)
            for ordinal in stride(from: last, through: low, by: -1) {
                guard try models.withScanHeader(ordinal, filter.matches) else { continue }
                if total >= offset && ordinals.count < limit { ordinals.append(ordinal) }
                total += 1
            }
            if low == first { return (knownTotal ?? total, ordinals) }
            if let knownTotal, ordinals.count >= limit { return (knownTotal, ordinals) }
            last = low - 1
        }
        let labels = labelPrefixes()
        let form = try models.searchIndexForm() ?? 0
        // A replay of a prefix leaves out the reports made after it: the chunks' lists of reports say which
        // those are in an index of form 11 on; without them, no report's message is known to be in the text.
        let replay = models.scanList.reportsThrough != .max
            ? Replay(through: models.scanList.reportsThrough, reportsAreListed: form >= 11) : nil
        // The pieces that hold the needle, found once for every chunk.
        let withMessages = replay?.reportsAreListed ?? true
        let matches = !isExact
            ? try needle.withUnsafeBytes { try PieceMatches(needle: $0, withMessages: withMessages, in: models.tables) } : nil
        let orders = (fields: GramOrder(needle: needle, flag: 0), messages: GramOrder(needle: needle, flag: SearchIndex.messageFlag))
        let edges = EdgeProofs(needle: needle, tables: models.tables)
        // Candidates are ruled out by where the needle starts only in an index of form 10 on, whose chunks have
        // the sets of what follows heads wherever they have the sets past the heads.
        let edgesAreKnown = !isExact && needle.count <= IndexedSearch.longestStart && form >= 10
        var chunk = SearchIndex.chunk(of: last)
        while true {
            let low = chunk == SearchIndex.chunk(of: first) ? SearchIndex.offset(of: first) : 0
            let high = chunk == SearchIndex.chunk(of: last) ? SearchIndex.offset(of: last) + 1 : ChunkBits.scansPerChunk
            if let (candidates, unsure) = try candidates(chunk: chunk, labels: labels, range: low..<high, replay: replay,
                                                         matches: matches, orders: orders, edges: edges,
                                                         edgesAreAll: edgesAreKnown && matches?.headsAreAll ?? false) {
                let base = SearchIndex.first(of: chunk)
                if unsure == nil && ordinals.count >= limit {
                    total += candidates.count
                } else {
                    try candidates.forEachDescending { offsetInChunk in
                        let ordinal = base + UInt32(offsetInChunk)
                        if let unsure, unsure.contains(offsetInChunk) {
                            guard try models.withScanHeader(ordinal, { check.matches($0) }) else { return true }
                        }
                        if total >= offset && ordinals.count < limit { ordinals.append(ordinal) }
                        total += 1
                        return true
                    }
                }
            }
            if chunk == SearchIndex.chunk(of: first) { break }
            if let knownTotal, ordinals.count >= limit { return (knownTotal, ordinals) }
            chunk -= 1
        }
        return (knownTotal ?? total, ordinals)
    }

    /// Whether the needle's sets are exactly its matches: up to 3 bytes (its unigram, trigrams) or four
    /// digits (`SearchIndex.digits`); a longer needle's only say where it may be.
    private var isExact: Bool { needle.count <= 3 || SearchIndex.isDigits(needle) }

    /// The label sets every match must be in (`mustHave`) and the one it must not (authentic scans: not
    /// counterfeit).
    private func labelPrefixes() -> (mustHave: [[UInt8]], mustNot: [UInt8]?) {
        var mustHave: [[UInt8]] = []
        var mustNot: [UInt8]?
        let counterfeit = SearchIndex.labelPrefix(SearchIndex.counterfeit, [])
        switch type {
        case .all: break
        case .failed: mustHave.append(counterfeit)
        case .success: mustNot = counterfeit
        }
        if let category { mustHave.append(SearchIndex.labelPrefix(SearchIndex.category, category.utf8)) }
        if let actor { mustHave.append(SearchIndex.labelPrefix(SearchIndex.actor, actor.utf8)) }
        return (mustHave, mustNot)
    }

    /// A replay of the log's events through `through`, and whether the index lists the reports by seq
    /// (`SearchIndex.reportSeqs`).
    private struct Replay {
        let through: UInt64
        let reportsAreListed: Bool
    }

    /// The candidates of `chunk` within `range` (nil: none), and those of them that must be checked
    /// against their row (nil: none).
    private func candidates(chunk: UInt32, labels: (mustHave: [[UInt8]], mustNot: [UInt8]?), range: Range<Int>,
                            replay: Replay?, matches: PieceMatches?,
                            orders: (fields: GramOrder, messages: GramOrder),
                            edges: EdgeProofs, edgesAreAll: Bool) throws -> (ChunkBits, unsure: ChunkBits?)? {
        // What the other filters allow, first: a needle's sets are then read only where it can match.
        var allowed = ChunkBits()
        allowed.words = [UInt64](repeating: .max, count: ChunkBits.words)
        for prefix in labels.mustHave {
            guard let set = try set(SearchIndex.key(labelPrefix: prefix, chunk: chunk)) else { return nil }
            allowed.formIntersection(set)
        }
        if let prefix = labels.mustNot, let set = try set(SearchIndex.key(labelPrefix: prefix, chunk: chunk)) {
            allowed.subtract(set)
        }
        allowed.keep(range)
        if allowed.isEmpty { return nil }
        if needle.isEmpty { return (allowed, nil) }
        // The scans whose report's message is in the text searched: every one at the head (nil); in a replay,
        // those reported within it, when the chunk's list of reports reads; else none is known to be.
        var reported: ChunkBits?
        if let replay, replay.reportsAreListed { reported = try reportedWithin(chunk: chunk, through: replay.through) }
        let messagesKnown = replay == nil || reported != nil
        var piecesRead = true
        let proven = try matches.flatMap {
            try provenByPieces(chunk: chunk, matches: $0, messagesIn: messagesKnown ? reported : ChunkBits(), listRead: &piecesRead)
        }
        // Read once, and only when a candidate is left that no piece proves (a set read is a page fault).
        var pastHeadsRead = false
        var pastHeads: ChunkBits?
        func readPastHeads() throws -> ChunkBits? {
            if !pastHeadsRead && needle.count >= ChunkValues.shortest { pastHeads = try self.pastHeads(chunk: chunk) }
            pastHeadsRead = true
            return pastHeads
        }
        let fields = try needleSet(chunk: chunk, flag: 0, order: orders.fields, allowed: allowed, proven: proven,
                                   pastHeads: readPastHeads, edges: { try edges.likelyProven(chunk: chunk) })
        var messages = try needleSet(chunk: chunk, flag: SearchIndex.messageFlag, order: orders.messages, allowed: allowed,
                                     proven: proven, pastHeads: { nil }, edges: { nil })
        if let reported, messages != nil {
            messages!.formIntersection(reported)
            if messages!.isEmpty { messages = nil }
        }
        var bits: ChunkBits
        var unsure: ChunkBits?
        switch (fields, messages) {
        case (nil, nil): return nil
        case (let f?, nil): bits = f
        case (nil, let m?): bits = m
        case (var f?, let m?):
            // In a replay without the reports' seqs, a message may have been reported after the prefix: only
            // those scans are unsure.
            if !messagesKnown && isExact { var only = m; only.subtract(f); unsure = only }
            f.formUnion(m)
            bits = f
        }
        if !messagesKnown && isExact && unsure == nil && messages != nil && fields == nil { unsure = bits }
        bits.formIntersection(allowed)
        if bits.isEmpty { return nil }
        if !isExact {
            var left = bits
            if let proven { left.subtract(proven) }
            // The candidates whose message may hold the needle: not those whose message is a listed piece whole
            // (`SearchIndex.wholeMessages`), each in the set of every listed piece its message starts with, so
            // that the pieces read from a list that read (`provenByPieces`) would have proven it.
            var messages = messages
            if var unsure = messages, messagesKnown, piecesRead, !unsure.hasNone(in: left, outside: nil),
               let whole = try set(SearchIndex.wholeMessagesKey(chunk: chunk)) {
                unsure.subtract(whole)
                messages = unsure
                var out = left
                out.formIntersection(whole)
                if let fields { out.subtract(fields) }
                left.subtract(out)
                bits.subtract(out)
            }
            if !left.isEmpty, let pastHeads = try readPastHeads() {
                // No piece proves it, so a match has the needle's last trigram past a head, or the needle in
                // its message.
                var out = left
                out.subtract(pastHeads)
                if let messages { out.subtract(messages) }
                left.subtract(out)
                bits.subtract(out)
            }
            // Those left may hold it from just past a head or before a tail: read once for their group (when
            // `needleSet` has not), for chunks with more rows left than the sets are likely to cost.
            if left.count > IndexedSearch.fewLeft || edges.haveRead(chunk: chunk) {
                if let fromEdges = try edges.proven(chunk: chunk) { left.subtract(fromEdges) }
                // Those left that do not have the needle's start past a head either are no matches, once
                // every match across a head's end was proven.
                if !left.isEmpty, edgesAreAll, let starts = try startsPastHeads(chunk: chunk) {
                    var out = left
                    out.subtract(starts)
                    if let messages { out.subtract(messages) }
                    left.subtract(out)
                    bits.subtract(out)
                }
            }
            // Every candidate proven: the chunk's count is exact, and only its page's rows are read.
            unsure = left.isEmpty ? nil : left
        }
        return (bits, unsure)
    }

    /// The scans of `chunk` reported at or before `through` (`SearchIndex.reportSeqs`; none when the chunk lists
    /// no report), or nil when its list does not read or its check does not match its bytes.
    private func reportedWithin(chunk: UInt32, through: UInt64) throws -> ChunkBits? {
        let key = SearchIndex.reportSeqsKey(chunk: chunk)
        return try models.tables.withValue(.search, key) { stored in
            guard let stored else { return ChunkBits() }
            guard SealedValue.isSound(key: key, value: stored) else { return nil }
            return ReportSeqs.reported(SealedValue.body(stored), through: through)
        }
    }

    /// The scans of `chunk` that have the needle's last trigram past their fields' heads
    /// (`ChunkValues.uncovered`): a match no piece proves is one of them, or has the needle in its message.
    /// Nil when the chunk keeps no such set for the trigram (it is in none of its heads, or scans were added
    /// to the chunk by a later write): nothing is ruled out then.
    private func pastHeads(chunk: UInt32) throws -> ChunkBits? {
        let n = needle.count
        let gram = UInt32(needle[n - 3]) << 16 | UInt32(needle[n - 2]) << 8 | UInt32(needle[n - 1])
        return try set(SearchIndex.uncoveredKey(gram: gram, chunk: chunk))
    }

    /// The scans of `chunk` that have one of the needle's first trigrams past their fields' heads
    /// (`ChunkValues.uncovered`: a trigram that ends past a head), the first `max(1, count - 5)` of them;
    /// nil when the chunk keeps no set for one of them, or the needle is longer than `longestStart`.
    ///
    /// Why: a needle's trigrams may all be in a scan without the needle (`s-2812830` for `s-283`: `-28` at its
    /// head's end, `283` past it), and such candidates were each a row read: 977 for `s-283` at ten million
    /// scans. A match that no piece proves has the needle across the end of the head its field is listed
    /// under, or past it. With one to three bytes past the head it is proven by the head's sets of what follows
    /// it (`headNext`, `headFollowing`), when the query read all of them (`edgesAreAll`). With `k` ≥ 4 bytes past
    /// it, or wholly past it, the needle's trigram at `max(0, count - k - 2)` starts at the head's last two
    /// bytes or later: it is past the head, and it is one of the first `max(1, count - 5)` (the first, for a
    /// needle wholly past).
    private func startsPastHeads(chunk: UInt32) throws -> ChunkBits? {
        guard needle.count >= ChunkValues.shortest, needle.count <= IndexedSearch.longestStart else { return nil }
        var starts: ChunkBits?
        for j in 0...max(0, needle.count - 6) {
            let gram = UInt32(needle[j]) << 16 | UInt32(needle[j + 1]) << 8 | UInt32(needle[j + 2])
            guard let set = try set(SearchIndex.uncoveredKey(gram: gram, chunk: chunk)) else { return nil }
            if starts == nil { starts = set } else { starts!.formUnion(set) }
        }
        return starts
    }

    /// The longest needle whose candidates are ruled out by where it starts (`startsPastHeads`): three sets
    /// a chunk.
    static let longestStart = 8

    /// The scans of `chunk` that hold one of its shared pieces (`ChunkValues`) containing the needle
    /// (`matches`): matches without a row read. A piece's set holds those of the pieces that start with it,
    /// so of the pieces the chunk lists only those none of whose matched prefixes it lists are read (a needle
    /// in a code's head: the head's set, not one per brand below it). And those whose field has a head the
    /// needle runs one byte past, with that byte after it (`SearchIndex.headNext`). Nil: none. A message
    /// piece's scans are taken only where `messagesIn` has them (nil: all of them; a replay's scans reported
    /// within it). `listRead` is made false when the chunk's list was needed and is missing or does not read.
    private func provenByPieces(chunk: UInt32, matches: PieceMatches, messagesIn: ChunkBits?, listRead: inout Bool) throws -> ChunkBits? {
        guard !matches.isEmpty else { return nil }
        var read: [(key: [UInt8], isMessage: Bool)] = []
        if !matches.numbers.isEmpty {
            listRead = try models.tables.withValue(.search, SearchIndex.pieceListKey(chunk: chunk)) { list in
                guard let list else { return false }
                return matches.forEachShortest(in: SealedValue.body(list)) {
                    read.append((SearchIndex.pieceMembersKey(chunk: chunk, number: matches.numbers[$0]), matches.isMessage[$0]))
                }
            }
        }
        for head in matches.heads {
            read.append((SearchIndex.headNextKey(chunk: chunk, number: head, byte: needle[needle.count - 1]), false))
        }
        var proven: ChunkBits?
        for (key, isMessage) in read {
            if isMessage, let messagesIn, messagesIn.isEmpty { continue }
            try models.tables.withValue(.search, key) { stored in
                guard let stored else { return }
                if proven == nil { proven = ChunkBits() }
                if isMessage, let messagesIn {
                    var members = ChunkBits(container: SealedValue.body(stored))
                    members.formIntersection(messagesIn)
                    proven!.formUnion(members)
                } else {
                    proven!.or(container: SealedValue.body(stored))
                }
            }
        }
        return proven
    }

    /// The scans of `chunk` whose fields (or, with `messageFlag`, report's message) may hold the needle:
    /// exactly for up to 3 bytes and for four digits (see `SearchIndex`), a superset beyond; of those
    /// `allowed`, nil when none. A longer needle's runs of digits and trigrams are intersected until the
    /// candidates allowed are all `proven` matches, matches from just past a head or before a tail (`edges`),
    /// or outside the scans that have its last trigram past their heads (`pastHeads`); the last two read once
    /// needed.
    private func needleSet(chunk: UInt32, flag: UInt8, order: GramOrder, allowed: ChunkBits, proven: ChunkBits?,
                           pastHeads: () throws -> ChunkBits?, edges: () throws -> ChunkBits?) throws -> ChunkBits? {
        switch needle.count {
        case 1:
            return try set(SearchIndex.key(gram: SearchIndex.gram(SearchIndex.unigram | flag, needle[0], 0, 0), chunk: chunk))
        case 2:
            // A full chunk keeps the union of a pair's trigram sets when they are large (`PairSets`), at the head
            // of their range; without it, the range is read (another chunk's union in it is filtered out by its
            // place, as its trigrams are).
            if flag == 0, let pair = try set(SearchIndex.pairKey(needle[0], needle[1], chunk: chunk)) { return pair }
            var union: ChunkBits?
            try models.tables.forEach(.search, prefix: SearchIndex.trigramPrefix(SearchIndex.trigram | flag, needle[0], needle[1], chunk: chunk)) { key, value in
                guard SearchIndex.isKey(key, of: chunk) else { return true }
                if union == nil { union = ChunkBits() }
                union!.or(container: SealedValue.body(value))
                return true
            }
            return union
        default:
            if SearchIndex.isDigits(needle) { return try set(SearchIndex.key(gram: order.grams[0], chunk: chunk)) }
            if order.isSampling {
                // Every set read, to learn which are rarest: the intersection is the same in any order.
                var result: ChunkBits?
                var counts: [Int] = []
                for gram in order.grams {
                    let set = try set(SearchIndex.key(gram: gram, chunk: chunk))
                    counts.append(set?.count ?? 0)
                    if result == nil { result = set ?? ChunkBits() } else { result!.formIntersection(set ?? ChunkBits()) }
                }
                order.sampled(counts, scans: allowed.count)
                guard let result, !result.hasNone(in: allowed, outside: nil) else { return nil }
                return result
            }
            var result: ChunkBits?
            var settled = proven
            var settledWithPastHeads = false, settledWithEdges = false
            for (i, gram) in order.grams.enumerated() {
                guard let set = try set(SearchIndex.key(gram: gram, chunk: chunk)) else { return nil }
                if result == nil { result = set } else { result!.formIntersection(set) }
                if result!.hasNone(in: allowed, outside: nil) { return nil }
                // Once every candidate allowed is proven a match, the other trigrams can only keep them
                // all: a set read for each of them (a page fault, in a large store) is saved.
                if let settled, result!.hasNone(in: allowed, outside: settled) { return result }
                // Or proven or ruled out by the set past the heads (`candidates` rules them out after).
                if !settledWithPastHeads, let past = try pastHeads() {
                    settledWithPastHeads = true
                    var outside = allowed
                    outside.subtract(past)
                    if let settled { outside.formUnion(settled) }
                    settled = outside
                    if result!.hasNone(in: allowed, outside: outside) { return result }
                }
                // Or proven from just past a head or before a tail, when sets are left to save (`29?lot=9`:
                // four trigram sets a chunk; read once for a group of chunks, only for a needle of that shape,
                // and only while the groups read prove scans).
                if !settledWithEdges, i + 1 < order.grams.count, let fromEdges = try edges() {
                    settledWithEdges = true
                    var more = fromEdges
                    if let settled { more.formUnion(settled) }
                    settled = more
                    if result!.hasNone(in: allowed, outside: more) { return result }
                }
                // The sets left are ones most scans hold (read last) and few candidates are left unsettled:
                // their rows cost less than those sets, which would rule few of them out.
                if i + 1 < order.grams.count && order.isCommon(i + 1) {
                    var left = result!
                    left.formIntersection(allowed)
                    if let settled { left.subtract(settled) }
                    if left.count <= IndexedSearch.fewLeft { return result }
                }
            }
            return result
        }
    }

    /// How many unsettled candidates a chunk may leave to their rows rather than read a set most scans hold.
    static let fewLeft = 2

    private func set(_ key: [UInt8]) throws -> ChunkBits? {
        try models.tables.withValue(.search, key) { $0.map { ChunkBits(container: SealedValue.body($0)) } }
    }
}
