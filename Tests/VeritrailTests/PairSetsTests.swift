import Domain
@testable import Engine
import EventLog
import Foundation
import LMDB
@testable import Projections
import Testing
import TestSupport

/// The unions a full chunk keeps of its large pairs' trigram sets (`PairSets`, `SearchIndex.pairKey`): made when
/// one write holds the whole chunk and when writes fill it bit by bit, each the union of the trigram sets
/// `b0 b1 *`, present exactly where those take `PairSets.threshold` bytes or more, audited, and what a needle of
/// two bytes reads in their place.
@Suite struct PairSetsTests {
    /// `chunk`'s pair sets in `store`: the pair's two bytes → the offsets of its members.
    static func pairs(_ store: Store, chunk: UInt32) throws -> [[UInt8]: [Int]] {
        var pairs: [[UInt8]: [Int]] = [:]
        for (key, _) in try entries(store, chunk: chunk) where key.count == 8 {
            pairs[Array(key[5...6])] = try ChunkValuesTests.members(store, key: key)
        }
        return pairs
    }

    /// `chunk`'s trigram sets of its fields by their first two bytes: the bytes they take, stored (without
    /// their checks), and the offsets of the scans in any of them.
    static func trigramUnions(_ store: Store, chunk: UInt32) throws -> [[UInt8]: (bytes: Int, members: [Int])] {
        var unions: [[UInt8]: (bytes: Int, members: Set<Int>)] = [:]
        for (key, value) in try entries(store, chunk: chunk) where key.count == 9 {
            let pair = Array(key[5...6])
            var union = unions[pair] ?? (0, [])
            union.bytes += value.count - SealedValue.checkBytes
            union.members.formUnion(try ChunkValuesTests.members(store, key: key))
            unions[pair] = union
        }
        return unions.mapValues { ($0.bytes, $0.members.sorted()) }
    }

    /// The pairs that are text, in order.
    static func needles(_ pairs: some Collection<[UInt8]>) -> [String] {
        pairs.compactMap { String(validating: $0, as: UTF8.self) }.sorted()
    }

    /// `chunk`'s entries of the trigrams' kind: its fields' trigram sets and its pairs' unions.
    private static func entries(_ store: Store, chunk: UInt32) throws -> [(key: [UInt8], value: [UInt8])] {
        try store.log.environment.read { txn in
            var entries: [(key: [UInt8], value: [UInt8])] = []
            let prefix = SearchIndex.groupBytes(chunk) + [SearchIndex.trigram]
            try StoredTables(transaction: txn, databases: store.modelDatabases).forEach(.search, prefix: prefix) { key, value in
                if SearchIndex.isKey(key, of: chunk) { entries.append((Array(key), Array(value))) }
                return true
            }
            return entries
        }
    }

