import Domain
@testable import Engine
import EventLog
import Foundation
@testable import LMDB
@testable import Projections
import StrictJSON
import Testing
import TestSupport

/// The search index (`SearchIndex`) answers `history` exactly as reading every row does (projections.md §1):
/// random needles of 1 to 20 characters (ones most scans hold, ones none does, non-ASCII, case changes),
/// random filters and pages, at the head and as of random points of the log, so that the fast path can not
/// drift from the spec.
@Suite struct SearchIndexTests {
    /// Field values the scans draw from: upper case, accents, scalars whose lower case is longer (İ), CJK,
    /// an emoji, and text that repeats across fields.
    static let words = ["Serum", "SERUM 50 ml", "Crème de la Mer", "Straße", "İstanbul Çarşı", "上海 南京路", "Box 📦 crushed",
                        "Rolex Submariner", "Air Max 90", "ÉCLAIR", "ΣΊΣΥΦΟΣ", "hologram", "Hologram sticker", "x", "ab",
                        "Lyon", "München", "seal broken", "QR-code", "aaa aaa"]
    static let categories = ["Cosmetics", "Watches", "Footwear", "Électronique"]
    static let actors = ["ines", "marco", "zoe.k"]
    /// An actor of 8 scans a chunk, listed by name (`ChunkValues.actorThreshold`).
    static let rareActor = "emma.moreau179"

    /// A random log: accounts, scans with random fields, reports with and without messages.
    static func log(scans: Int, rng: inout SystemRandomNumberGenerator, start: Int = 0) -> [String] {
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z")]
        for (i, a) in actors.enumerated() {
            lines.append(Ev.register(a, role: "inspector", by: "admin", at: "2026-11-01T08:0\(i + 1):00Z"))
        }
        lines.append(Ev.register(rareActor, role: "inspector", by: "admin", at: "2026-11-01T08:09:00Z"))
        var second = 0
        var reported: Set<String> = []
        func at() -> String {
            second += Int.random(in: 0...40, using: &rng)
            let t = Timestamp(microseconds: Ev.time("2026-11-01T09:00:00Z").microseconds + Int64(second) * 1_000_000)
            return t.description
        }
        func word() -> String { words.randomElement(using: &rng)! }
        func quoted(_ s: String) -> String { String(data: try! JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes]), encoding: .utf8)!.dropFirst().dropLast().description }
        for n in 1...scans {
            let id = "s-\(start + n)"
            var extra = ""
            if Bool.random(using: &rng) { extra += #","brand":\#(quoted(word()))"# }
            if Int.random(in: 0..<3, using: &rng) == 0 { extra += #","location":\#(quoted(word()))"# }
            if Int.random(in: 0..<4, using: &rng) == 0 { extra += #","notes":\#(quoted(word() + " " + word()))"# }
            let batch = Int.random(in: 0..<5, using: &rng) == 0
            if batch { extra += #","batchId":"B-\#(n % 7)""# }
            // A short code, or a link with a unique part, and after it, half the time, a lot of five digits
            // (the pieces of tails, `ChunkValues.addTails`).
            var code = Int.random(in: 0..<4, using: &rng) == 0 ? "C-\(n % 50)" : "https://v.example/c/\(UInt32.random(in: 0...UInt32.max, using: &rng))"
            if code.hasPrefix("https"), Bool.random(using: &rng) { code += "?lot=\(String(100_000 + Int.random(in: 0..<100_000, using: &rng)).dropFirst())" }
            let by = n % 2_000 == 0 ? rareActor : actors.randomElement(using: &rng)!
            lines.append(Ev.scan(id, by: by, at: at(), code: code,
                                 productName: word().replacingOccurrences(of: "\"", with: ""), category: categories.randomElement(using: &rng)!,
                                 result: Bool.random(using: &rng) ? "authentic" : "counterfeit", mode: batch ? "batch" : "single", extra: extra))
            if n % 9 == 0 {
                let target = "s-\(start + Int.random(in: max(1, n - 30)...n, using: &rng))"
                if reported.insert(target).inserted {
                    // Digits in a message too: four of them are a set of their own (`SearchIndex.digits`).
                    let digits = Int.random(in: 0..<3, using: &rng) == 0 ? " lot \(Int.random(in: 1000...99_999, using: &rng))" : ""
                    let message = Bool.random(using: &rng) ? #","message":\#(quoted(word() + " " + word() + digits))"# : ""
                    lines.append(Ev.report(target, reason: "packaging", by: actors.randomElement(using: &rng)!, at: at(), extra: message))
                }
            }
        }
        return lines
    }

    /// A needle: a piece of a word (1 to 20 scalars, its case changed at random), digits (of ids, codes,
    /// lots and messages), or text no scan holds.
    static func needle(_ rng: inout SystemRandomNumberGenerator) -> String {
        if Int.random(in: 0..<10, using: &rng) == 0 { return ["zzzq", "q", "🦀", "ab\u{0}c", "", "https://v.example/c/1"].randomElement(using: &rng)! }
        if Int.random(in: 0..<6, using: &rng) == 0 {
            let digits = String(UInt32.random(in: 0...UInt32.max, using: &rng))
            return String(digits.prefix(Int.random(in: 1...min(8, digits.count), using: &rng)))
        }
        let all = words + categories + actors + ["https://v.example/c/", "C-1", "s-1", "B-3", "7?lot=04"]
        let scalars = Array(all.randomElement(using: &rng)!.unicodeScalars)
        let length = Int.random(in: 1...min(20, scalars.count), using: &rng)
        let from = Int.random(in: 0...(scalars.count - length), using: &rng)
        var s = String(String.UnicodeScalarView(scalars[from..<(from + length)]))
        if Bool.random(using: &rng) { s = s.uppercased() }
        return s
    }

    static func query(_ rng: inout SystemRandomNumberGenerator) -> HistoryQuery {
        var q = HistoryQuery()
        q.search = needle(&rng)
        q.type = HistoryQuery.ResultFilter.allCases.randomElement(using: &rng)!
        if Int.random(in: 0..<3, using: &rng) == 0 { q.category = categories.randomElement(using: &rng)! }
        if Int.random(in: 0..<3, using: &rng) == 0 { q.by = actors.randomElement(using: &rng)! }
        q.window = [HistoryWindow.all, .today, .sevenDays].randomElement(using: &rng)!
        q.limit = [1, 5, 50, 1000].randomElement(using: &rng)!
        q.offset = [0, 0, 3, 40].randomElement(using: &rng)!
        return q
    }

    /// A store holding `lines`, made in process.
    static func store(_ lines: [String]) throws -> (Store, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-index-\(UUID().uuidString)")
        let events = try lines.map(Ev.decoded)
        _ = try Store.create(directory: directory.path) { appender in
            for e in events { _ = try appender.append(e) }
        }
        return (try Store(directory: directory.path), directory)
    }

    /// Asks each needle both ways at the head (200 at most), and expects the same answers.
    static func expectSame(_ store: Store, needles: [String]) throws {
        for needle in needles {
            var q = HistoryQuery(); q.search = needle; q.limit = 200
            try expectSame(store, q, asOf: nil)
        }
    }

    /// Deletes the sets of `kinds` of the first group (an index written before those kinds were).
    static func deleteSets(of kinds: [UInt8], in tables: StoredTables) throws {
        var keys: [[UInt8]] = []
        for kind in kinds {
            try tables.forEach(.search, prefix: SearchIndex.groupBytes(0) + [kind]) { key, _ in keys.append(Array(key)); return true }
        }
        for key in keys { try tables.delete(.search, key) }
    }

    /// Whether the store's search index is ready (of a form queries read), and of the current form.
    static func readiness(_ store: Store) throws -> (ready: Bool, current: Bool) {
        try store.log.environment.read { txn in
            let models = Models(tables: StoredTables(transaction: txn, databases: store.modelDatabases), log: LogReader(log: store.log, transaction: txn))
            return (try models.searchIndexIsReady(), try models.searchIndexIsCurrent())
        }
    }

    /// Asks `query` both ways as of `asOf`, and expects the same answer.
    static func expectSame(_ store: Store, _ query: HistoryQuery, asOf: AsOf?) throws {
        let now = Ev.time("2026-11-20T18:00:00Z")
        // A refusal (`--by` an account not registered yet at the point) must be the same refusal.
        struct Refusal: Error, Equatable { let text: String }
        func answer(_ context: QueryContext, _ path: HistoryQuery.Path) -> Result<JSONValue, Refusal> {
            do { return .success(try query.answer(context, viewer: nil, path: path)) } catch { return .failure(Refusal(text: "\(error)")) }
        }
        let (indexed, read) = try store.query(asOf: asOf, now: asOf == nil ? now : nil, fallbackNow: { now }) { context in
            (answer(context, .index), answer(context, .rows))
        }
        #expect(indexed == read, "\(query) as of \(String(describing: asOf))")
    }

    @Test func theIndexAnswersAsReadingEveryRowDoes() throws {
        var rng = SystemRandomNumberGenerator()
        let lines = SearchIndexTests.log(scans: 1_500, rng: &rng)
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let head = UInt64(lines.count)
        for _ in 0..<300 {
            let asOf: AsOf? = switch Int.random(in: 0..<3, using: &rng) {
            case 0: nil
            case 1: .seq(UInt64.random(in: 0...head, using: &rng))
            default: .time(Timestamp(microseconds: Ev.time("2026-11-01T09:00:00Z").microseconds + Int64.random(in: 0...40_000, using: &rng) * 1_000_000))
            }
            try SearchIndexTests.expectSame(store, SearchIndexTests.query(&rng), asOf: asOf)
        }
    }

    /// Scans are kept in chunks of 16,000: a log across two (reports in the second on scans of the first, held
    /// apart and merged at the end of the write), appended to by one more write (which merges into the
    /// stored sets of its chunk, the last and incomplete one, and reports with a message a scan of the first,
    /// complete chunk), and a rebuild that compares the index with the log's.
    @Test func theIndexHoldsAcrossChunksAppendsAndRebuilds() throws {
        var rng = SystemRandomNumberGenerator()
        var lines = SearchIndexTests.log(scans: ChunkBits.scansPerChunk + 200, rng: &rng)
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let reported = Set(lines.filter { $0.contains("counterfeit.reported") }.compactMap { $0.firstMatch(of: /"scanId":"(s-[0-9]+)"/)?.1 }.map(String.init))
        let early = try #require((100..<15_000).lazy.map { "s-\($0)" }.first { !reported.contains($0) })
        let more = [Ev.scan("s-late", by: "ines", at: "2026-11-20T10:00:00Z", productName: "Crème late", category: "Watches", result: "counterfeit"),
                    Ev.report("s-late", reason: "label", by: "marco", at: "2026-11-20T10:01:00Z", extra: #","message":"Hologram ÉCLAIR""#),
                    Ev.report(early, reason: "label", by: "zoe.k", at: "2026-11-20T10:02:00Z", extra: #","message":"Qwv Kyoto wharf 4711""#)]
        try store.write { appender in for line in more { _ = try appender.append(try Ev.decoded(line)) } }
        lines += more
        var queries = (0..<6).map { _ in SearchIndexTests.query(&rng) }
        for needle in ["é", "late", "hologram éc", "s-1600", "kyoto", "qwv", "wv", "q", "4711", "1600"] {
            var q = HistoryQuery(); q.search = needle; q.offset = ChunkBits.scansPerChunk - 6; q.limit = 20; queries.append(q)
        }
        for q in queries { try SearchIndexTests.expectSame(store, q, asOf: nil) }
        // As of before the last report, its message's four digits are no match.
        var digits = HistoryQuery(); digits.search = "4711"
        try SearchIndexTests.expectSame(store, digits, asOf: .seq(UInt64(lines.count - 1)))
        try store.rebuild()
        for q in queries.prefix(3) { try SearchIndexTests.expectSame(store, q, asOf: .seq(UInt64(lines.count - 1))) }
        for q in queries.suffix(3) { try SearchIndexTests.expectSame(store, q, asOf: nil) }
    }

    /// The keys of a group's chunks interleave (`SearchIndex.chunksPerGroup`): a write that fills the first
    /// group part way and a second that completes it and begins the next (the second group's chunks held and
    /// appended together) answer as reading every row does, on both sides of the groups' boundary, at the
    /// head and as of a seq in the first write, and the audit finds every key of its shape.
    @Test func chunksOfAGroupWrittenByTwoWritesLieTogether() throws {
        var rng = SystemRandomNumberGenerator()
        let perGroup = ChunkBits.scansPerChunk * Int(SearchIndex.chunksPerGroup)
        let lines = SearchIndexTests.log(scans: perGroup + 2 * ChunkBits.scansPerChunk + 100, rng: &rng)
        let split = lines.count / 2
        let events = try lines.map(Ev.decoded)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-groups-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Store.create(directory: directory.path) { appender in for e in events[..<split] { _ = try appender.append(e) } }
        let store = try Store(directory: directory.path)
        try store.write { appender in for e in events[split...] { _ = try appender.append(e) } }
        #expect(try store.auditPages() == nil)
        // With those from a code's head into its unique part, and from its unique part into its lot (proven by
        // the tails' sets, `27?lot=0` by two kinds together), read rarest first past the first chunks.
        for needle in ["e", "ho", "s-4", "hologram", "https://v.ex", "crème", "s-6400", "zzq", "6400", "0042", "1234", "12345", "lot 1",
                       "ample/c/1", "c/42", "/c/3", "7?lot=0", "27?lot=", "27?lot=0", "27?lot=01"] {
            for offset in [0, ChunkBits.scansPerChunk - 3, perGroup - 3, perGroup + ChunkBits.scansPerChunk + 40] {
                var q = HistoryQuery(); q.search = needle; q.offset = offset; q.limit = 6
                try SearchIndexTests.expectSame(store, q, asOf: nil)
            }
            var q = HistoryQuery(); q.search = needle; q.limit = 6
            try SearchIndexTests.expectSame(store, q, asOf: .seq(UInt64(split - 10)))
        }
    }

    /// A rebuild keeps a sound index of the current form as it is, and makes a damaged one again (keeping
    /// the scan list): a set whose check does not match its bytes, and one of a kind the index does not have.
    @Test func aRebuildMendsADamagedIndex() throws {
        var rng = SystemRandomNumberGenerator()
        let lines = SearchIndexTests.log(scans: 2_000, rng: &rng)
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let needles = ["e", "ser", "zzq", "hologram", "s-1", "é"]
        func expectAllSame() throws {
            for needle in needles {
                var q = HistoryQuery(); q.search = needle; q.limit = 1000
                try SearchIndexTests.expectSame(store, q, asOf: nil)
            }
        }
        try expectAllSame()
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            let e = SearchIndex.key(gram: SearchIndex.gram(SearchIndex.unigram, UInt8(ascii: "e"), 0, 0), chunk: 0)
            try tables.put(.search, e, [1, 0, 2, 0])
            let odd = SearchIndex.groupBytes(0) + [0x7F, 1, 2, 3, 0]
            try tables.put(.search, odd, SealedValue.seal(key: odd, [5, 0]))
        }
        let damaged = try store.query(asOf: nil, now: Ev.time("2026-11-20T18:00:00Z"), fallbackNow: { Ev.time("2026-11-20T18:00:00Z") }) { context in
            var q = HistoryQuery(); q.search = "e"
            return try q.answer(context, viewer: nil, path: .index)
        }
        #expect(damaged != (try store.query(asOf: nil, now: Ev.time("2026-11-20T18:00:00Z"), fallbackNow: { Ev.time("2026-11-20T18:00:00Z") }) { context in
            var q = HistoryQuery(); q.search = "e"
            return try q.answer(context, viewer: nil, path: .rows)
        }), "the damage shows before the rebuild")
        #expect(try store.auditPages()?.rebuildRepairs == true)
        let summary = try store.rebuild()
        #expect(!summary.rewroteScanList)
        #expect(try store.auditPages() == nil)
        try expectAllSame()
        // A sound index is kept as it is.
        func sets() throws -> [[UInt8]] {
            try store.log.environment.read { txn in
                var all: [[UInt8]] = []
                try StoredTables(transaction: txn, databases: store.modelDatabases).forEach(.search, prefix: []) { key, value in
                    all.append(Array(key) + Array(value)); return true
                }
                return all
            }
        }
        let before = try sets()
        try store.rebuild()
        #expect(try sets() == before)
        try expectAllSame()
    }
}

extension SearchIndexTests {
    /// A rebuild that makes the index again (one not of the current form, or damaged) empties the old one
    /// first, in transactions of its own, so that the new index takes its pages: the data file's pages in use
    /// grow by the small models the rebuild writes again, not by a whole index. Emptied inside the rebuild's
    /// transaction, the old pages could not be reused before it committed (docs/SCALE.md).
    @Test(arguments: ["not current", "damaged"])
    func aRebuildThatMakesTheIndexAgainTakesTheOldOnesPages(_ change: String) throws {
        var rng = SystemRandomNumberGenerator()
        let (store, directory) = try SearchIndexTests.store(SearchIndexTests.log(scans: 3_000, rng: &rng))
        defer { try? FileManager.default.removeItem(at: directory) }
        func lastPage() throws -> UInt64 {
            try #require(MetaPage.current(ofFileAt: directory.appendingPathComponent("data.mdb").path)).page.lastPage
        }
        func indexBytes() throws -> Int {
            try store.log.environment.read { txn in
                var bytes = 0
                try StoredTables(transaction: txn, databases: store.modelDatabases).forEach(.search, prefix: []) { key, value in
                    bytes += key.count + value.count
                    return true
                }
                return bytes
            }
        }
        let bytes = try indexBytes(), before = try SearchIndexTests.answers(store, path: .index)
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            if change == "not current" {
                try tables.delete(.search, SearchIndex.readyKey)
            } else {
                let e = SearchIndex.key(gram: SearchIndex.gram(SearchIndex.unigram, UInt8(ascii: "e"), 0, 0), chunk: 0)
                try tables.put(.search, e, [1, 0, 2, 0])
            }
        }
        let pages = try lastPage()
        #expect(try !store.rebuild().rewroteScanList)
        let grown = Int(try lastPage() - pages) * 4_096
        #expect(grown < bytes / 4, "\(grown) bytes more pages in use; the index holds \(bytes)")
        #expect(try SearchIndexTests.readiness(store) == (true, true))
        #expect(try store.auditPages() == nil)
        #expect(try indexBytes() == bytes)
        #expect(try SearchIndexTests.answers(store, path: .index) == before)
    }

    /// A rebuild stopped once it has emptied the index leaves a store that verifies and answers every search
    /// as before, from its rows; the next rebuild makes the index again.
    @Test func aStoreWhoseIndexARebuildEmptiedAnswersFromItsRows() throws {
        var rng = SystemRandomNumberGenerator()
        let (store, directory) = try SearchIndexTests.store(SearchIndexTests.log(scans: 3_000, rng: &rng))
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try SearchIndexTests.answers(store, path: .index)
        try store.emptySearchIndex()
        #expect(try SearchIndexTests.readiness(store) == (false, false))
        #expect(try store.auditPages() == nil)
        #expect(try SearchIndexTests.answers(store, path: nil) == before)
        #expect(try !store.rebuild().rewroteScanList)
        #expect(try SearchIndexTests.readiness(store) == (true, true))
        #expect(try SearchIndexTests.answers(store, path: .index) == before)
    }

    /// The first 50 matches and the total of a few needles, found by `path` (nil: as a query finds them).
    static func answers(_ store: Store, path: HistoryQuery.Path?) throws -> [JSONValue] {
        try ["e", "ser", "zzq", "hologram", "s-1", "é"].map { needle in
            var q = HistoryQuery(); q.search = needle; q.limit = 50
            return try store.query(asOf: nil, now: Ev.time("2026-11-20T18:00:00Z"), fallbackNow: { Ev.time("2026-11-20T18:00:00Z") }) { context in
                try q.answer(context, viewer: nil, path: path)
            }
        }
    }
}

