import Domain
@testable import Engine
import EventLog
import Foundation
@testable import LMDB
@testable import Projections
import Testing
import TestSupport

/// A served store's writes leave the chunks they fill to a later write to make their pieces again
/// (`DuePieces`, `RemadePieces`, `PieceRemaker`): meanwhile the answers are the rows', after it the chunk has
/// what a chunk whose pieces were made in the write that filled it has, with the reports made since the
/// snapshot merged in; a write that does not defer makes them itself; the served store's thread makes them
/// on its own, and those a store killed before left due when it starts.
@Suite struct DuePiecesTests {
    /// The chunks whose pieces are due, as stored.
    static func due(_ store: Store) throws -> [UInt32] {
        try store.read { _, models in try models.chunksWithPiecesDue() }
    }

    /// The number of pieces chunk 0 lists.
    static func listed(_ store: Store) throws -> Int {
        try store.read { _, models in
            try models.tables.withValue(.search, SearchIndex.pieceListKey(chunk: 0)) { list in
                var count = 0
                if let list { PieceNumbers.forEach(SealedValue.body(list)) { _ in count += 1 } }
                return count
            }
        }
    }

    /// Every entry of the search index.
    static func entries(_ store: Store) throws -> [[UInt8]] {
        try store.read { _, models in
            var entries: [[UInt8]] = []
            try models.tables.forEach(.search, prefix: []) { key, value in
                entries.append(Array(key) + [0xFF] + Array(value))
                return true
            }
            return entries
        }
    }

