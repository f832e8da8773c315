import Domain
@testable import Engine
import EventLog
import Foundation
@testable import LMDB
@testable import Projections
import StrictJSON
import Testing
import TestSupport

/// Small writes leave their scans out of the search index's sets (`SearchIndex.unindexedKey`) until
/// `SearchIndex.unindexedLimit` of them are left out or their chunk is full, and queries read those scans'
/// rows: the answers must be what reading every row gives, whichever scans are left out, at the head and as
/// of any point, with reports (and their messages) on scans left out and on scans in the sets.
@Suite struct UnindexedScansTests {
    /// The mark of the scans left out (nil: none; first 0: a mark that does not read).
    static func mark(_ store: Store) throws -> UnindexedScans? {
        try store.log.environment.read { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).withValue(.search, SearchIndex.unindexedKey) { value in
                value.map { UnindexedScans(stored: $0) ?? UnindexedScans(first: 0) }
            }
        }
    }

    /// The first scan left out, as stored (nil: none).
    static func firstLeftOut(_ store: Store) throws -> UInt32? { try mark(store)?.first }

    /// A store of `events`' first `count`, made in one write (so that none is left out).
    static func store(_ events: [IncomingEvent], first count: Int) throws -> (Store, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unindexed-\(UUID().uuidString)")
        _ = try Store.create(directory: directory.path) { appender in for e in events[..<count] { _ = try appender.append(e) } }
        return (try Store(directory: directory.path), directory)
    }

    static func scans(_ store: Store) throws -> UInt32 {
        try store.log.environment.read { txn in
            UInt32(try Models(tables: StoredTables(transaction: txn, databases: store.modelDatabases),
                              log: LogReader(log: store.log, transaction: txn)).totals().scans)
        }
    }

    /// A store a few hundred scans short of its first chunk's end, then writes of 1 to 60 events (scans, and
    /// reports on recent scans and on old ones, with and without a message) past the chunk's end and past the
    /// limit twice over, the scans left out added a slice of the sets at a time: every so many writes, random
    /// queries both ways, at the head and as of a point.
    @Test func scansLeftOutOfTheSetsAnswerAsReadingEveryRowDoes() throws {
        var rng = SystemRandomNumberGenerator()
        let firstPart = ChunkBits.scansPerChunk - 400
        var lines = SearchIndexTests.log(scans: firstPart + 2 * Int(UnindexedScans.limit) + 1_300, rng: &rng)
        let split = try #require(lines.indices.filter { lines[$0].contains("\"s-\(firstPart)\"") && lines[$0].contains("scan.recorded") }.first) + 1
        // Reports with a message on scans of the first part, written long after them, among the small writes.
        let reported = Set(lines.filter { $0.contains("counterfeit.reported") }.compactMap { $0.firstMatch(of: /"scanId":"s-([0-9]+)"/) }.map { Int($0.1)! })
        for (n, near) in [(200, 17), (900, 5_000), (1_700, firstPart - 30)] {
            let target = try #require((near..<(near + 30)).first { !reported.contains($0) })
            let before = String(try #require(lines[split + n - 1].firstMatch(of: /"at":"([^"]+)"/)).1)
            let report = Ev.report("s-\(target)", reason: "label", by: "marco", at: before, extra: #","message":"Kyoto wharf \#(n) hologram""#)
            lines.insert(report, at: split + n)
        }
        let events = try lines.map(Ev.decoded)
        let (store, directory) = try UnindexedScansTests.store(events, first: split)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try UnindexedScansTests.firstLeftOut(store) == nil)
        var at = split, writes = 0
        var leftOut: [Int] = [], flushed = 0, slices: Set<UInt8> = []
        while at < events.count {
            let end = min(events.count, at + Int.random(in: 1...60, using: &rng))
            try store.write { appender in for e in events[at..<end] { _ = try appender.append(e) } }
            at = end
            writes += 1
            let scans = try UnindexedScansTests.scans(store)
            if let mark = try UnindexedScansTests.mark(store) {
                // Only the newest (from the one after the last, at most), fewer than the most, and never across a
                // chunk's end; those being added are the first of them.
                #expect(mark.first > 0 && mark.first <= scans + 1)
                #expect(scans + 1 - mark.first < UnindexedScans.most)
                #expect(SearchIndex.chunk(of: mark.first) == SearchIndex.chunk(of: scans))
                if let adding = mark.adding {
                    #expect(adding.end > mark.first && adding.end <= scans + 1)
                    slices.insert(adding.slice)
                }
                leftOut.append(Int(scans + 1 - mark.first))
            } else {
                flushed += 1
            }
            if writes % 12 == 0 {
                for _ in 0..<8 {
                    let asOf: AsOf? = Bool.random(using: &rng) ? nil : .seq(UInt64.random(in: UInt64(split)...UInt64(at), using: &rng))
                    try SearchIndexTests.expectSame(store, SearchIndexTests.query(&rng), asOf: asOf)
                }
            }
        }
        // Scans were left out most of the time, added a slice at a time (every slice seen), and added in one
        // write at the chunk's end.
        #expect(leftOut.count > writes / 2)
        #expect(leftOut.contains { $0 > Int(UnindexedScans.limit) })
        #expect(slices == Set(0..<UnindexedScans.slices))
        #expect(flushed >= 1)
        #expect(try store.auditPages() == nil)
        let needles = ["kyoto", "wharf 9", "hologram", "e", "ser", "s-16", "s-1580", "7?lot=0", "zzq"]
        for needle in needles {
            var q = HistoryQuery(); q.search = needle; q.limit = 30
            try SearchIndexTests.expectSame(store, q, asOf: nil)
            q.offset = 200
            try SearchIndexTests.expectSame(store, q, asOf: nil)
        }
        for _ in 0..<60 { try SearchIndexTests.expectSame(store, SearchIndexTests.query(&rng), asOf: nil) }
        // A rebuild keeps the index, and what it leaves out.
        let before = try UnindexedScansTests.firstLeftOut(store)
        try store.rebuild()
        #expect(try SearchIndexTests.readiness(store) == (true, true))
        #expect(try UnindexedScansTests.firstLeftOut(store) == before)
        for needle in needles {
            var q = HistoryQuery(); q.search = needle; q.limit = 30
            try SearchIndexTests.expectSame(store, q, asOf: nil)
        }
    }

    /// A write of more scans than are left out at most adds those left out before it and its own: none is left
    /// out after.
    /// A scan left out and reported (in a write of its own) is added with its report's message apart from its
    /// fields: as of before the report, the message is no match.
    @Test func aLargeWriteAddsTheScansLeftOutBeforeIt() throws {
        var rng = SystemRandomNumberGenerator()
        var lines = SearchIndexTests.log(scans: 4_000, rng: &rng)
        let reported = Set(lines.filter { $0.contains("counterfeit.reported") }.compactMap { $0.firstMatch(of: /"scanId":"(s-[0-9]+)"/) }.map { String($0.1) })
        let scanId = try #require(lines[1_000..<1_020].lazy.filter { $0.contains("scan.recorded") }
            .compactMap { $0.firstMatch(of: /"scanId":"(s-[0-9]+)"/) }.map { String($0.1) }.first { !reported.contains($0) })
        let at = String(try #require(lines[1_019].firstMatch(of: /"at":"([^"]+)"/)).1)
        lines.insert(Ev.report(scanId, reason: "label", by: "marco", at: at, extra: #","message":"Zebra crossing""#), at: 1_020)
        let events = try lines.map(Ev.decoded)
        let (store, directory) = try UnindexedScansTests.store(events, first: 1_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.write { appender in for e in events[1_000..<1_020] { _ = try appender.append(e) } }
        #expect(try UnindexedScansTests.firstLeftOut(store) != nil)
        try store.write { appender in _ = try appender.append(events[1_020]) }
        try store.write { appender in for e in events[1_021...] { _ = try appender.append(e) } }
        #expect(try UnindexedScansTests.firstLeftOut(store) == nil)
        for needle in ["zeb", "zebra", "ebra cr", "a c"] {
            var q = HistoryQuery(); q.search = needle; q.limit = 100
            for asOf: AsOf? in [nil, .seq(1_020), .seq(1_021)] { try SearchIndexTests.expectSame(store, q, asOf: asOf) }
        }
        for _ in 0..<60 { try SearchIndexTests.expectSame(store, SearchIndexTests.query(&rng), asOf: nil) }
    }

    /// A store whose index is of form 11 (written before scans were left out) leaves none out: a binary of
    /// that form reads its sets and not the rows of scans left out.
    @Test func anIndexOfTheFormBeforeLeavesNoScanOut() throws {
        var rng = SystemRandomNumberGenerator()
        let events = try SearchIndexTests.log(scans: 1_200, rng: &rng).map(Ev.decoded)
        let (store, directory) = try UnindexedScansTests.store(events, first: 1_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            try tables.delete(.search, SearchIndex.readyKey)
            try tables.put(.search, SearchIndex.readyKey(form: 11), [])
        }
        try store.write { appender in for e in events[1_000..<1_010] { _ = try appender.append(e) } }
        #expect(try UnindexedScansTests.firstLeftOut(store) == nil)
        #expect(try SearchIndexTests.readiness(store) == (true, false))
        // A rebuild keeps it and makes it current; small writes then leave scans out.
        try store.rebuild()
        #expect(try SearchIndexTests.readiness(store) == (true, true))
        try store.write { appender in for e in events[1_010..<1_020] { _ = try appender.append(e) } }
        #expect(try UnindexedScansTests.firstLeftOut(store) != nil)
        for _ in 0..<40 { try SearchIndexTests.expectSame(store, SearchIndexTests.query(&rng), asOf: nil) }
    }

    /// A flipped bit of the mark is found by `log verify`'s audit; meanwhile every scan is read from its row
    /// (the answers stay right), and `rebuild` makes the index again, every scan in its sets.
    @Test func aDamagedMarkLeavesEveryScanToItsRowUntilARebuild() throws {
        var rng = SystemRandomNumberGenerator()
        let events = try SearchIndexTests.log(scans: 1_200, rng: &rng).map(Ev.decoded)
        let (store, directory) = try UnindexedScansTests.store(events, first: 1_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.write { appender in for e in events[1_000..<1_030] { _ = try appender.append(e) } }
        #expect(try UnindexedScansTests.firstLeftOut(store) != nil)
        try SearchIndexTests.flipBit(store, .search, SearchIndex.unindexedKey, byte: 3)
        let damage = try #require(try store.auditPages())
        #expect(damage.rebuildRepairs && "\(damage)".contains("left out of the search index"), "\(damage)")
        // Writes go on, their scans in the sets; the answers are the rows'.
        try store.write { appender in for e in events[1_030..<1_060] { _ = try appender.append(e) } }
        for _ in 0..<40 { try SearchIndexTests.expectSame(store, SearchIndexTests.query(&rng), asOf: nil) }
        try store.rebuild()
        #expect(try store.auditPages() == nil)
        #expect(try UnindexedScansTests.firstLeftOut(store) == nil)
        for _ in 0..<40 { try SearchIndexTests.expectSame(store, SearchIndexTests.query(&rng), asOf: nil) }
    }
}