extension SearchIndexTests {
    /// A text's grams made for the held sets (`ChunkPostings`) and for a message merged late
    /// (`SearchIndex.grams`) are the same: every byte, every trigram, and a run of four digits exactly where
    /// four digits follow one another in a field (`1777` in `s-1777042`, none across the 0 between fields).
    @Test func aTextsGramsAreTheSameHeldOrMergedLate() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-as é".utf8)
        var texts = ["s-1777042", "lot 0042 and 12345", "a1b2c3d4", "é1234é", "12\u{0}34", "9999", "123", ""].map { Array($0.utf8) }
        for _ in 0..<200 { texts.append((0..<Int.random(in: 1...30, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }) }
        for text in texts {
            for flag in [0, SearchIndex.messageFlag] {
                let postings = ChunkPostings()
                postings.reset(chunk: 0, fresh: true)
                text.withUnsafeBytes { postings.add(7, text: $0, flag: flag) }
                let held = Set(postings.slotKeys.compactMap { key -> UInt32? in if case .gram(let gram) = key { gram } else { nil } })
                let late = SearchIndex.grams(of: text, flag: flag)
                #expect(Set(late) == held && late.count == held.count, "\(text)")
                var digits: Set<UInt32> = []
                for i in text.indices.dropLast(3) where text[i..<(i + 4)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    let d = text[i..<(i + 4)].reduce(UInt32(0)) { $0 << 4 | UInt32($1 - 0x30) }
                    digits.insert(UInt32(SearchIndex.digits | flag) << 24 | d)
                }
                #expect(held.filter { $0 >> 24 == UInt32(SearchIndex.digits | flag) } == digits, "\(text)")
            }
        }
    }

    /// A set's stored form (`ChunkBits.container`: gaps while shorter than the bits) reads back as the set,
    /// for sets of every density, and any bytes read as a set stay inside the chunk without a crash.
    @Test func aSetsStoredFormReadsBackAndDamageStaysInside() {
        var rng = SystemRandomNumberGenerator()
        for members in [1, 2, 100, 1_000, 1_999, 2_000, 2_001, 5_000, 15_999, 16_000] {
            var set = ChunkBits()
            var offsets = Set<Int>()
            while offsets.count < members { offsets.insert(Int.random(in: 0..<ChunkBits.scansPerChunk, using: &rng)) }
            if members == 2 { offsets = [0, ChunkBits.scansPerChunk - 1] }
            for o in offsets { set.insert(o) }
            let stored = set.container()
            #expect(stored.count <= ChunkBits.bitmapBytes)
            #expect(stored.withUnsafeBytes { ChunkBits.isContainer($0) })
            let read = stored.withUnsafeBytes { ChunkBits(container: $0) }
            #expect(read.words == set.words, "\(members) members")
            // The same members as a sorted list with repeats (`container(sortedMembers:)`).
            let listed = ChunkBits.container(sortedMembers: (Array(offsets) + offsets.prefix(3)).sorted())
            #expect(listed.count <= ChunkBits.bitmapBytes && listed.withUnsafeBytes { ChunkBits.isContainer($0) })
            #expect(listed.withUnsafeBytes { ChunkBits(container: $0) }.words == set.words, "\(members) members listed")
        }
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...2_100, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let read = bytes.withUnsafeBytes { ChunkBits(container: $0) }
            #expect(read.words.count == ChunkBits.words)
        }
    }
}

extension SearchIndexTests {
    /// Flips one bit of the stored value at `key` of `table` (the first set of a chunk holding `gram`'s key).
    static func flipBit(_ store: Store, _ table: ModelTable, _ key: [UInt8], byte: Int) throws {
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            var value = try #require(try tables.withValue(table, key) { $0.map(Array.init) })
            value[byte % value.count] ^= 0x10
            try tables.put(table, key, value)
        }
    }

    /// A flipped bit in a set (a bitmap's, an array's) reads as another set: `log verify`'s audit finds it by
    /// the set's check and sends the user to `rebuild`, which makes the set again; the answers are then the
    /// rows' again.
    @Test func verifyFindsAFlippedBitOfASetAndRebuildMendsIt() throws {
        var rng = SystemRandomNumberGenerator()
        let (store, directory) = try SearchIndexTests.store(SearchIndexTests.log(scans: 1_200, rng: &rng))
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try store.auditPages() == nil)
        let e = SearchIndex.key(gram: SearchIndex.gram(SearchIndex.unigram, UInt8(ascii: "e"), 0, 0), chunk: 0)
        let ser = SearchIndex.key(gram: SearchIndex.gram(SearchIndex.trigram, UInt8(ascii: "s"), UInt8(ascii: "e"), UInt8(ascii: "r")), chunk: 0)
        let second = try ChunkValuesTests.numbers(store, chunk: 0)[1]
        for (key, byte) in [(e, 100), (ser, 3), (SearchIndex.pieceListKey(chunk: 0), 9), (SearchIndex.pieceMembersKey(chunk: 0, number: second), 2),
                            (PieceVocabulary.blockKey(0), 12), (PieceVocabulary.countKey, 1), (SearchIndex.reportSeqsKey(chunk: 0), 1)] {
            try SearchIndexTests.flipBit(store, .search, key, byte: byte)
            let damage = try #require(try store.auditPages())
            #expect(damage.rebuildRepairs, "\(damage)")
            #expect(damage.damage.map(\.database) == [ModelTable.search.name])
            #expect("\(damage)".contains("veritrail rebuild"))
            try store.rebuild()
            #expect(try store.auditPages() == nil)
            for needle in ["e", "ser", "se", "https://v.ex", "hologram st"] {
                var q = HistoryQuery(); q.search = needle; q.limit = 2_000
                try SearchIndexTests.expectSame(store, q, asOf: nil)
            }
        }
    }
}

/// An answer as of a point starts from the last snapshot of the small models before it (`Models.snapshotIfDue`)
/// and replays the rest: every projection must be what a replay from the first event gives, at random
/// points by seq and by time, for snapshots taken by the writes and by a rebuild.
@Suite struct SnapshotReplayTests {
    /// Every projection of `replay`, and the history with a search, from `store` as of `asOf`.
    static func answers(_ store: Store, asOf: AsOf, fromSnapshot: Bool) throws -> [JSONValue] {
        try store.read { reader, stored in
            let head = try reader.head()
            var through = head.seq, notAfter: Timestamp?
            var now = Ev.time("2026-11-20T18:00:00Z")
            switch asOf {
            case .seq(let n): through = min(n, head.seq); if through > 0, let at = try reader.storedAt(at: through) { now = at }
            case .time(let t): notAfter = t; now = t
            }
            let (models, last) = try store.replay(reader, over: stored, through: through, notAfter: notAfter, fromSnapshot: fromSnapshot)
            let context = QueryContext(models: models, now: now, lastSeq: last?.seq ?? 0, lastAt: last?.at)
            var history = HistoryQuery()
            history.search = "e"
            history.limit = 1000
            return [try replay(context), try history.answer(context, viewer: nil), try stats(by: nil, context), try lockout(nil, context)]
        }
    }