    /// Events of a log of a chunk and a few hundred scans, with five reports with one message on scans of
    /// the first part of chunk 0, put 40 events after its end; the index of the event of the scan that fills
    /// chunk 0, and the reported scans' ordinals.
    static func events() throws -> (events: [IncomingEvent], fills: Int, reported: [Int]) {
        var rng = SystemRandomNumberGenerator()
        var lines = SearchIndexTests.log(scans: ChunkBits.scansPerChunk + 300, rng: &rng)
        let fills = try #require(lines.indices.first { lines[$0].contains("\"s-\(ChunkBits.scansPerChunk - 1)\"") && lines[$0].contains("scan.recorded") })
        let taken = Set(lines.filter { $0.contains("counterfeit.reported") }.compactMap { $0.firstMatch(of: /"scanId":"s-([0-9]+)"/) }
            .map { Int($0.1)! })
        let reported = Array((100..<400).filter { !taken.contains($0) }.prefix(5))
        let near = 40
        let at = String(try #require(lines[fills + near].firstMatch(of: /"at":"([^"]+)"/)).1)
        for (n, scan) in reported.enumerated() {
            lines.insert(Ev.report("s-\(scan)", reason: "label", by: "marco", at: at, extra: #","message":"Kyoto wharf hologram""#),
                         at: fills + near + 1 + n)
        }
        // Scan `s-N` is the scan of ordinal N.
        return (try lines.map(Ev.decoded), fills, reported)
    }

    /// A store of `events` up to `split` in one write.
    static func store(_ events: [IncomingEvent], first split: Int) throws -> (Store, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("due-pieces-\(UUID().uuidString)")
        _ = try Store.create(directory: directory.path) { appender in for e in events[..<split] { _ = try appender.append(e) } }
        return (try Store(directory: directory.path), directory)
    }

    /// Writes `events[range]` a few at a time, each write leaving the chunks it fills due when `deferring`.
    static func write(_ store: Store, _ events: [IncomingEvent], _ range: Range<Int>, deferring: Bool) throws {
        var at = range.lowerBound
        while at < range.upperBound {
            let end = min(range.upperBound, at + 7)
            try store.write { appender in
                if deferring { appender.models.deferChunkPieces() }
                for e in events[at..<end] { _ = try appender.append(e) }
            }
            at = end
        }
    }

    static let needles = ["kyoto", "wharf h", "hologram", "e", "ser", "s-16", "7?lot=0", "-2", "zzq"]

    static func expectRowsAnswers(_ store: Store, asOf: [AsOf?]) throws {
        var rng = SystemRandomNumberGenerator()
        for needle in needles {
            var q = HistoryQuery(); q.search = needle; q.limit = 40
            for point in asOf { try SearchIndexTests.expectSame(store, q, asOf: point) }
        }
        for _ in 0..<40 { try SearchIndexTests.expectSame(store, SearchIndexTests.query(&rng), asOf: nil) }
    }

    /// Small writes fill chunk 0 and name it due; its pieces are made from a snapshot, five reports with one
    /// message come after it, and a later write stores the pieces with those reports merged in: the chunk then
    /// has the pairs' unions and about as many pieces as a chunk made in the write that filled it, the
    /// message listed whole with all five, and every answer is the rows', at the head and as of points
    /// between. Pieces of a chunk no longer due change nothing.
    @Test func piecesMadeFromASnapshotAreStoredByALaterWriteWithTheReportsSince() throws {
        let (events, fills, reported) = try DuePiecesTests.events()
        let (store, directory) = try DuePiecesTests.store(events, first: fills - 200)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (inline, inlineDirectory) = try DuePiecesTests.store(events, first: fills - 200)
        defer { try? FileManager.default.removeItem(at: inlineDirectory) }
        try DuePiecesTests.write(inline, events, (fills - 200)..<(fills + 1), deferring: false)

        try DuePiecesTests.write(store, events, (fills - 200)..<(fills + 1), deferring: true)
        #expect(try DuePiecesTests.due(store) == [0])
        #expect(try PairSetsTests.pairs(store, chunk: 0).isEmpty, "not made yet")
        #expect(try store.auditPages() == nil)
        try DuePiecesTests.expectRowsAnswers(store, asOf: [nil])

        let snapshot = UInt64(fills + 1)
        let pieces = try store.read { reader, models in try models.remadePieces(of: 0, head: try reader.head().seq) }
        try DuePiecesTests.write(store, events, (fills + 1)..<events.count, deferring: true)
        #expect(try DuePiecesTests.due(store) == [0], "writes that defer leave it due")
        try store.write { appender in
            appender.models.deferChunkPieces()
            appender.models.storeRemadePieces(pieces)
        }
        #expect(try DuePiecesTests.due(store).isEmpty)
        #expect(try PairSetsTests.pairs(store, chunk: 0) == PairSetsTests.pairs(inline, chunk: 0))
        #expect(try PairSetsTests.pairs(store, chunk: 0).count > 5)
        let listed = try DuePiecesTests.listed(store), listedInline = try DuePiecesTests.listed(inline)
        #expect(listed >= listedInline && listed <= listedInline + 2, "\(listed) against \(listedInline)")
        let whole = try ChunkValuesTests.members(store, key: SearchIndex.wholeMessagesKey(chunk: 0))
        #expect(reported.allSatisfy { whole.contains(SearchIndex.offset(of: UInt32($0))) }, "\(whole) \(reported)")
        #expect(try store.auditPages() == nil)
        try DuePiecesTests.expectRowsAnswers(store, asOf: [nil, .seq(snapshot), .seq(snapshot + 45), .seq(UInt64(fills - 100))])

        // Stored again, the same pieces find their chunk no longer due: nothing changes.
        let before = try DuePiecesTests.entries(store)
        try store.write { appender in appender.models.storeRemadePieces(pieces) }
        #expect(try DuePiecesTests.entries(store) == before)
    }

    /// A write that does not defer (the command line's) makes the pieces of the chunks a served store left
    /// due, killed before its thread made them; a mark that does not read is found by the audit, taken as
    /// naming no chunk, and taken away by the next write that does not defer.
    @Test func aWriteThatDoesNotDeferMakesThePiecesOfTheChunksDue() throws {
        let (events, fills, _) = try DuePiecesTests.events()
        let (store, directory) = try DuePiecesTests.store(events, first: fills - 100)
        defer { try? FileManager.default.removeItem(at: directory) }
        try DuePiecesTests.write(store, events, (fills - 100)..<(fills + 30), deferring: true)
        #expect(try DuePiecesTests.due(store) == [0])
        try DuePiecesTests.write(store, events, (fills + 30)..<(fills + 31), deferring: false)
        #expect(try DuePiecesTests.due(store).isEmpty)
        try DuePiecesTests.expectPiecesMade(store)

        // A damaged mark.
        try store.log.environment.write { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).put(.search, SearchIndex.piecesDueKey, DuePieces.stored([0, 3]))
        }
        #expect(try DuePiecesTests.due(store) == [0, 3])
        try SearchIndexTests.flipBit(store, .search, SearchIndex.piecesDueKey, byte: 2)
        #expect(try DuePiecesTests.due(store).isEmpty)
        let damage = try #require(try store.auditPages())
        #expect(damage.rebuildRepairs && "\(damage)".contains("pieces are due"), "\(damage)")
        try DuePiecesTests.write(store, events, (fills + 31)..<(fills + 32), deferring: true)
        #expect(try store.auditPages() != nil, "a write that defers and fills no chunk does not read the mark")
        try DuePiecesTests.write(store, events, (fills + 32)..<(fills + 33), deferring: false)
        #expect(try store.auditPages() == nil)
        try DuePiecesTests.expectRowsAnswers(store, asOf: [nil])
    }

    /// A store whose index is of form 11 (which binaries before the mark read and verify) gets no mark: a write
    /// that would defer makes the pieces of the chunk it fills itself.
    @Test func anIndexOfTheFormBeforeNamesNoChunkDue() throws {
        let (events, fills, _) = try DuePiecesTests.events()
        let (store, directory) = try DuePiecesTests.store(events, first: fills - 100)
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            try tables.delete(.search, SearchIndex.readyKey)
            try tables.put(.search, SearchIndex.readyKey(form: 11), [])
        }
        try DuePiecesTests.write(store, events, (fills - 100)..<(fills + 30), deferring: true)
        #expect(try DuePiecesTests.due(store).isEmpty)
        try DuePiecesTests.expectPiecesMade(store)
    }