    /// A chunk that one write holds whole gets a union for every pair whose trigram sets take the threshold or
    /// more, and for no other; the next chunk, not full, gets none. Needles of two bytes (those pairs', others')
    /// answer as reading every row does, with filters and offsets, at the head and as of a point inside the
    /// full chunk. A flipped bit of a union is found by the audit and mended by `rebuild`.
    @Test func aFullChunksLargePairsAreTheUnionsOfTheirTrigramSets() throws {
        var rng = SystemRandomNumberGenerator()
        let lines = SearchIndexTests.log(scans: ChunkBits.scansPerChunk + 300, rng: &rng)
        let (store, directory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pairs = try PairSetsTests.pairs(store, chunk: 0)
        let unions = try PairSetsTests.trigramUnions(store, chunk: 0)
        #expect(pairs.count > 5)
        #expect(Set(pairs.keys) == Set(unions.filter { $0.value.bytes >= PairSets.threshold }.keys))
        for (pair, members) in pairs { #expect(members == unions[pair]?.members, "\(pair)") }
        #expect(try PairSetsTests.pairs(store, chunk: 1).isEmpty)
        #expect(try store.auditPages() == nil)

        // The pairs that are text (a pair may be half of a scalar's bytes), then others.
        let needles = PairSetsTests.needles(pairs.keys).prefix(12) + ["zq", "é", "ab", "ho"]
        for needle in needles {
            for (offset, type) in [(0, HistoryQuery.ResultFilter.all), (ChunkBits.scansPerChunk - 100, .all), (3, .failed)] {
                var q = HistoryQuery(); q.search = needle; q.offset = offset; q.limit = 5; q.type = type
                try SearchIndexTests.expectSame(store, q, asOf: nil)
            }
            var q = HistoryQuery(); q.search = needle; q.limit = 5
            try SearchIndexTests.expectSame(store, q, asOf: .seq(UInt64(lines.count / 2)))
        }

        let damaged = try #require(pairs.keys.first)
        let key = SearchIndex.pairKey(damaged[0], damaged[1], chunk: 0)
        try SearchIndexTests.flipBit(store, .search, key, byte: 5)
        let damage = try #require(try store.auditPages())
        #expect(damage.rebuildRepairs && damage.damage.map(\.database) == [ModelTable.search.name], "\(damage)")
        try store.rebuild()
        #expect(try store.auditPages() == nil)
        #expect(try PairSetsTests.pairs(store, chunk: 0) == pairs)
    }

    /// A chunk that a write begins and does not fill gets no unions (a later write adds scans to it); once a later
    /// write fills it, the same unions as a chunk one write held whole, made from its stored trigram sets
    /// (`SearchIndexWriter.remakePieces`).
    @Test func aChunkFilledByALaterWriteGetsItsPairsWhenFull() throws {
        var rng = SystemRandomNumberGenerator()
        let lines = SearchIndexTests.log(scans: ChunkBits.scansPerChunk + 20, rng: &rng)
        let events = try lines.map(Ev.decoded)
        let (whole, wholeDirectory) = try SearchIndexTests.store(lines)
        defer { try? FileManager.default.removeItem(at: wholeDirectory) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pair-sets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let split = events.count - 400
        _ = try Store.create(directory: directory.path) { appender in for e in events[..<split] { _ = try appender.append(e) } }
        let store = try Store(directory: directory.path)
        #expect(try PairSetsTests.pairs(store, chunk: 0).isEmpty, "not full yet")
        try store.write { appender in for e in events[split...] { _ = try appender.append(e) } }
        let pairs = try PairSetsTests.pairs(store, chunk: 0)
        #expect(pairs.count > 5)
        #expect(try pairs == PairSetsTests.pairs(whole, chunk: 0))
        #expect(try store.auditPages() == nil)
        for needle in PairSetsTests.needles(pairs.keys).prefix(8) {
            var q = HistoryQuery(); q.search = needle; q.limit = 5; q.offset = 7
            try SearchIndexTests.expectSame(store, q, asOf: nil)
        }
    }

    /// On the real clock, through the command line: a scan begins chunk 0, a batch fills it (its unions, its
    /// pieces, their marked list and its head follower sets then made from the stored rows) and runs into chunk
    /// 1; the log verifies after each write (every set's record checked), chunk 0 has its unions, a list of
    /// more than 64 pieces with its marks and sets past the code's head, and needles that every scan holds,
    /// that listed pieces prove and that run two bytes past the head count what the rows hold.
    @Test func aChunkFilledByABatchOnTheRealClockHasItsPairsAndItsLogVerifies() throws {
        let s = try RealClockWritesTests.Store()
        defer { s.remove() }
        try s.write(["init", "--admin", "ada", "--name", "Ada", "--email", "ada@example.org", "--passcode-stdin"], stdin: "2468\n2468\n")
        try s.write(["unlock", "--as", "ada", "--passcode-stdin"], stdin: "2468\n")
        try s.write(["scan", "--as", "ada", "--code", "https://v.example/p/0", "--product", "Serum", "--category", "Cosmetics",
                     "--result", "authentic"])
        var csv = "code,productName,category,result\n"
        // 97 products of one word and a number, each in ~80 scans of the chunk: each is listed as a piece.
        func product(_ i: Int) -> String { i % 2 == 0 ? "Serum \(i % 97)" : "Sherpa jacket" }
        for i in 0..<ChunkBits.scansPerChunk {
            csv += "https://v.example/p/\(i + 1),\(product(i)),\(i % 3 == 0 ? "Outerwear" : "Eraser"),authentic\n"
        }
        try s.write(["scan", "--as", "ada", "--batch", try s.file("fill.csv", csv)])
        let store = try Store(directory: s.path.path)
        let pairs = try PairSetsTests.pairs(store, chunk: 0)
        #expect(pairs[Array("er".utf8)]?.count == ChunkBits.scansPerChunk - 1)
        let (list, followers) = try store.log.environment.read { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            var followers = 0
            try tables.forEach(.search, prefix: SearchIndex.groupBytes(0) + [SearchIndex.headFollowing]) { key, _ in
                if SearchIndex.isKey(key, of: 0) { followers += 1 }
                return true
            }
            return (try tables.withValue(.search, SearchIndex.pieceListKey(chunk: 0)) { $0.map { Array(SealedValue.body($0)) } }, followers)
        }
        #expect(list.map { $0.count > 2 && $0[0] == 0 && $0[1] == 0 } == true, "chunk 0's list of pieces has marks")
        #expect(followers > 0)
        let codes = ["https://v.example/p/0"] + (0..<ChunkBits.scansPerChunk).map { "https://v.example/p/\($0 + 1)" }
        let products = ["Serum"] + (0..<ChunkBits.scansPerChunk).map(product)
        for (needle, total) in [("ER", ChunkBits.scansPerChunk + 1),
                                ("serum 1", products.filter { $0.lowercased().contains("serum 1") }.count),
                                ("p/123", codes.filter { $0.contains("p/123") }.count)] {
            let answer = try CLI.run(["history", "--search", needle, "--limit", "1", "--json", "--store", s.path.path])
            #expect(jsonObject(answer.stdout)?["total"] as? Int == total, "\(needle): \(answer.transcript)")
        }
    }

    /// A key of the trigrams' kind is a trigram's (9 bytes) or, for the fields', a pair's (8): any other is damage
    /// the audit names.
    @Test func aTrigramsKeyOfAnotherLengthIsDamage() throws {
        var rng = SystemRandomNumberGenerator()
        for kind in [SearchIndex.trigram, SearchIndex.trigram | SearchIndex.messageFlag] {
            let (store, directory) = try SearchIndexTests.store(SearchIndexTests.log(scans: 50, rng: &rng))
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(try store.auditPages() == nil)
            let odd = kind == SearchIndex.trigram ? SearchIndex.groupBytes(0) + [kind, 1, 2, 3, 4, 0] : SearchIndex.groupBytes(0) + [kind, 1, 2, 0]
            try store.log.environment.write { txn in
                try StoredTables(transaction: txn, databases: store.modelDatabases).put(.search, odd, SealedValue.seal(key: odd, [1]))
            }
            let damage = try #require(try store.auditPages())
            #expect("\(damage)".contains("a trigram's key of \(odd.count) bytes"), "\(damage)")
        }
    }
}