    @Test func everyProjectionAsOfAPointIsTheFullReplays() throws {
        let lines = try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/VeritrailTests/SearchIndexTests.swift", with: "Events/demo.ndjson"),
                               encoding: .utf8).split(separator: "\n").map(String.init)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = try lines.map(Ev.decoded)
        _ = try Store.create(directory: directory.path) { appender in
            for e in events.prefix(400) { _ = try appender.append(e) }
        }
        let store = try Store(directory: directory.path)
        store.snapshotInterval = 37
        // Snapshots from single writes, then from a rebuild of the whole log.
        for e in events.dropFirst(400) { try store.write { appender in _ = try appender.append(e) } }
        var rng = SystemRandomNumberGenerator()
        let first = Ev.time("2026-09-01T07:00:00Z").microseconds, last = Ev.time("2026-11-20T18:00:00Z").microseconds
        func points() -> [AsOf] {
            (0..<25).map { i in
                i % 2 == 0 ? .seq(UInt64.random(in: 0...UInt64(lines.count + 3), using: &rng))
                           : .time(Timestamp(microseconds: Int64.random(in: first...last, using: &rng)))
            } + [.seq(37), .seq(74), .seq(75), .seq(401)]
        }
        for asOf in points() {
            #expect(try SnapshotReplayTests.answers(store, asOf: asOf, fromSnapshot: true)
                    == SnapshotReplayTests.answers(store, asOf: asOf, fromSnapshot: false), "as of \(asOf)")
        }
        try store.rebuild()
        let snapshots = try store.read { _, models in try models.lastSnapshot(atOrBefore: .max) }
        #expect(try store.auditPages() == nil)
        #expect(snapshots == UInt64(lines.count / 37 * 37))
        for asOf in points() {
            #expect(try SnapshotReplayTests.answers(store, asOf: asOf, fromSnapshot: true)
                    == SnapshotReplayTests.answers(store, asOf: asOf, fromSnapshot: false), "as of \(asOf)")
        }
    }
}

extension SnapshotReplayTests {
    /// A flipped bit of a snapshot: `log verify`'s audit finds it by its check and sends the user to
    /// `rebuild`; an answer as of a point after it refuses to start from it rather than answer wrongly; the
    /// rebuild writes it again.
    @Test func aFlippedSnapshotIsFoundAndMended() throws {
        let lines = try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/VeritrailTests/SearchIndexTests.swift", with: "Events/demo.ndjson"),
                               encoding: .utf8).split(separator: "\n").map(String.init)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = try lines.map(Ev.decoded)
        _ = try Store.create(directory: directory.path) { appender in _ = try appender.append(events[0]) }
        let store = try Store(directory: directory.path)
        store.snapshotInterval = 50
        try store.write { appender in for e in events.dropFirst() { _ = try appender.append(e) } }
        #expect(try store.auditPages() == nil)
        try SearchIndexTests.flipBit(store, .snapshots, UInt64(100).bigEndianBytes, byte: 77)
        let damage = try #require(try store.auditPages())
        #expect(damage.rebuildRepairs, "\(damage)")
        #expect(damage.damage.map(\.database) == [ModelTable.snapshots.name])
        #expect(throws: (any Error).self) { try SnapshotReplayTests.answers(store, asOf: .seq(120), fromSnapshot: true) }
        try store.rebuild()
        #expect(try store.auditPages() == nil)
        #expect(try SnapshotReplayTests.answers(store, asOf: .seq(120), fromSnapshot: true)
                == SnapshotReplayTests.answers(store, asOf: .seq(120), fromSnapshot: false))
    }
}

/// The pieces of text many scans of a chunk share (`ChunkValues`): which are listed, and that a chunk written
/// in two writes merges the second's pieces into the first's and still answers as reading every row does.
@Suite struct ChunkValuesTests {
    static func listed(_ fields: [(offset: Int, text: String, source: UInt8)]) -> [String: [Int]] {
        var values = ChunkValues()
        for field in fields {
            Array(field.text.utf8).withUnsafeBytes { values.add(field.offset, text: $0, source: field.source) }
        }
        var listed: [String: [Int]] = [:]
        for piece in values.listed() {
            var members: [Int] = []
            piece.members.forEachDescending { members.insert($0, at: 0); return true }
            listed[(piece.source == ChunkValues.message ? "message:" : "") + String(decoding: piece.bytes, as: UTF8.self)] = members
        }
        return listed
    }

    @Test func aFieldIsListedUnderItsLongestPieceThatEnoughFieldsHave() {
        let t = ChunkValues.threshold
        var fields: [(offset: Int, text: String, source: UInt8)] = []
        // Codes with a shared head and a unique tail: listed under the longest prefix ending with a
        // delimiter that they share (the 32-byte prefix holds the tail).
        for i in 0..<t { fields.append((i, "https://verify.example/c/\(1_000_000 + i)\u{0}rolex submariner\u{0}", ChunkValues.own)) }
        // A name one field short of the threshold, whole and by its prefixes: not listed.
        for i in 0..<(t - 1) { fields.append((100 + i, "omega seamaster", ChunkValues.own)) }
        // The same text as a message is a piece of its own source.
        for i in 0..<t { fields.append((200 + i, "rolex submariner", ChunkValues.message)) }
        // A message needs fewer: `messageThreshold` of them.
        for i in 0..<ChunkValues.messageThreshold { fields.append((400 + i, "no receipt", ChunkValues.message)) }
        for i in 0..<(ChunkValues.messageThreshold - 1) { fields.append((500 + i, "sticker over qr", ChunkValues.message)) }
        // Fields shorter than a needle looked for in pieces: never pieces.
        for i in 0..<(2 * t) { fields.append((300 + i, "abc", ChunkValues.own)) }
        let listed = ChunkValuesTests.listed(fields)
        #expect(Set(listed.keys) == ["https://verify.example/c/", "rolex submariner", "message:rolex submariner", "message:no receipt"])
        #expect(listed["https://verify.example/c/"] == Array(0..<t))
        #expect(listed["rolex submariner"] == Array(0..<t))
        #expect(listed["message:rolex submariner"] == Array(200..<(200 + t)))
    }

    /// A piece's set holds those of the pieces that start with it, and a prefix that many fields have above
    /// two listed pieces is listed as their branch point, the longest one.
    @Test func aPiecesSetHoldsThePiecesBelowIt() {
        let t = ChunkValues.threshold
        var fields: [(offset: Int, text: String, source: UInt8)] = []
        for i in 0..<t { fields.append((i, "marco.rossi012", ChunkValues.own)) }
        for i in 0..<t { fields.append((100 + i, "marco.silva112", ChunkValues.own)) }
        for i in 0..<3 { fields.append((200 + i, "marco.brown00\(i)", ChunkValues.own)) }
        for i in 0..<t { fields.append((300 + i, "https://v.ex/c/aaaa-\(i)", ChunkValues.own)) }
        for i in 0..<t { fields.append((400 + i, "https://v.ex/c/bbbb-\(i)", ChunkValues.own)) }
        let listed = ChunkValuesTests.listed(fields)
        #expect(Set(listed.keys) == ["marco.", "marco.rossi012", "marco.silva112", "https://v.ex/c/", "https://v.ex/c/aaaa-", "https://v.ex/c/bbbb-"])
        #expect(listed["marco."] == Array(0..<t) + Array(100..<(100 + t)) + [200, 201, 202])
        #expect(listed["marco.rossi012"] == Array(0..<t))
        #expect(listed["https://v.ex/c/"] == Array(300..<(300 + t)) + Array(400..<(400 + t)))
        #expect(listed["https://v.ex/c/bbbb-"] == Array(400..<(400 + t)))
    }

    /// What follows a unique part of a field is listed by its tails, the text from each delimiter past the
    /// shared head: a parameter many codes have, and the first digits of its value, each of 4 to 8 bytes.
    @Test func aTailAfterTheSharedHeadIsListed() {
        let t = ChunkValues.tailThreshold
        var fields: [(offset: Int, text: String, source: UInt8)] = []
        // 9 × t codes: one head, a unique part, then `lot=` and five digits, the first of them in nine
        // values (t scans each), the others apart.
        for i in 0..<(9 * t) {
            let unique = String(0x1000_0000 + (i &* 0x9E37_79B1) % 0xE000_0000, radix: 16)
            fields.append((i, "https://v.ex/c/rolx-\(unique)?lot=\((i / t + 1) * 10_000 + 137 * (i % t))", ChunkValues.own))
        }
        // A message's tails are message pieces; a tail fewer fields have than `tailThreshold` is not listed.
        for i in 0..<t { fields.append((1_000 + i, "seized \(1_000 + 7 * i)?case=b", ChunkValues.message)) }
        for i in 0..<(t - 1) { fields.append((2_000 + i, "seized \(1_000 + 7 * i)?file=c", ChunkValues.message)) }
        let listed = ChunkValuesTests.listed(fields)
        #expect(listed["https://v.ex/c/rolx-"] == Array(0..<(9 * t)))
        #expect(listed["?lot="] == Array(0..<(9 * t)))
        for first in 1...9 {
            #expect(listed["?lot=\(first)"] == Array(((first - 1) * t)..<(first * t)), "?lot=\(first)")
        }
        #expect(listed["message:?case=b"] == Array(1_000..<(1_000 + t)))
        #expect(listed["message:?file=c"] == nil)
        // No tail of the shared head.
        #expect(!listed.keys.contains { $0.hasPrefix("v.ex") || $0.hasPrefix("c/") || $0.hasPrefix("/") }, "\(listed.keys.sorted())")
    }

    /// A field's first tail begins at its head's last delimiter: the inspectors listed by name and the
    /// customers listed under a head (`ines.rossi`, their name before its number) share `.rossi0`, which
    /// proves `rossi` and `.rossi` too.
    @Test func aValueListedWholeSharesItsTailWithTheFieldsPastAHead() {
        let t = ChunkValues.tailThreshold, h = ChunkValues.threshold
        var fields: [(offset: Int, text: String, source: UInt8)] = []
        for i in 0..<t { fields.append((i, "quentin.rossi066", ChunkValues.own)) }
        // Customers: their names too rare to be listed whole, their `ines.rossi` head shared by `h` of them.
        for i in 0..<h { fields.append((t + i, "ines.rossi0\(10 + i)", ChunkValues.own)) }
        // A name listed whole whose tail too few have.
        for i in 0..<h { fields.append((t + h + i, "zoe.silva024", ChunkValues.own)) }
        let listed = ChunkValuesTests.listed(fields)
        #expect(listed["quentin.rossi066"] == Array(0..<t))
        #expect(listed["ines.rossi"] == Array(t..<(t + h)))
        #expect(listed[".rossi0"] == Array(0..<(t + h)), "\(listed.keys.sorted())")
        #expect(listed[".silva024"] == nil && listed["zoe.silva024"] == Array((t + h)..<(t + 2 * h)))
    }

    /// A field or tail that is a name and a number has its name as a piece too when that is longer than 8
    /// bytes and holds no digit: `oscar.lopez` (customers too rare to be listed whole, `h` of them), and the
    /// tail `.lindqvist`; a code's random part, with a digit before its end, gains none past 8 bytes.
    @Test func aNameBeforeItsNumberIsAPiece() {
        let t = ChunkValues.tailThreshold, h = ChunkValues.threshold
        var fields: [(offset: Int, text: String, source: UInt8)] = []
        for i in 0..<t { fields.append((i, "nora.lindqvist\(100 + i)", ChunkValues.own)) }
        for i in 0..<h { fields.append((t + i, "oscar.lopez1\(10 + i)", ChunkValues.own)) }
        let hex = Array("0123456789abcdef")
        for i in 0..<t {
            let random = String((0..<12).map { _ in hex.randomElement()! })
            fields.append((t + h + i, "https://v.ex/c/aaaa-a\(i % 10)" + random + "7", ChunkValues.own))
        }
        let listed = ChunkValuesTests.listed(fields)
        #expect(listed["nora.lindqvist"] == Array(0..<t), "\(listed.keys.sorted())")
        #expect(listed["oscar.lopez"] == Array(t..<(t + h)), "\(listed.keys.sorted())")
        #expect(listed[".lindqvist"] == Array(0..<t) && listed[".lindqvist1"] == nil)
        #expect(!listed.keys.contains { $0.hasPrefix("-a") && $0.count > 8 }, "\(listed.keys.sorted())")
        #expect(!listed.keys.contains { $0.hasPrefix("https://v.ex/c/aaaa-a") && $0.count > 22 }, "\(listed.keys.sorted())")
    }