    /// A served store (`groupCommits`) makes the pieces of the chunk its writes fill on its remaker's thread,
    /// without a write asking; a store opened with a chunk due (a server killed before) makes them once it
    /// groups its commits. Waits up to a minute for each: the thread is the real one.
    @Test func aServedStoreMakesThePiecesOnAThreadOfItsOwn() throws {
        let (events, fills, _) = try DuePiecesTests.events()
        let (store, directory) = try DuePiecesTests.store(events, first: fills - 100)
        defer { try? FileManager.default.removeItem(at: directory) }
        store.groupCommits()
        try DuePiecesTests.write(store, events, (fills - 100)..<(fills + 60), deferring: false)
        try DuePiecesTests.waitUntilNoneDue(store)
        try DuePiecesTests.expectPiecesMade(store)

        let (killed, killedDirectory) = try DuePiecesTests.store(events, first: fills - 100)
        defer { try? FileManager.default.removeItem(at: killedDirectory) }
        try DuePiecesTests.write(killed, events, (fills - 100)..<(fills + 60), deferring: true)
        #expect(try DuePiecesTests.due(killed) == [0])
        let reopened = try Store(directory: killedDirectory.path)
        reopened.groupCommits()
        try DuePiecesTests.waitUntilNoneDue(reopened)
        try DuePiecesTests.expectPiecesMade(reopened)
    }

    /// Chunk 0's pieces made again (its pairs' unions among them), the store sound, and the answers the rows'.
    static func expectPiecesMade(_ store: Store) throws {
        #expect(try PairSetsTests.pairs(store, chunk: 0).count > 5)
        #expect(try store.auditPages() == nil)
        try expectRowsAnswers(store, asOf: [nil])
    }

    static func waitUntilNoneDue(_ store: Store) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !due(store).isEmpty {
            #expect(Date() < deadline, "the chunk is still due")
            if Date() >= deadline { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