    /// A set for each trigram of the listed heads (and none other): the scans that have it past a head, a
    /// code's unique part, a field no piece lists; not a field that is its head whole, nor a message.
    @Test func theTrigramsPastTheHeadsAreKeptForTheHeadsTrigrams() {
        let t = ChunkValues.threshold
        var values = ChunkValues()
        func add(_ offset: Int, _ text: String, _ source: UInt8 = ChunkValues.own) {
            Array(text.utf8).withUnsafeBytes { values.add(offset, text: $0, source: source) }
        }
        // Scans 0..<t: a listed product and a code with a listed head; scan 3's unique part holds `rco`,
        // scan 5's `duc`.
        for i in 0..<t {
            let unique = i == 3 ? "xrcox" : i == 5 ? "zduct" : "q\(1_000 + 37 * i)"
            add(i, "powercore 20000\u{0}https://v.ex/c/pw-\(unique)")
        }
        // Scan 100: a field no piece lists, whole past its (empty) head; scan 101: a message.
        add(100, "marcopolo")
        add(101, "marco", ChunkValues.message)
        _ = values.listed()
        guard let sets = values.uncovered() else { Issue.record("no sets past the heads"); return }
        let covered = sets.map(\.gram)
        func gram(_ s: String) -> UInt32 { let b = Array(s.utf8); return UInt32(b[0]) << 16 | UInt32(b[1]) << 8 | UInt32(b[2]) }
        #expect(covered == covered.sorted() && Set(covered).count == covered.count)
        for head in ["pow", "rco", "000", "htt", "/pw", "pw-"] { #expect(covered.contains(gram(head)), "\(head)") }
        #expect(!covered.contains(gram("xrc")) && !covered.contains(gram("mar")))
        func members(_ s: String) -> [Int] {
            guard let set = sets.first(where: { $0.gram == gram(s) }) else { return [] }
            var out: [Int] = []
            set.members.forEachDescending { out.insert($0, at: 0); return true }
            return out
        }
        // `rco` past a head: scan 3's code and scan 100's field; not the product's (a head), nor the message.
        #expect(members("rco") == [3, 100])
        // The head's last trigrams reach past it only where the unique part starts (`pw-` then a byte).
        #expect(members("pw-") == [])
        #expect(members("pow") == [])
    }

    /// The scans of a listed head's fields are kept by the byte after the head (`ChunkValues.headNext`): not
    /// a field listed whole (nothing after its head), nor a report's message.
    @Test func aHeadsScansAreKeptByTheByteAfterIt() {
        let t = ChunkValues.threshold
        var values = ChunkValues()
        func add(_ offset: Int, _ text: String, _ source: UInt8 = ChunkValues.own) {
            Array(text.utf8).withUnsafeBytes { values.add(offset, text: $0, source: source) }
        }
        // Unique parts that end with a letter, so that no name before a number is a piece (`addPrefixes`).
        for i in 0..<(2 * t) { add(i, "powercore 20000\u{0}https://v.ex/c/pw-\(i % 2 == 0 ? "a" : "b")\(1_000 + 37 * i)q") }
        add(100, "https://v.ex/c/pw-a77", ChunkValues.message)
        _ = values.listed()
        guard let sets = values.headNext() else { Issue.record("no sets of the heads' next bytes"); return }
        var found: [String: [Int]] = [:]
        for set in sets {
            let members = set.members.withUnsafeBytes { ChunkBits(container: $0) }
            found[String(decoding: set.head, as: UTF8.self) + "|" + String(UnicodeScalar(set.byte))] = (0..<ChunkBits.scansPerChunk).filter { members.contains($0) }
        }
        #expect(found == ["https://v.ex/c/pw-|a": Array(stride(from: 0, to: 2 * t, by: 2)),
                          "https://v.ex/c/pw-|b": Array(stride(from: 1, to: 2 * t, by: 2))])
    }

    /// A needle that runs one byte past a code's shared head (`/pw-a`) has its matches proven by the head's set
    /// of that byte, stored for the chunk; a scan that holds it further on (past its head) is still found, and
    /// the index answers as reading every row does, live and as of a point.
    @Test func aNeedleOneBytePastAHeadIsProvenByTheHeadsSet() throws {
        let hex = Array("0123456789abcdef")
        let lines = ChunkValuesTests.codeScans(96) { n in "https://v.example/c/pw-" + (n == 50 ? "9x/pw-a1q" : "\(hex[n % 16])\(7_919 * n)q") }
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let number = try store.log.environment.read { txn in
            try PieceVocabulary().number(of: ChunkValues.own, Array("https://v.example/c/pw-".utf8),
                                         in: StoredTables(transaction: txn, databases: store.modelDatabases))
        }
        // Scan `n` is the chunk's scan `n + 1` (ordinals start at 1).
        #expect(try ChunkValuesTests.members(store, key: SearchIndex.headNextKey(chunk: 0, number: number, byte: UInt8(ascii: "a")))
                == Array(stride(from: 11, to: 97, by: 16)))
        #expect(try store.auditPages() == nil)
        for needle in ["/pw-a", "PW-A", "c/pw-f", "w-a", "/pw-a1", "e/c/pw-9", "/pw-ax", "x/pw-a"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 200
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            try SearchIndexTests.expectSame(store, q, asOf: .seq(40))
        }
    }

    /// The scans of a listed head's fields are kept by the byte after the head with the two after that
    /// (`ChunkValues.headFollowing`, a set per head's last byte and the two bytes after the head): not a field
    /// that ends at that byte, nor a report's message; one that ends a byte later with a 0 for the missing one;
    /// a scan with two such fields, an entry each.
    @Test func aHeadsScansAreKeptWithTheBytesAfterItsNextOne() {
        let t = ChunkValues.threshold
        var values = ChunkValues()
        func add(_ offset: Int, _ text: String, _ source: UInt8 = ChunkValues.own) {
            Array(text.utf8).withUnsafeBytes { values.add(offset, text: $0, source: source) }
        }
        for i in 0..<(2 * t) {
            let rest = i == 0 ? "" : i == 1 ? "7" : "\(i % 3)\(i % 5)q"
            let notes = i == 0 ? "\u{0}https://v.ex/c/pw-a9" : i == 2 ? "\u{0}https://v.ex/c/pw-a9x" : ""
            add(i, "powercore 20000\u{0}https://v.ex/c/pw-\(i % 2 == 0 ? "a" : "b")\(rest)" + notes)
        }
        add(100, "https://v.ex/c/pw-a77", ChunkValues.message)
        _ = values.listed()
        guard let made = values.headFollowing() else { Issue.record("no sets of the heads' next bytes"); return }
        var found: [String: [String]] = [:]
        for set in made.sets {
            #expect(set.entries.map(\.offset) == set.entries.map(\.offset).sorted())
            for entry in set.entries {
                let head = made.heads[entry.head]
                #expect(head.last == set.last)
                found[String(decoding: head, as: UTF8.self) + "|" + String(UnicodeScalar(set.byte)), default: []]
                    .append("\(entry.offset):\(String(UnicodeScalar(set.next)))\(entry.third == 0 ? "-" : String(UnicodeScalar(entry.third)))")
            }
        }
        for key in found.keys {
            found[key]!.sort { ($0.split(separator: ":").first.map { Int($0)! } ?? 0, $0) < ($1.split(separator: ":").first.map { Int($0)! } ?? 0, $1) }
        }
        // Scan 0's code ends at its next byte (its notes' `a9` is kept), scan 1's a byte later; scan 2's notes
        // under the same head and byte give a second entry after its code's.
        #expect(found == ["https://v.ex/c/pw-|a": ["0:9-", "2:22", "2:9x"] + stride(from: 4, to: 2 * t, by: 2).map { "\($0):\($0 % 3)\($0 % 5)" },
                          "https://v.ex/c/pw-|b": ["1:7-"] + stride(from: 3, to: 2 * t, by: 2).map { "\($0):\($0 % 3)\($0 % 5)" }])
    }

    /// A needle that runs two or three bytes past a code's shared head (`pw-a1`, `-a12`) has its matches proven
    /// by the head's entries of its next byte, stored for the chunk (`HeadProofs`), a scan's second field under
    /// the head too: not those of a scan that holds it further on, which are still found; the index answers
    /// as reading every row does, live and as of a point.
    @Test func aNeedleTwoOrThreeBytesPastAHeadIsProvenByTheHeadsEntries() throws {
        let hex = Array("0123456789abcdef")
        func code(_ n: Int) -> String {
            switch n {
            case 50: "https://v.example/c/pw-9x/pw-a1q"
            case 60: "https://v.example/c/pw-c"
            case 61: "https://v.example/c/pw-d3"
            default: "https://v.example/c/pw-\(hex[n % 16])\(hex[n / 16 % 6])\(7_919 * n)q"
            }
        }
        // Scan 30's notes are under the code's head too, with the same next byte as its code (`e1…`, `e9z`).
        // Scan 61's hold every trigram of `pw-d3x` but not the needle.
        let notes = [30: "https://v.example/c/pw-e9zz", 61: "ref d3x"]
        let at = ChunkValuesTests.tenSecondClock()
        let lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T08:01:00Z")]
            + (0..<96).map { n in
                Ev.scan("s-\(n)", by: "ines", at: at(), code: code(n), productName: "Powercore", category: "Electronics",
                        result: "authentic", mode: "single", extra: notes[n].map { #","notes":"\#($0)""# } ?? "")
            }
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Scan `n` is the chunk's scan `n + 1`.
        func holding(_ piece: String, except: Set<Int> = [50]) -> [Int] {
            (0..<96).filter { code($0).dropFirst("https://v.example/c/pw-".count).hasPrefix(piece) && !except.contains($0) }.map { $0 + 1 }
        }
        #expect(try ChunkValuesTests.headProven(store, "/pw-a1") == [27])
        #expect(try ChunkValuesTests.headProven(store, "w-a1") == holding("a1"))
        #expect(try ChunkValuesTests.headProven(store, "-e1") == [])
        #expect(try ChunkValuesTests.headProven(store, "c/pw-e1") == holding("e1"))
        #expect(try ChunkValuesTests.headProven(store, "pw-e9z") == [31])
        let threePast = "pw-" + String(code(42).dropFirst("https://v.example/c/pw-".count).prefix(3))
        #expect(try ChunkValuesTests.headProven(store, threePast) == holding(String(threePast.dropFirst(3))))
        #expect(try ChunkValuesTests.headProven(store, "w-d3") == [62])
        #expect(try ChunkValuesTests.headProven(store, "pw-d3x") == [])
        #expect(try ChunkValuesTests.headProven(store, "pw-a12x") == [])
        #expect(try store.auditPages() == nil)
        for needle in ["/pw-a1", "PW-A1", "w-a1", "-a1q", "c/pw-e1", "pw-e9z", "pw-e9", threePast, "w-d3", "pw-c", "pw-d3x", "pw-a12x"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 200
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            try SearchIndexTests.expectSame(store, q, asOf: .seq(40))
        }
    }

    /// A candidate whose needle's start is not past a head (`s-28283` for `s-283`: `-28` ends its head `s-28`,
    /// `283` is past it) is no match once every match across a head's end is proven
    /// (`IndexedSearch.startsPastHeads`), while the matches of every other place are still found: across a
    /// head's end by one to three bytes (proven) or by four, wholly past a head, in a field that no head holds,
    /// in a report's message; the index answers as reading every row does, live and as of a point.
    @Test func candidatesWhoseNeedleDoesNotStartPastAHeadAreNoMatches() throws {
        let hex = Array("0123456789abcdef")
        // Scan ids under the head `s-28`; codes under `…/c/pw-`, four with `2831` just past it (more candidates
        // a chunk than `IndexedSearch.fewLeft`, so that the sets are asked rather than the rows read).
        func id(_ n: Int) -> String { [5: "s-28283", 6: "s-28312", 7: "s-28300"][n] ?? "s-28\(100 + n)" }
        func code(_ n: Int) -> String {
            "https://v.example/c/pw-" + ([10: "283aq", 11: "9-283q", 12: "2831q", 13: "x2831q", 14: "2831r", 15: "2831s", 16: "2831t"][n] ?? "\(hex[n % 16])\(7_919 * n)q")
        }
        let at = ChunkValuesTests.tenSecondClock()
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T08:01:00Z")]
        for n in 0..<120 {
            lines.append(Ev.scan(id(n), by: "ines", at: at(), code: code(n), productName: "Powercore", category: "Electronics",
                                 result: "counterfeit", mode: "single", extra: n == 20 ? #","notes":"ref -2831 x""# : ""))
        }
        lines.append(Ev.report(id(30), reason: "packaging", by: "ines", at: at(), extra: #","message":"lot -2831 bad""#))
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try store.auditPages() == nil)
        for needle in ["s-283", "-283", "w-283", "w-2831", "/pw-2831", "c/pw-2831", "pw-283a", "pw-28", "/pw-283", "c/pw-2", "s-2831",
                       "-2831", "8283", "s-28283", "-28312"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 200
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            try SearchIndexTests.expectSame(store, q, asOf: .seq(60))
        }
    }

    /// A needle that starts one or two bytes before a code's tail (`f?lo`, `29?lo`, from its random part into
    /// its lot) has its matches proven by the sets of what comes before the tails, stored for the chunk; the
    /// index answers as reading every row does, live and as of a point, for those and for needles the sets
    /// do not prove (more than four of the tail after two).
    @Test func aNeedleFromJustBeforeATailIsProvenByTheTailsSets() throws {
        let hex = Array("0123456789abcdef")
        // 200 codes: their tails `?lot=1…` all listed under `?lot=1` (`tailThreshold` is 64), the byte before
        // a hex digit that cycles, the two before a pair that repeats every 40 scans.
        let lines = ChunkValuesTests.codeScans(200) { n in
            "https://v.example/c/pw-\(7_919 * n)\(hex[n % 40 / 16])\(hex[n % 16])?lot=1\(1_000 + 37 * n)"
        }
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        func stored(_ key: [UInt8]) throws -> [Int] { try ChunkValuesTests.members(store, key: SearchIndex.groupBytes(0) + key + [0]) }
        // Scan `n` is the chunk's scan `n + 1`.
        #expect(try stored([SearchIndex.tailAfterByte] + Array("f?lot=1".utf8)) == (0..<200).filter { $0 % 16 == 15 }.map { $0 + 1 })
        #expect(try stored([SearchIndex.tailAfterTwo] + Array("2a?lot".utf8)) == (0..<200).filter { hex[$0 % 40 / 16] == "2" && hex[$0 % 16] == "a" }.map { $0 + 1 })
        // What a query takes from them (`TailProofs`): every match of a needle of either shape, none of one
        // that no tail's piece starts (the sets are not even looked for).
        #expect(try ChunkValuesTests.tailProven(store, "f?lo") == (0..<200).filter { $0 % 16 == 15 }.map { $0 + 1 })
        #expect(try ChunkValuesTests.tailProven(store, "2a?l") == (0..<200).filter { hex[$0 % 40 / 16] == "2" && hex[$0 % 16] == "a" }.map { $0 + 1 })
        #expect(try ChunkValuesTests.tailProven(store, "f?lx") == [])
        #expect(try store.auditPages() == nil)
        for needle in ["f?lo", "F?LOT=1", "9?lot", "a?lot=1", "2a?l", "2a?lo", "2a?lot", "12a?lot", "2a?lot=1", "?lot=1", "c?l", "f?lot=11"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 300
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            try SearchIndexTests.expectSame(store, q, asOf: .seq(90))
        }
    }

    /// A needle of two bytes before a tail and more than four of it (`29?lot=1`) is proven by the sets of both
    /// kinds together, for the scans whose tails start unlike (`tailsRepeated`): not for a scan with a second
    /// tail like its code's (in its notes), where the two sets may be of different tails.
    @Test func aNeedleFromTwoBytesBeforeATailIntoItIsProvenByBothSetsTogether() throws {
        let hex = Array("0123456789abcdef")
        // 200 codes, the two bytes before their lots a pair that repeats every 40 scans (`29`: scans 73 and
        // 153), their lots `?lot=1…` listed under `?lot=1`, but scan 73's `?lot=2…`. Every scan has notes under
        // the head `ref/`; those of every 25th and of scan 73 have a lot too (`x9?lot=1…` for scan 73), so
        // scan 73 is in both sets of `29?lot=1`, from two tails, and holds no `29?lot=1`.
        func code(_ n: Int) -> String {
            "https://v.example/c/pw-\(7_919 * n)\(hex[n % 40 / 16])\(hex[n % 16])?lot=\(n == 73 ? 2 : 1)\(n % 10)\(1_000 + 37 * n)"
        }
        let lotNotes = Set((0..<200).filter { $0 % 25 == 0 } + [73])
        let at = ChunkValuesTests.tenSecondClock()
        let lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T08:01:00Z")]
            + (0..<200).map { n in
                let notes = lotNotes.contains(n) ? "ref/\(n)x\(n == 73 ? "9" : "q")?lot=1\(n)" : "ref/\(n)"
                return Ev.scan("s-\(n)", by: "ines", at: at(), code: code(n), productName: "Powercore", category: "Electronics",
                               result: "authentic", mode: "single", extra: #","notes":"\#(notes)""#)
            }
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Scan `n` is the chunk's scan `n + 1`.
        let repeated = lotNotes.sorted().map { $0 + 1 }
        #expect(try ChunkValuesTests.members(store, key: SearchIndex.groupBytes(0) + [SearchIndex.tailsRepeated, 0]) == repeated)
        // Every match in its code, but a scan's with repeated tails; the piece `?lot=1` is past the needle's
        // tail part only for the first two.
        #expect(try ChunkValuesTests.tailProven(store, "2a?lot=") == [75, 155])
        #expect(try ChunkValuesTests.tailProven(store, "29?lot=1") == [154])
        #expect(try ChunkValuesTests.tailProven(store, "28?lot=1") == (0..<200).filter { code($0).contains("28?lot=1") && !lotNotes.contains($0) }.map { $0 + 1 })
        #expect(try ChunkValuesTests.tailProven(store, "2a?lot=14") == [])
        #expect(try store.auditPages() == nil)
        for needle in ["2a?lot=", "29?lot=1", "28?lot=1", "2a?lot=14", "9?lot=1", "x9?lot=1", "29?lot=2", "00?lot=10"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 300
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            try SearchIndexTests.expectSame(store, q, asOf: .seq(90))
        }
    }

    /// A needle that starts three bytes before a code's tail (`829?lo`) has its matches proven by the sets of
    /// the three bytes before the tails; the index answers as reading every row does, live and as of a point,
    /// for those and for needles the sets do not prove (more of the tail, or a fourth byte before it).
    @Test func aNeedleFromThreeBytesBeforeATailIsProvenByItsSets() throws {
        let hex = Array("0123456789abcdef")
        // 200 codes: the three bytes before their lots (`?lot=1…`, listed under `?lot`) a digit that cycles
        // every 3 scans, then the pair of the test above, which repeats every 40.
        func code(_ n: Int) -> String {
            "https://v.example/c/pw-\(7_919 * n)\(hex[n % 3])\(hex[n % 40 / 16])\(hex[n % 16])?lot=1\(1_000 + 37 * n)"
        }
        let lines = ChunkValuesTests.codeScans(200, code: code)
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Scan `n` is the chunk's scan `n + 1`.
        func holding(_ needle: String) -> [Int] { (0..<200).filter { code($0).contains(needle) }.map { $0 + 1 } }
        let stored = try ChunkValuesTests.members(store, key: SearchIndex.groupBytes(0) + [SearchIndex.tailAfterThree] + Array("015?lot".utf8) + [0])
        #expect(stored == holding("015?lot") && !stored.isEmpty, "\(stored)")
        // What a query takes from them (`TailProofs`): every match, and none of a needle no tail's piece starts.
        for needle in ["015?lo", "107?l", "21f?lot", "12a?"] {
            #expect(try ChunkValuesTests.tailProven(store, needle) == holding(needle), "\(needle)")
            #expect(!holding(needle).isEmpty, "\(needle)")
        }
        #expect(try ChunkValuesTests.tailProven(store, "015?lx") == [])
        #expect(try store.auditPages() == nil)
        let needles = ["015?lo", "015?LO", "107?l", "21f?lot", "12a?", "015?lot=", "015?lot=1", "7015?l", "x15?l", "00f?lo"]
        func expectSameAnswers() throws {
            for needle in needles {
                var q = HistoryQuery(); q.search = needle; q.limit = 300
                try SearchIndexTests.expectSame(store, q, asOf: nil)
                try SearchIndexTests.expectSame(store, q, asOf: .seq(90))
            }
        }
        try expectSameAnswers()
        // An index written before these sets (of the same form) lacks them: the same answers, from the rows.
        try store.log.environment.write { txn in
            try SearchIndexTests.deleteSets(of: [SearchIndex.tailAfterThree], in: StoredTables(transaction: txn, databases: store.modelDatabases))
        }
        #expect(try ChunkValuesTests.tailProven(store, "015?lo") == [])
        #expect(try store.auditPages() == nil)
        try expectSameAnswers()
    }

    /// On the real clock, through the command line: a batch of codes with lots into a new store (its chunk
    /// written at once, so with the sets of what comes before its tails), then `log verify` (every set's record
    /// checked); the chunk has sets of three bytes before a tail, and needles from three bytes before the lot
    /// count what the codes hold.
    @Test func aBatchOnTheRealClockKeepsTheThreeBytesBeforeItsLots() throws {
        let s = try RealClockWritesTests.Store()
        defer { s.remove() }
        try s.write(["init", "--admin", "ada", "--name", "Ada", "--email", "ada@example.org", "--passcode-stdin"], stdin: "2468\n2468\n")
        try s.write(["unlock", "--as", "ada", "--passcode-stdin"], stdin: "2468\n")
        let hex = Array("0123456789abcdef")
        let codes = (0..<600).map { n in "https://v.example/c/pw-\(7_919 * n)\(hex[n % 7])\(hex[n % 16])?lot=1\(1_000 + n)" }
        let csv = "code,productName,category,result\n" + codes.map { "\($0),Powercore,Electronics,authentic\n" }.joined()
        try s.write(["scan", "--as", "ada", "--batch", try s.file("lots.csv", csv)])
        let store = try Store(directory: s.path.path)
        let sets = try store.log.environment.read { txn in
            var count = 0
            try StoredTables(transaction: txn, databases: store.modelDatabases)
                .forEach(.search, prefix: SearchIndex.groupBytes(0) + [SearchIndex.tailAfterThree]) { _, _ in count += 1; return true }
            return count
        }
        #expect(sets > 0)
        for needle in ["93f?lo", "5a?lot", "0?lot=10", "x3f?l"] {
            let answer = try CLI.run(["history", "--search", needle, "--limit", "1", "--json", "--store", s.path.path])
            #expect(jsonObject(answer.stdout)?["total"] as? Int == codes.filter { $0.contains(needle) }.count, "\(needle): \(answer.transcript)")
        }
    }

    /// A store written before the sets of heads' next bytes and of what comes before tails (form 6: its mark,
    /// none of those sets) still searches through its index, answering as reading every row does, and
    /// verifies; a rebuild makes its index again in the current form, with those sets.
    @Test func anIndexOfTheFormBeforeIsReadAndMadeAgainByARebuild() throws {
        let hex = Array("0123456789abcdef")
        let lines = ChunkValuesTests.codeScans(120) { n in "https://v.example/c/pw-\(hex[n % 16])\(7_919 * n)q?lot=1\(1_000 + n)" }
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let kinds = [SearchIndex.headNext, SearchIndex.headFollowing, SearchIndex.tailAfterByte, SearchIndex.tailAfterTwo,
                     SearchIndex.tailAfterThree, SearchIndex.tailsRepeated]
        func newSets() throws -> Int {
            try store.log.environment.read { txn in
                let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
                var count = 0
                for kind in kinds { try tables.forEach(.search, prefix: SearchIndex.groupBytes(0) + [kind]) { _, _ in count += 1; return true } }
                return count
            }
        }
        #expect(try newSets() > 0)
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            try SearchIndexTests.deleteSets(of: kinds, in: tables)
            try tables.delete(.search, SearchIndex.readyKey)
            try tables.put(.search, SearchIndex.readyKey(form: 6), [])
        }
        #expect(try newSets() == 0)
        #expect(try store.auditPages() == nil)
        let needles = ["/pw-a", "f7", "a?lot", "1q?lo", "powercore", "e", "pw-a7", "w-a79", "-a79"]
        try SearchIndexTests.expectSame(store, needles: needles)
        #expect(try SearchIndexTests.readiness(store) == (true, false))
        _ = try store.rebuild()
        #expect(try newSets() > 0)
        #expect(try store.auditPages() == nil)
        try SearchIndexTests.expectSame(store, needles: needles)
    }

    /// A store of index form 9, whose sets of the two bytes after a head's next one are one per head
    /// (`SearchIndex.formerHeadFollowing`), still searches through its index, answering as reading every row
    /// does, and verifies (those sets' seals are checked, a flipped one is found); a rebuild makes its index
    /// again in the current form, without them.
    @Test func anIndexOfFormNineIsReadAndMadeAgainByARebuild() throws {
        let hex = Array("0123456789abcdef")
        let lines = ChunkValuesTests.codeScans(120) { n in "https://v.example/c/pw-\(hex[n % 16])\(7_919 * n)q?lot=1\(1_000 + n)" }
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        func count(_ kind: UInt8) throws -> Int {
            try store.log.environment.read { txn in
                var count = 0
                try StoredTables(transaction: txn, databases: store.modelDatabases)
                    .forEach(.search, prefix: SearchIndex.groupBytes(0) + [kind]) { _, _ in count += 1; return true }
                return count
            }
        }
        #expect(try count(SearchIndex.headFollowing) > 0)
        let former = SearchIndex.groupBytes(0) + [SearchIndex.formerHeadFollowing, UInt8(ascii: "-"), UInt8(ascii: "a"), 0, 0, 0, 7, 0]
        func writeFormNine(_ value: [UInt8]) throws {
            try store.log.environment.write { txn in
                let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
                try SearchIndexTests.deleteSets(of: [SearchIndex.headFollowing], in: tables)
                try tables.put(.search, former, value)
                try tables.delete(.search, SearchIndex.readyKey)
                try tables.put(.search, SearchIndex.readyKey(form: 9), [])
            }
        }
        // Form 9's entry: a scan's gap and its two bytes.
        try writeFormNine(SealedValue.seal(key: former, [1, UInt8(ascii: "7"), UInt8(ascii: "9")]))
        #expect(try count(SearchIndex.headFollowing) == 0)
        #expect(try store.auditPages() == nil)
        let needles = ["/pw-a", "pw-a7", "w-a79", "-a79", "-a7", "a?lot", "e"]
        try SearchIndexTests.expectSame(store, needles: needles)
        #expect(try SearchIndexTests.readiness(store) == (true, false))
        var flipped = SealedValue.seal(key: former, [1, UInt8(ascii: "7"), UInt8(ascii: "9")])
        flipped[flipped.count - 1] ^= 1
        try writeFormNine(flipped)
        #expect(try store.auditPages() != nil)
        _ = try store.rebuild()
        #expect(try count(SearchIndex.formerHeadFollowing) == 0)
        #expect(try count(SearchIndex.headFollowing) > 0)
        #expect(try store.auditPages() == nil)
        try SearchIndexTests.expectSame(store, needles: needles)
    }

    /// A needle whose trigrams lie in different fields (`marco`: `powercore`, `marché`) is ruled out by the
    /// sets past the heads, and the scans that hold it past a head (a code's unique part, a field no piece
    /// lists) or in a message are still found: the index answers as reading every row does, live and as
    /// of a point before the reports.
    @Test func candidatesRuledOutPastTheHeadsAreNoMatches() throws {
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T08:01:00Z"),
                     Ev.register("marco.b", role: "inspector", by: "admin", at: "2026-11-01T08:02:00Z")]
        let at = ChunkValuesTests.tenSecondClock()
        for n in 1...120 {
            let unique = n % 10 == 3 ? "xmarcox\(n)" : n % 10 == 4 ? "yarcoy\(n)" : "q\(7_919 * n)"
            let location = n % 7 == 0 ? #","location":"Marco \#(n)""# : #","location":"Marché de la Croix-Rousse""#
            lines.append(Ev.scan("s-\(n)", by: n % 5 == 0 ? "marco.b" : "ines", at: at(),
                                 code: "https://v.example/c/pw-\(unique)", productName: "Powercore 20000 mAh", category: "Electronics",
                                 result: n % 2 == 0 ? "counterfeit" : "authentic", mode: "single", extra: location))
            if n % 11 == 0 {
                lines.append(Ev.report("s-\(n)", reason: "packaging", by: "ines", at: at(),
                                       extra: #","message":"Sold by Marco, stall \#(n)""#))
            }
        }
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        for needle in ["marco", "MARCO", "arco", "rcox", "xmarcox1", "marco 7", "marco.b", "marcos", "powercore", "marché de", "coy"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 200
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            try SearchIndexTests.expectSame(store, q, asOf: .seq(130))
        }
    }

    /// An actor's name is listed whole from `actorThreshold` of the chunk's scans (a customer recording a
    /// few a chunk), in the search text's actor field only; the rows' fields added one at a time
    /// (`firstField`, as a chunk's pieces are made again from its rows) list the same.
    @Test func anActorsNameIsListedFromAFewScans() {
        let a = ChunkValues.actorThreshold
        // scanId, code, productName, brand, category, location, batchId, notes, actor, message.
        func fields(_ i: Int, notes: String, actor: String) -> [String] {
            ["s-\(1_000 + i)", "https://v.ex/c/\(7_000_000 + 37 * i)", "serum", "", "cosmetics", "", "", notes, actor, ""]
        }
        var rows: [[String]] = []
        for i in 0..<a { rows.append(fields(i, notes: "", actor: "emma.moreau179")) }
        for i in 0..<(a - 1) { rows.append(fields(a + i, notes: "", actor: "zoe.berg001")) }
        // As many scans with a name in their notes: not listed.
        for i in 0..<a { rows.append(fields(2 * a + i, notes: "lea.costa003", actor: "ines.\(i)")) }
        for atOnce in [true, false] {
            var values = ChunkValues()
            for (offset, row) in rows.enumerated() {
                if atOnce {
                    Array(row.joined(separator: "\u{0}").utf8 + [0]).withUnsafeBytes { values.add(offset, text: $0, source: ChunkValues.own) }
                } else {
                    for (i, field) in row.enumerated() {
                        Array(field.utf8).withUnsafeBytes { values.add(offset, text: $0, source: ChunkValues.own, firstField: i) }
                    }
                }
            }
            var listed: [String: [Int]] = [:]
            for piece in values.listed() {
                var members: [Int] = []
                piece.members.forEachDescending { members.insert($0, at: 0); return true }
                listed[String(decoding: piece.bytes, as: UTF8.self)] = members
            }
            #expect(listed == ["emma.moreau179": Array(0..<a)], "\(atOnce)")
        }
    }

    /// A needle's sets are read in its own order (runs of four digits first) until the sample is seen, then
    /// rarest first; a set a quarter of the sampled scans hold is common.
    @Test func aNeedlesSetsAreReadRarestFirstOnceSampled() throws {
        let needle = Array("ab1234c".utf8)
        let order = GramOrder(needle: needle, flag: 0)
        let digits = try #require(SearchIndex.digitsGram(UInt32(SearchIndex.digits) << 24, needle[2], needle[3], needle[4], needle[5]))
        let own = [digits] + (0...4).map { SearchIndex.gram(SearchIndex.trigram, needle[$0], needle[$0 + 1], needle[$0 + 2]) }
        #expect(order.grams == own && order.isSampling)
        order.sampled([5, 900, 40, 200, 300, 7], scans: GramOrder.sample / 2)
        #expect(order.grams == own && order.isSampling)
        order.sampled([5, 1_200, 60, 300, 300, 1], scans: GramOrder.sample)
        #expect(!order.isSampling)
        #expect(order.grams == [own[5], own[0], own[2], own[3], own[4], own[1]])
        #expect(order.isCommon(5) && !order.isCommon(4))
        // One set: nothing to sample.
        #expect(!GramOrder(needle: Array("abc".utf8), flag: 0).isSampling)
        #expect(!GramOrder(needle: Array("1234".utf8), flag: 0).isSampling)
    }

    @Test func theDelimitersAreThePunctuationOfCodesIdsAndAddresses() {
        let delimiters = Set("#&,-./:=?@_".utf8)
        for byte in UInt8.min...UInt8.max { #expect(ChunkValues.isDelimiter(byte) == delimiters.contains(byte), "\(byte)") }
    }

    /// The pieces of a list that hold a needle, found by searching the list's bytes whole, are those that
    /// comparing each piece finds: not a place across a piece's end or in a length.
    @Test func thePiecesHoldingANeedleAreFoundInTheListsBytes() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("ab?=\u{4}".utf8)
        for _ in 0..<300 {
            let pieces: [(source: UInt8, bytes: [UInt8])] = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                (UInt8.random(in: 0...1, using: &rng), (0..<Int.random(in: 1...9, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            }
            let needle = (0..<Int.random(in: 1...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let list = ChunkValues.encodedList(pieces)
            var found: [Int] = []
            list.withUnsafeBytes { list in
                needle.withUnsafeBytes { needle in ChunkValues.forEachListed(list, holding: needle) { index, _, _ in found.append(index) } }
            }
            let expected = pieces.indices.filter { i in
                pieces[i].bytes.count >= needle.count && (0...(pieces[i].bytes.count - needle.count)).contains { Array(pieces[i].bytes[$0..<($0 + needle.count)]) == needle }
            }
            #expect(found == expected, "\(pieces) \(needle)")
        }
    }

    /// A chunk's list of piece numbers reads back as written (gaps of any size, up to the largest number, with
    /// marks past `PieceNumbers.stride` numbers), and the numbers a query looks for are found from the marks
    /// before them, exactly those the list holds; a varint cut short or past 32 bits, a gap of 0, marks that are
    /// not the list's (a number or a place off by one, one too few or too many) are damage.
    @Test func aListOfNumbersReadsBackAndDamageIsFound() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let numbers = Set((0..<Int.random(in: 0...(Bool.random(using: &rng) ? 300 : 3_000), using: &rng)).map { _ in
                Bool.random(using: &rng) ? UInt32.random(in: 0...5_000, using: &rng) : UInt32.random(in: 0...UInt32.max, using: &rng)
            }).sorted()
            let list = PieceNumbers.encoded(numbers), present = Set(numbers)
            #expect((list.count >= 2 && list[0] == 0 && list[1] == 0) == (numbers.count > PieceNumbers.stride))
            var read: [UInt32] = []
            #expect(list.withUnsafeBytes { PieceNumbers.forEach($0) { read.append($0) } } && read == numbers)
            let wanted = Set((0..<Int.random(in: 1...20, using: &rng)).map { _ in
                Bool.random(using: &rng) ? numbers.randomElement(using: &rng) ?? 0 : UInt32.random(in: 0...UInt32.max, using: &rng)
            }).sorted()
            var held: [UInt32] = []
            #expect(list.withUnsafeBytes { PieceNumbers.forEachHeld(wanted, in: $0) { held.append(wanted[$0]) } })
            #expect(held == wanted.filter { present.contains($0) }, "\(wanted) in \(numbers.count) numbers")
        }
        for bad in [[0x80], [1, 0], [0xFF, 0xFF, 0xFF, 0xFF, 0x7F], [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1], [0, 0], [0, 0, 1], [0, 0, 0]] as [[UInt8]] {
            #expect(!bad.withUnsafeBytes { PieceNumbers.forEach($0) { _ in } }, "\(bad)")
        }
        // A list of 150 numbers, 0 to 149 (a byte each), has marks for numbers 64 and 128: before them 63 and
        // 127, their gaps at bytes 64 and 128.
        let list = PieceNumbers.encoded(Array(0..<150))
        #expect(Array(list.prefix(8)) == [0, 0, 2, 63, 64, 127, 0x80, 1])
        for (at, change) in [(3, 1), (4, 1), (5, -1), (6, -1), (2, 1), (2, -1)] {
            var damaged = list
            damaged[at] = UInt8(Int(damaged[at]) + change)
            #expect(!damaged.withUnsafeBytes { PieceNumbers.forEach($0) { _ in } }, "byte \(at) \(change)")
        }
    }

    /// A set's entries (`HeadFollowers`) read back as written, each with its head's number, in the order of
    /// their scans, repeats once, and damage is found: no head, a head's number past 32 bits or not past the
    /// one before, a varint cut short or too long, a first gap of 0, a scan past the chunk, a head's index past
    /// the heads, an entry without its byte.
    @Test func aHeadsEntriesReadBackAndDamageIsFound() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let numbers = (0..<Int.random(in: 1...70, using: &rng)).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
            let entries = (0..<Int.random(in: 1...300, using: &rng)).map { _ in
                (offset: Int.random(in: 0..<ChunkBits.scansPerChunk, using: &rng), head: Int.random(in: 0..<numbers.count, using: &rng),
                 third: UInt8.random(in: 0...255, using: &rng))
            }.sorted { $0.offset < $1.offset }
            var once: [String] = []
            for entry in entries.map({ "\($0.offset) \(numbers[$0.head]) \($0.third)" }) where !once.contains(entry) { once.append(entry) }
            once.sort { a, b in
                let x = a.split(separator: " ").map { UInt64($0)! }, y = b.split(separator: " ").map { UInt64($0)! }
                return x.lexicographicallyPrecedes(y)
            }
            var read: [String] = [], heads: [UInt32] = []
            let readable = HeadFollowers.stored(entries, numbers: numbers).withUnsafeBytes {
                HeadFollowers.read($0, heads: { heads.append($0) }) { read.append("\($0) \(heads[$1]) \($2)") }
            }
            #expect(readable && read == once)
        }
        let bad: [[UInt8]] = [[], [0], [1], [1, 0x80], [1, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], [2, 5, 0], [1, 5, 0x80], [1, 5, 0, 0, 7],
                              [1, 5, 1, 1, 7], [1, 5, 1, 0], [1, 5, 0x81, 0x80, 0x80, 0, 0, 7], [1, 5, 0x81, 0x7D, 0, 7], [1, 5, 1, 0, 7, 1]]
        for bytes in bad {
            #expect(!bytes.withUnsafeBytes { HeadFollowers.read($0, heads: { _ in }) { _, _, _ in } }, "\(bytes)")
        }
        // A second field of one scan: a gap of 0 past the first entry.
        #expect(([1, 5, 1, 0, 7, 0, 0, 9] as [UInt8]).withUnsafeBytes { HeadFollowers.read($0, heads: { _ in }) { _, _, _ in } })
    }

    /// Of the pieces a chunk lists that hold the needle, a query reads only those none of whose prefixes
    /// (of the same source) the chunk lists too: their sets hold the longer pieces'.
    @Test func aQueryReadsOnlyTheShortestMatchedPiecesAChunkLists() throws {
        let (store, directory) = try SearchIndexTests.store([])
        defer { try? FileManager.default.removeItem(at: directory) }
        let pieces: [(source: UInt8, text: String)] = [(0, "https://v.ex/c/"), (0, "https://v.ex/c/role-"), (0, "https://v.ex/c/asic-"),
                                                       (1, "https://v.ex/c/role-"), (0, "v.ex/c/"), (0, "rossi0")]
        let matches = try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            let vocabulary = PieceVocabulary()
            for piece in pieces { _ = try vocabulary.number(of: piece.source, Array(piece.text.utf8), in: tables) }
            try vocabulary.store(to: tables)
            return try Array("v.ex/c".utf8).withUnsafeBytes { try PieceMatches(needle: $0, withMessages: true, in: tables) }
        }
        #expect(matches.numbers == [0, 1, 2, 3, 4])
        func shortest(_ listed: [UInt32]) -> [UInt32] {
            var found: [UInt32] = []
            PieceNumbers.encoded(listed).withUnsafeBytes { _ = matches.forEachShortest(in: $0) { found.append(matches.numbers[$0]) } }
            return found
        }
        #expect(shortest([0, 1, 2, 3, 4, 5]) == [0, 3, 4])
        #expect(shortest([1, 2, 5]) == [1, 2])
        #expect(shortest([1, 3]) == [1, 3])
        #expect(shortest([5]) == [])
        let replaying = try store.log.environment.read { txn in
            try Array("v.ex/c".utf8).withUnsafeBytes { try PieceMatches(needle: $0, withMessages: false, in: StoredTables(transaction: txn, databases: store.modelDatabases)) }
        }
        #expect(replaying.numbers == [0, 1, 2, 4])
    }

    /// The heads a needle runs one byte past are the scans' own pieces that end with all of it but its last
    /// byte (a message's piece is no head), found in the same pass as the pieces that hold it; a needle that
    /// more than `maxHeads` heads end in reads none of their sets.
    @Test func theHeadsANeedleRunsOneBytePastAreFoundWithItsPieces() throws {
        let (store, directory) = try SearchIndexTests.store([])
        defer { try? FileManager.default.removeItem(at: directory) }
        let pieces: [(source: UInt8, text: String)] = [(0, "https://v.ex/c/"), (0, "https://v.ex/c/role-"), (0, "https://v.ex/c/asic-"),
                                                       (1, "https://v.ex/c/role-"), (0, "v.ex/c/"), (0, "rossi0")]
            + (0..<9).map { (0, "head\($0)-x/") }
        func matches(_ needle: String) throws -> PieceMatches {
            try store.log.environment.write { txn in
                let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
                let vocabulary = PieceVocabulary()
                for piece in pieces { _ = try vocabulary.number(of: piece.source, Array(piece.text.utf8), in: tables) }
                try vocabulary.store(to: tables)
                return try Array(needle.utf8).withUnsafeBytes { try PieceMatches(needle: $0, withMessages: true, in: tables) }
            }
        }
        let role = try matches("/role-9")
        #expect(role.heads == [1] && role.numbers.isEmpty && !role.isEmpty)
        let head = try matches("ex/c/r")
        #expect(head.heads == [0, 4] && head.numbers == [1, 3])
        #expect(try matches("-x/q").heads == [], "nine heads end with -x/, more than maxHeads")
        #expect(try matches("8-x/q").heads == [14])
    }

    /// Pieces numbered by several writes keep their numbers: a later write extends the last block and goes on
    /// in new ones, a piece known is not numbered again, and every number reads back its piece.
    @Test func theVocabularyNumbersEachPieceOnceAcrossWrites() throws {
        let (store, directory) = try SearchIndexTests.store([])
        defer { try? FileManager.default.removeItem(at: directory) }
        let texts = (0..<150).map { "piece-\($0)" }
        for write in 0..<3 {
            try store.log.environment.write { txn in
                let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
                let vocabulary = PieceVocabulary()
                for (i, text) in texts.enumerated() where i < 50 * (write + 1) {
                    #expect(try vocabulary.number(of: 0, Array(text.utf8), in: tables) == UInt32(i))
                }
                try vocabulary.store(to: tables)
            }
        }
        try store.log.environment.read { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            let vocabulary = PieceVocabulary()
            for (i, text) in texts.enumerated() { #expect(try vocabulary.piece(UInt32(i), in: tables)?.bytes == Array(text.utf8)) }
            #expect(try vocabulary.piece(150, in: tables) == nil)
            let matches = try Array("ece-14".utf8).withUnsafeBytes { try PieceMatches(needle: $0, withMessages: true, in: tables) }
            #expect(matches.numbers == [14] + Array(140...149))
        }
        #expect(try store.auditPages() == nil)
        // A damaged count: the next piece is numbered past the last block, never with a number in use.
        try SearchIndexTests.flipBit(store, .search, PieceVocabulary.countKey, byte: 3)
        #expect(try store.auditPages() != nil)
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            let vocabulary = PieceVocabulary()
            #expect(try vocabulary.number(of: 0, Array("piece-7".utf8), in: tables) == 7)
            #expect(try vocabulary.number(of: 0, Array("new".utf8), in: tables) == 192)
            try vocabulary.store(to: tables)
        }
        let read = try store.log.environment.read { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            return try [192, 149].map { try PieceVocabulary().piece($0, in: tables)?.bytes }
        }
        #expect(read == [Array("new".utf8), Array("piece-149".utf8)])
        #expect(try store.auditPages() == nil)
        // A block lost: the next piece keeps its number's place in it, never another's (the lost one reads
        // as an empty piece, which holds no needle).
        try store.log.environment.write { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).delete(.search, PieceVocabulary.blockKey(3))
        }
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            let vocabulary = PieceVocabulary()
            #expect(try vocabulary.number(of: 0, Array("after-loss".utf8), in: tables) == 193)
            try vocabulary.store(to: tables)
        }
        let afterLoss = try store.log.environment.read { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            let matches = try Array("after-l".utf8).withUnsafeBytes { try PieceMatches(needle: $0, withMessages: true, in: tables) }
            return (try [192, 193].map { try PieceVocabulary().piece($0, in: tables)?.bytes }, matches.numbers)
        }
        #expect(afterLoss.0 == [[], Array("after-loss".utf8)] && afterLoss.1 == [193])
        #expect(try store.auditPages() == nil)
    }

    @Test func aListReadsBackAndDamageIsFound() {
        let pieces: [(source: UInt8, bytes: [UInt8])] = [(0, Array("https://verify.e".utf8)), (1, Array(repeating: 0x61, count: 300)), (0, [0xE4, 0xB8, 0x8A, 0x20])]
        let list = ChunkValues.encodedList(pieces)
        var read: [(index: Int, source: UInt8, bytes: [UInt8])] = []
        let readable = list.withUnsafeBytes { ChunkValues.forEachListed($0) { i, source, bytes in read.append((i, source, Array(bytes))) } }
        #expect(readable)
        #expect(read.map(\.index) == Array(0..<3))
        #expect(read.map(\.source) == pieces.map(\.source) && read.map(\.bytes) == pieces.map(\.bytes))
        for bad in [[2, 1, 0x61], [0, 5, 0x61], [0, 0x80, 0x80, 0x80, 0x80, 0x01]] as [[UInt8]] {
            #expect(!bad.withUnsafeBytes { ChunkValues.forEachListed($0) { _, _, _ in } }, "\(bad)")
        }
    }

    /// One chunk written by two writes of 700 scans each: the second's pieces are merged into the list and
    /// sets the first stored; the answers are the rows' and the audit finds nothing.
    @Test func aChunkWrittenTwiceMergesItsPieces() throws {
        var rng = SystemRandomNumberGenerator()
        let lines = SearchIndexTests.log(scans: 1_400, rng: &rng)
        let events = try lines.map(Ev.decoded)
        let split = lines.count / 2
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chunk-values-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Store.create(directory: directory.path) { appender in for e in events.prefix(split) { _ = try appender.append(e) } }
        let store = try Store(directory: directory.path)
        func pieces() throws -> [String] { try ChunkValuesTests.pieces(store, chunk: 0) }
        let first = try pieces()
        #expect(first.contains("0:https://v.example/c/"))
        try store.write { appender in for e in events.dropFirst(split) { _ = try appender.append(e) } }
        let merged = try pieces()
        #expect(Array(merged.prefix(first.count)) == first, "pieces listed before keep their places")
        #expect(try store.auditPages() == nil)
        for needle in ["https://v.ex", "hologram", "ologram sticker", "serum 50", "crème de la", "münchen", "b-3", "c-1", "x.example/c/1", "lot=", "?lot=1", "lot=07"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 30; q.offset = 5
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            try SearchIndexTests.expectSame(store, q, asOf: .seq(UInt64(split + 40)))
        }
    }

    /// Reports made in later writes than their scans' (as an import's mostly are, and a served store's
    /// always): a message that enough of a write's reports repeat is listed among their chunk's pieces
    /// (those before and after a scan of the same chunk counted together), a report alone joins the piece
    /// its message starts with, and the answers are the rows', live and as of points between the reports. A
    /// report on a scan the write leaves out of the sets (`SearchIndex.unindexedKey`) joins with its scan.
    @Test func reportsOnAChunkWrittenBeforeJoinItsPieces() throws {
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T08:01:00Z")]
        let at = ChunkValuesTests.tenSecondClock()
        for n in 1...100 {
            lines.append(Ev.scan("s-\(n)", by: "ines", at: at(), code: "https://v.example/c/\(7_919 * n)", productName: "Serum",
                                 category: "Cosmetics", result: "counterfeit", mode: "single", extra: #","notes":"Sticker on the lid""#))
        }
        let messages = ["QR code printed on a sticker", "QR code printed on a sticker", "Sold at a market stall"]
        let reports = (1...12).map { n in
            Ev.report("s-\(n)", reason: "other", by: "ines", at: at(), extra: #","message":"\#(messages[n % 3])""#)
        }
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try !ChunkValuesTests.pieces(store, chunk: 0).contains { $0.hasPrefix("1:") })
        try store.write { appender in for line in reports { _ = try appender.append(try Ev.decoded(line)) } }
        let listed = try ChunkValuesTests.pieces(store, chunk: 0)
        #expect(listed.contains("1:qr code printed on a sticker"), "8 reports repeat it")
        #expect(listed.contains("1:sold at a market stall"), "4 reports repeat it")
        let sticker = try #require(listed.firstIndex(of: "1:qr code printed on a sticker"))
        // One report more, alone in its write, joins the listed piece its message is.
        try store.write { appender in
            _ = try appender.append(try Ev.decoded(Ev.report("s-50", reason: "other", by: "ines", at: at(),
                                                             extra: #","message":"QR code printed on a sticker, again""#)))
        }
        #expect(try ChunkValuesTests.pieces(store, chunk: 0) == listed, "no piece is listed for one report")
        let members = try ChunkValuesTests.members(store, chunk: 0, index: sticker)
        #expect(members == [1, 3, 4, 6, 7, 9, 10, 12, 50], "the scans of its 8 reports and the one alone")
        // A write whose reports come before and after a scan of the same chunk: counted together.
        let customs = #","message":"Ask customs for the shipment""#
        try store.write { appender in
            for line in [Ev.report("s-60", reason: "other", by: "ines", at: at(), extra: customs),
                         Ev.report("s-61", reason: "other", by: "ines", at: at(), extra: customs),
                         Ev.scan("s-101", by: "ines", at: at(), code: "https://v.example/c/1", productName: "Serum",
                                 category: "Cosmetics", result: "counterfeit", mode: "single"),
                         Ev.report("s-62", reason: "other", by: "ines", at: at(), extra: customs),
                         Ev.report("s-63", reason: "other", by: "ines", at: at(), extra: customs),
                         Ev.report("s-101", reason: "other", by: "ines", at: at(), extra: customs)] {
                _ = try appender.append(try Ev.decoded(line))
            }
        }
        let customsIndex = try #require(try ChunkValuesTests.pieces(store, chunk: 0).firstIndex(of: "1:ask customs for the shipment"))
        #expect(try ChunkValuesTests.members(store, chunk: 0, index: customsIndex) == [60, 61, 62, 63])
        #expect(try store.auditPages() == nil)
        func expectSameAnswers() throws {
            for needle in ["sticker", "qr code", "printed on a", "market stall", "again", "on the lid", "sold", "customs"] {
                var q = HistoryQuery(); q.search = needle; q.limit = 200
                try SearchIndexTests.expectSame(store, q, asOf: nil)
                for seq in [102, 106, 113, 114, 117, 120] { try SearchIndexTests.expectSame(store, q, asOf: .seq(UInt64(seq))) }
            }
        }
        try expectSameAnswers()
        // A write of more scans than are left out at most adds s-101 from its row, and its report joins the piece.
        try store.write { appender in
            for n in 102...(102 + Int(UnindexedScans.most)) {
                _ = try appender.append(try Ev.decoded(Ev.scan("s-\(n)", by: "ines", at: at(), code: "https://v.example/c/\(n)",
                                                               productName: "Serum", category: "Cosmetics", result: "authentic", mode: "single")))
            }
        }
        #expect(try ChunkValuesTests.members(store, chunk: 0, index: customsIndex) == [60, 61, 62, 63, 101])
        try expectSameAnswers()
    }

    /// A scan whose report's message is a listed message piece whole (`SearchIndex.wholeMessages`) is no
    /// candidate through its message for a needle no piece of it holds: `d ov` is in a note, and its trigrams
    /// are in the message `qr code printed on a sticker over the original` apart. The answers are the rows',
    /// and the reports of that message are ruled out without their rows (deleted here, a row read would
    /// throw); a message that runs past its piece (`…, again`) or is listed under none is still checked.
    @Test func aMessageListedWholeRulesOutTheNeedlesItDoesNotHold() throws {
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T08:01:00Z")]
        let at = ChunkValuesTests.tenSecondClock()
        for n in 1...100 {
            let note = n % 10 == 0 ? #","notes":"QR sticker printed over the original code""# : ""
            lines.append(Ev.scan("s-\(n)", by: "ines", at: at(), code: "https://v.example/c/\(7_919 * n)", productName: "Serum",
                                 category: "Cosmetics", result: "counterfeit", mode: "single", extra: note))
        }
        let sticker = #","message":"QR code printed on a sticker over the original""#
        let listedWhole = (1...60).filter { $0 % 3 == 1 && $0 != 4 }
        for n in listedWhole { lines.append(Ev.report("s-\(n)", reason: "other", by: "ines", at: at(), extra: sticker)) }
        let again = #","message":"QR code printed on a sticker over the original, again""#
        lines.append(Ev.report("s-2", reason: "other", by: "ines", at: at(), extra: again))
        lines.append(Ev.report("s-5", reason: "other", by: "ines", at: at(), extra: #","message":"Printed over""#))
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try ChunkValuesTests.pieces(store, chunk: 0).contains("1:qr code printed on a sticker over the original"))
        let wholeKey = SearchIndex.wholeMessagesKey(chunk: 0)
        #expect(try ChunkValuesTests.members(store, key: wholeKey) == listedWhole)
        // A later write's report of the same message joins the set; one of another message does not.
        try store.write { appender in
            _ = try appender.append(try Ev.decoded(Ev.report("s-70", reason: "other", by: "ines", at: at(), extra: sticker)))
            _ = try appender.append(try Ev.decoded(Ev.report("s-4", reason: "other", by: "ines", at: at(), extra: #","message":"QR code""#)))
        }
        #expect(try ChunkValuesTests.members(store, key: wholeKey) == (listedWhole + [70]).sorted())
        #expect(try store.auditPages() == nil)
        let needles = ["d ov", "ed ove", "er c", "inted ov", "d over the original code", "sticker over", "over the original",
                       "again", "printed over", "QR code", "r cod"]
        for needle in needles {
            var q = HistoryQuery(); q.search = needle; q.limit = 200
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            for seq in [110, 125, 140] { try SearchIndexTests.expectSame(store, q, asOf: .seq(UInt64(seq))) }
        }
        // Without the rows of the reports listed whole (no note), `d ov` is still counted: none is read.
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            for n in listedWhole + [70] where n % 10 != 0 { try tables.delete(.scans, Models.ordinalKey(UInt32(n))) }
        }
        for (needle, total) in [("d ov", 11), ("ed ove", 11), ("inted ov", 11)] {
            var q = HistoryQuery(); q.search = needle; q.limit = 1
            let answer = try store.query(asOf: nil, now: Ev.time("2026-11-20T18:00:00Z"), fallbackNow: { Ev.time("2026-11-20T18:00:00Z") }) {
                try q.answer($0, viewer: nil, path: .index)
            }
            let json = canonicalJSONString(answer)
            #expect(json.hasSuffix(#""total":\#(total)}"#), "\(needle): \(json)")
        }
    }

    /// A chunk's list of reports with a message (`ReportSeqs`) reads back in seq order, takes a later write's
    /// reports at its end and an earlier one's in their place, says which were made by a seq, and does not
    /// read when cut, when a seq does not grow, or when an offset is past a chunk's.
    @Test func aListOfReportsReadsBackAndDamageIsFound() throws {
        func entries(_ bytes: [UInt8]) -> [String]? {
            var out: [String] = []
            let reads = bytes.withUnsafeBytes { ReportSeqs.forEach($0) { seq, offset in out.append("\(seq):\(offset)"); return true } }
            return reads ? out : nil
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let first = try #require(ReportSeqs.adding([(5, 3), (130, 15_999), (1 << 40, 0)], to: empty))
        #expect(entries(first) == ["5:3", "130:15999", "1099511627776:0"])
        let later = try #require(first.withUnsafeBytes { ReportSeqs.adding([(1 << 40 + 1, 7)], to: $0) })
        #expect(later.starts(with: first), "a later write's reports are appended")
        #expect(entries(later) == ["5:3", "130:15999", "1099511627776:0", "1099511627777:7"])
        let earlier = try #require(later.withUnsafeBytes { ReportSeqs.adding([(6, 9), (130, 15_999)], to: $0) })
        #expect(entries(earlier) == ["5:3", "6:9", "130:15999", "1099511627776:0", "1099511627777:7"])
        #expect(first.withUnsafeBytes { ReportSeqs.adding([(7, 16_000)], to: $0) } == nil)
        let within = try #require(later.withUnsafeBytes { ReportSeqs.reported($0, through: 130) })
        #expect((0..<ChunkBits.scansPerChunk).filter { within.contains($0) } == [3, 15_999])
        #expect(entries(Array(first.dropLast())) == nil, "cut short")
        #expect(entries([5, 3, 0, 4]) == nil, "a seq that does not grow")
        #expect(entries([5, 0x80, 0x7D]) == nil, "an offset past a chunk's")
        #expect(entries([]) == [])
        #expect([5, 3, 0, 4].withUnsafeBytes { ReportSeqs.reported($0, through: 10) } == nil)
    }

    /// A replay of a prefix takes from the messages' sets the scans reported within it (`SearchIndex.reportSeqs`):
    /// the answers are the rows', and no row is read for a message. An index of form 10 (no lists) or a list
    /// that does not read answers the same from the rows; a rebuild keeps a form 10 index and adds the lists.
    @Test func aReplayKnowsWhichReportsItHoldsFromTheLists() throws {
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T08:01:00Z")]
        let at = ChunkValuesTests.tenSecondClock()
        for n in 1...100 {
            let note = n > 80 ? #","notes":"Sticker on the lid""# : ""
            lines.append(Ev.scan("s-\(n)", by: "ines", at: at(), code: "https://v.example/c/\(7_919 * n)", productName: "Serum",
                                 category: "Cosmetics", result: "counterfeit", mode: "single", extra: note))
        }
        let sticker = #","message":"QR code printed on a sticker""#
        for n in stride(from: 1, through: 59, by: 2) { lines.append(Ev.report("s-\(n)", reason: "other", by: "ines", at: at(), extra: sticker)) }
        // The prefix ends with the 20th report (s-39): those on s-41 to s-59 come after it.
        let prefix = UInt64(lines.count - 10)
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let listKey = SearchIndex.reportSeqsKey(chunk: 0)
        let needles = ["sti", "STICKER", "d on a s", "sticker on", "qr co", "lid"]
        func expectSameAnswers() throws {
            for needle in needles {
                var q = HistoryQuery(); q.search = needle; q.limit = 200
                for seq in [prefix - 15, prefix, prefix + 4] { try SearchIndexTests.expectSame(store, q, asOf: .seq(seq)) }
            }
        }
        try expectSameAnswers()
        func write(_ body: (StoredTables) throws -> Void) throws {
            try store.log.environment.write { txn in try body(StoredTables(transaction: txn, databases: store.modelDatabases)) }
        }
        // Form 10, and a list that does not read: the same answers, from the rows.
        try write { try $0.delete(.search, SearchIndex.readyKey); try $0.put(.search, SearchIndex.readyKey(form: 10), []) }
        try expectSameAnswers()
        try write { try $0.delete(.search, SearchIndex.readyKey(form: 10)); try $0.put(.search, SearchIndex.readyKey, []) }
        let list = try #require(try store.log.environment.read { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).withValue(.search, listKey) { $0.map { Array($0) } }
        })
        try write { try $0.put(.search, listKey, [list[0] ^ 1] + list.dropFirst()) }
        #expect(try store.auditPages() != nil)
        try expectSameAnswers()
        try write { try $0.put(.search, listKey, list) }
        // A rebuild keeps a sound index of form 10 (the set of messages listed whole, taken away here, is not
        // made again) and makes its lists from the rows.
        let wholeKey = SearchIndex.wholeMessagesKey(chunk: 0)
        #expect(try ChunkValuesTests.members(store, key: wholeKey).count == 30)
        try write {
            for key in [listKey, wholeKey, SearchIndex.readyKey] { try $0.delete(.search, key) }
            try $0.put(.search, SearchIndex.readyKey(form: 10), [])
        }
        try store.rebuild()
        #expect(try SearchIndexTests.readiness(store) == (true, true))
        #expect(try ChunkValuesTests.members(store, key: wholeKey).isEmpty, "the index is kept, not made again")
        #expect(try store.auditPages() == nil)
        #expect(try store.log.environment.read { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).withValue(.search, listKey) { $0.map { Array($0) } }
        } == list)
        // The replay's search reads no row for a message with the lists, and one for each report without them.
        func search(_ needle: String) throws -> (total: Int, rowsRead: Int) {
            try store.log.environment.read { txn in
                let tables = RowCountingTables(StoredTables(transaction: txn, databases: store.modelDatabases))
                let models = Models(tables: tables, scans: LogReader(log: store.log, transaction: txn),
                                    scanList: BorrowedScanList(reportsThrough: prefix))
                let search = IndexedSearch(models: models, needle: Array(needle.utf8), type: .all, category: nil, actor: nil)
                return (try search.page(first: 1, last: 100, offset: 0, limit: 1).total, tables.rowsRead)
            }
        }
        for (needle, total) in [("sti", 40), ("sticker", 40), ("d on a s", 20), ("qr co", 20)] {
            let found = try search(needle)
            #expect(found == (total, 0), "\(needle): \(found)")
        }
        try write { try $0.delete(.search, SearchIndex.readyKey); try $0.put(.search, SearchIndex.readyKey(form: 10), []) }
        #expect(try search("d on a s") == (20, 30), "without the lists, each report's row")
    }

    /// The offsets in `chunk` of the scans of the piece listed `index`-th (in `pieces`' order).
    static func members(_ store: Store, chunk: UInt32, index: Int) throws -> [Int] {
        try members(store, key: SearchIndex.pieceMembersKey(chunk: chunk, number: try numbers(store, chunk: chunk)[index]))
    }

    /// The offsets of the scans of `store`'s first chunk that the sets before tails prove to hold `needle`
    /// (`TailProofs`: what a query takes from them).
    static func tailProven(_ store: Store, _ needle: String) throws -> [Int] {
        try proven(store) { try TailProofs(needle: Array(needle.utf8), tables: $0).proven(chunk: 0) }
    }

    /// The same for the entries of heads' next bytes (`HeadProofs`).
    static func headProven(_ store: Store, _ needle: String) throws -> [Int] {
        try proven(store) { try HeadProofs(needle: Array(needle.utf8), tables: $0).proven(chunk: 0) }
    }

    private static func proven(_ store: Store, _ proofs: (any ModelTables) throws -> ChunkBits?) throws -> [Int] {
        try store.log.environment.read { txn in
            let bits = try proofs(StoredTables(transaction: txn, databases: store.modelDatabases)) ?? ChunkBits()
            return (0..<ChunkBits.scansPerChunk).filter { bits.contains($0) }
        }
    }

    /// The offsets of the scans of the set stored at `key` of the search index (none when there is none).
    static func members(_ store: Store, key: [UInt8]) throws -> [Int] {
        try store.log.environment.read { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).withValue(.search, key) { value in
                var bits = ChunkBits()
                if let value { bits.or(container: SealedValue.body(value)) }
                return (0..<ChunkBits.scansPerChunk).filter { bits.contains($0) }
            }
        }
    }

    /// The numbers of the pieces listed for `chunk` of `store` (`PieceVocabulary`), in the list's order.
    static func numbers(_ store: Store, chunk: UInt32) throws -> [UInt32] {
        try store.log.environment.read { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).withValue(.search, SearchIndex.pieceListKey(chunk: chunk)) { list in
                var numbers: [UInt32] = []
                if let list { #expect(PieceNumbers.forEach(SealedValue.body(list)) { numbers.append($0) }) }
                return numbers
            }
        }
    }

    /// A log of an admin, an inspector and `count` scans of one product by the inspector, 10 s apart, scan `n`
    /// (from 0) with the code `code(n)`.
    static func codeScans(_ count: Int, code: (Int) -> String) -> [String] {
        let at = tenSecondClock()
        return [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T08:01:00Z")]
            + (0..<count).map { n in
                Ev.scan("s-\(n)", by: "ines", at: at(), code: code(n), productName: "Powercore", category: "Electronics",
                        result: "authentic", mode: "single")
            }
    }

    /// Event times 10 s apart from 2026-11-01T09:00:10Z, for logs whose events' order is all that matters.
    static func tenSecondClock() -> () -> String {
        var second: Int64 = 0
        return {
            second += 10
            return Timestamp(microseconds: Ev.time("2026-11-01T09:00:00Z").microseconds + second * 1_000_000).description
        }
    }

    /// The pieces listed for `chunk` of `store`, as "source:text", in the list's order (their numbers').
    static func pieces(_ store: Store, chunk: UInt32) throws -> [String] {
        let numbers = try numbers(store, chunk: chunk)
        return try store.log.environment.read { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            let vocabulary = PieceVocabulary()
            return try numbers.map { number in
                let piece = try #require(try vocabulary.piece(number, in: tables))
                return "\(piece.source):" + String(decoding: piece.bytes, as: UTF8.self)
            }
        }
    }

    /// A chunk that a write fills after an earlier write began it has its pieces made again from its rows:
    /// the scans' own pieces are those one write of the whole chunk lists, and the answers are the rows'.
    @Test func aChunkFilledByALaterWriteHasItsPiecesMadeFromItsRows() throws {
        var rng = SystemRandomNumberGenerator()
        let lines = SearchIndexTests.log(scans: ChunkBits.scansPerChunk + 50, rng: &rng)
        let events = try lines.map(Ev.decoded)
        let (whole, wholeDirectory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: wholeDirectory) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chunk-values-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A few scans first, then writes of 10 events (none reaches the threshold), then the rest.
        _ = try Store.create(directory: directory.path) { appender in for e in events.prefix(10) { _ = try appender.append(e) } }
        let store = try Store(directory: directory.path)
        var at = 10
        while at < 600 {
            try store.write { appender in for e in events[at..<(at + 10)] { _ = try appender.append(e) } }
            at += 10
        }
        // Only actors' names reach their threshold in writes of 10 (`ChunkValues.actorThreshold`).
        let actors = Set(SearchIndexTests.actors.map { "0:" + $0 })
        #expect(try ChunkValuesTests.pieces(store, chunk: 0).filter { $0.hasPrefix("0:") && !actors.contains($0) }.count < 3)
        try store.write { appender in for e in events[at...] { _ = try appender.append(e) } }
        // The same pieces; their numbers, and so the lists' order, follow the writes that numbered them.
        let own = { (store: Store) in try ChunkValuesTests.pieces(store, chunk: 0).filter { $0.hasPrefix("0:") }.sorted() }
        #expect(try own(store) == own(whole))
        #expect(try own(store).count > 20 && own(store).contains("0:" + SearchIndexTests.rareActor))
        // The reports whose message is listed whole, made again with the pieces.
        let wholeMessages = { (store: Store) in try ChunkValuesTests.members(store, key: SearchIndex.wholeMessagesKey(chunk: 0)) }
        #expect(try wholeMessages(store) == wholeMessages(whole))
        #expect(try wholeMessages(store).count > 10)
        // The reports' lists of both chunks, as the writes made them and as a rebuild of form 10 makes them
        // from the rows.
        func lists(_ store: Store) throws -> [[UInt8]?] {
            try store.log.environment.read { txn in
                let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
                return try [0, 1].map { try tables.withValue(.search, SearchIndex.reportSeqsKey(chunk: $0)) { $0.map { Array($0) } } }
            }
        }
        // The second chunk's 51 scans may have no report with a message (it then has no list); the first's have.
        let listed = try lists(whole)
        #expect(listed[0] != nil)
        #expect(try lists(store) == listed)
        try whole.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: whole.modelDatabases)
            for chunk: UInt32 in [0, 1] { try tables.delete(.search, SearchIndex.reportSeqsKey(chunk: chunk)) }
            try tables.delete(.search, SearchIndex.readyKey)
            try tables.put(.search, SearchIndex.readyKey(form: 10), [])
        }
        try whole.rebuild()
        #expect(try lists(whole) == listed)
        #expect(try store.auditPages() == nil)
        for needle in ["https://v.ex", "hologram", "crème de la", "seal broken", "ines", "lot=3", "moreau1", "ker ser", "ol sea"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 10; q.offset = 2
            try SearchIndexTests.expectSame(store, q, asOf: nil)
        }
    }
}

/// Model tables that count the scan rows read (`ModelTable.scans`), over the stored ones.
final class RowCountingTables: ModelTables {
    private let stored: any ModelTables
    private(set) var rowsRead = 0

    init(_ stored: any ModelTables) { self.stored = stored }

    func withValue<R>(_ table: ModelTable, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        if table == .scans { rowsRead += 1 }
        return try stored.withValue(table, key, body)
    }

    func put(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws { try stored.put(table, key, value) }
    func delete(_ table: ModelTable, _ key: [UInt8]) throws { try stored.delete(table, key) }
    func forEach(_ table: ModelTable, prefix: [UInt8], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        try stored.forEach(table, prefix: prefix, body)
    }
}
