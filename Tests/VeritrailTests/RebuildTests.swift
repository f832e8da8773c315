import EventLog
import Domain
@testable import Engine
import Foundation
import LMDB
@testable import Projections
import TestSupport
import XCTest

/// `rebuild` leaves a stored scan list alone when it is what the log gives, and writes every table again
/// when it is not: a rebuilt store answers as one built by `import`, whatever was wrong with its list.
final class RebuildTests: XCTestCase {
    private let now = "2026-11-20T18:00:00Z"

    /// Answers that show every part of the scan list: rows (with reports and `seenBefore`), the search
    /// text, the per-actor index and the scanId index.
    private func answers(_ store: URL) throws -> [String] {
        let queries: [[String]] = [
            ["history", "--window", "all", "--limit", "1000"], ["history", "--search", "e", "--window", "all", "--limit", "1000"],
            ["history", "--as", "ines", "--window", "all", "--limit", "1000"], ["stats"], ["stats", "--by", "ines"],
        ]
        return try queries.map { q in try ok(q + ["--json", "--store", store.path, "--now", now]).stdout }
    }

    /// Changes the stored models of `store` in one write transaction.
    private func damage(_ store: URL, _ change: (StoredTables) throws -> Void) throws {
        let opened = try Store(directory: store.path)
        try opened.log.environment.write { txn in
            try change(StoredTables(transaction: txn, databases: opened.modelDatabases))
        }
    }

    private func rebuild(_ store: URL) throws -> Store.RebuildSummary {
        try Store(directory: store.path).rebuild()
    }

    private func firstEntry(_ tables: StoredTables, _ table: ModelTable, after skipping: Int = 0) throws -> ([UInt8], [UInt8]) {
        var found: ([UInt8], [UInt8])?
        var skipped = 0
        try tables.forEach(table, prefix: []) { key, value in
            if skipped < skipping { skipped += 1; return true }
            found = (Array(key), Array(value))
            return false
        }
        return try XCTUnwrap(found)
    }

    /// The key of the first row whose scan was reported.
    private func reportedRow(_ tables: StoredTables) throws -> [UInt8] {
        var reported: [UInt8]?
        try tables.forEach(.scans, prefix: []) { key, value in
            guard value[16] & 2 != 0 else { return true }  // the flags byte: reported
            reported = Array(key)
            return false
        }
        return try XCTUnwrap(reported)
    }

    func testRebuildKeepsAScanListThatIsWhatTheLogGives() throws {
        let store = temporaryPath()
        try importOK(demoEvents, into: store)
        let before = try answers(store)
        let summary = try rebuild(store)
        XCTAssertFalse(summary.rewroteScanList)
        XCTAssertEqual(summary.events, UInt64(try lines(of: demoEvents).count))
        XCTAssertEqual(try answers(store), before)
        let r = try ok(["rebuild", "--store", store.path, "--json"])
        XCTAssertEqual(jsonObject(r.stdout)?["scanListRewritten"] as? Bool, false, r.stdout)
    }

    /// A rebuild reads nearly every page of the store in order: it asks the kernel to read ahead
    /// (`Environment.readingMuch`), or a store out of the page cache is read a 4 KiB page at each fault
    /// (docs/BULK.md, "A rebuild out of the page cache"). The map is advised `MADV_RANDOM` again after it, as
    /// LMDB left it (`MDB_NORDAHEAD`), for the lookups of queries. The advice shows in the map's `VmFlags`
    /// (`rr`: random reads).
    func testRebuildReadsAheadAndLeavesTheMapAsItWas() throws {
        let store = temporaryPath()
        try importOK(demoEvents, into: store)
        let opened = try Store(directory: store.path)
        /// Whether every map of the store's data file is advised random reads; nil when none is mapped.
        func advisedRandom() -> Bool? {
            guard let flags = try? MappedFile.flags(of: store.appendingPathComponent("data.mdb").path), !flags.isEmpty else { return nil }
            return flags.allSatisfy { $0.contains("rr") }
        }
        var during: [Bool?] = []
        try opened.rebuild { _ in during.append(advisedRandom()) }
        XCTAssertFalse(during.isEmpty)
        XCTAssert(during.allSatisfy { $0 == false }, "\(during)")
        XCTAssertEqual(advisedRandom(), true)
    }

    /// An import past `CodeCounts.importLimit` distinct codes writes the codes it held, then counts codes
    /// through the code filter (`CodeFilter`): codes scanned before the write are found in the table, new
    /// ones are not. The stored scan list must be what a rebuild makes of the log. The 30 MB file also
    /// takes the import's reader past several drops of the pages it read.
    func testCodesAreCountedAcrossTheHeldCodesLimit() throws {
        let distinct = CodeCounts.importLimit + 4_000
        let setup = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z")]
        var lines = setup
        lines.reserveCapacity(distinct + 3_000)
        for i in 0..<distinct { lines.append(Ev.scan("s-\(i)", by: "ines", at: "2026-11-02T00:00:00Z", code: "C-\(i)")) }
        // Codes written to the table (the first ones), held codes (the last ones), and new codes.
        let again = [0, 1, 2_999, distinct - 1, distinct - 2]
        for (n, i) in again.enumerated() {
            lines.append(Ev.scan("again-\(n)", by: "ines", at: "2026-11-03T00:00:00Z", code: "C-\(i)"))
        }
        lines.append(Ev.scan("again-twice", by: "ines", at: "2026-11-03T00:00:00Z", code: "C-0"))
        for i in 0..<2_000 { lines.append(Ev.scan("new-\(i)", by: "ines", at: "2026-11-03T00:00:00Z", code: "N-\(i)")) }

        let store = temporaryPath()
        try importOK(try ndjsonFile(lines), into: store)
        func seenBefore(_ scanId: String) throws -> Int? {
            jsonObject(try ok(["show", scanId, "--json", "--store", store.path]).stdout)?["seenBefore"] as? Int
        }
        for n in again.indices { XCTAssertEqual(try seenBefore("again-\(n)"), 1, "again-\(n)") }
        XCTAssertEqual(try seenBefore("again-twice"), 2)
        XCTAssertEqual(try seenBefore("new-1999"), 0)
        XCTAssertEqual(try seenBefore("s-\(distinct - 1)"), 0)
        // A rebuild that keeps the list counts the codes the same way, past the limit too, and writes the
        // same `codes` table.
        let codesBefore = try codesTable(store)
        let summary = try rebuild(store)
        XCTAssertFalse(summary.rewroteScanList)
        XCTAssertFalse(summary.rewroteCodes)
        XCTAssertEqual(try codesTable(store), codesBefore)
        XCTAssertEqual(codesBefore.count, distinct + 2_000)
    }

    /// One actor's scans past `PendingIndexes.limit`, of a few codes (so that the held codes never reach
    /// theirs): the held `scansByActor` entries are written when they reach their limit, then held again
    /// from the next `n`. `history --by` pages across the seam, and a rebuild finds the stored list sound.
    func testOneActorsScansAreWrittenAcrossTheHeldEntriesLimit() throws {
        let count = PendingIndexes.limit + 3_000
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z")]
        lines.reserveCapacity(count + 2)
        for i in 0..<count { lines.append(Ev.scan("s-\(i)", by: "ines", at: "2026-11-02T00:00:00Z", code: "C-\(i % 8)")) }
        let store = temporaryPath()
        try importOK(try ndjsonFile(lines), into: store)
        // Newest first: offset k is the scan `count - 1 - k`; the seam lies between scans limit - 1 and limit.
        let r = try ok(["history", "--by", "ines", "--window", "all", "--offset", "2998", "--limit", "4", "--json",
                        "--store", store.path, "--now", now])
        let items = jsonObject(r.stdout)?["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(items.compactMap { $0["scanId"] as? String }, (0..<4).map { "s-\(count - 1 - 2_998 - $0)" }, r.stdout)
        XCTAssertEqual(jsonObject(r.stdout)?["total"] as? Int, count)
        XCTAssertFalse(try rebuild(store).rewroteScanList)
    }

    /// A log whose codes are scanned once, twice and four times, with a report; `seenBefore` shows in
    /// `history`'s answers.
    private func repeatedCodesStore() throws -> URL {
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z")]
        for i in 0..<40 { lines.append(Ev.scan("s-\(i)", by: "ines", at: "2026-11-02T00:00:00Z", code: "C-\(i)")) }
        for (n, i) in [3, 3, 7, 3, 11].enumerated() {
            lines.append(Ev.scan("again-\(n)", by: "ines", at: "2026-11-03T00:00:00Z", code: "C-\(i)"))
        }
        lines.append(Ev.report("s-3", reason: "packaging", by: "ines", at: "2026-11-04T00:00:00Z"))
        let store = temporaryPath()
        try importOK(try ndjsonFile(lines), into: store)
        return store
    }

    /// A rebuild keeps a `codes` table that is what the log gives (`KeptCodes`), and writes a damaged one
    /// again, keeping the scan list: each damage below changes the counts the log gives, in each of the ways
    /// the check must see (a code the table counts once or not at all that the log scans more often; a code
    /// counted more than once that the log scans once; a count off by one; an entry the log does not give;
    /// an entry of another shape, which is not read at all).
    func testRebuildKeepsACodesTableThatIsWhatTheLogGivesAndWritesADamagedOneAgain() throws {
        let original = try repeatedCodesStore()
        let before = try answers(original)
        let codesBefore = try codesTable(original)
        XCTAssertEqual(codesBefore.count, 40)
        let kept = try rebuild(try copyStore(original))
        XCTAssertFalse(kept.rewroteScanList)
        XCTAssertFalse(kept.rewroteCodes)

        func key(_ code: String) -> [UInt8] { Array(code.utf8).withUnsafeBytes { CodeDigest(utf8: $0) }.storedKey }
        let damages: [(String, (StoredTables) throws -> Void)] = [
            ("a code scanned four times counted once", { t in try t.put(.codes, key("C-3"), UInt32(1).bigEndianBytes) }),
            ("a code scanned twice counted once", { t in try t.put(.codes, key("C-7"), UInt32(1).bigEndianBytes) }),
            ("a code scanned twice missing", { t in try t.delete(.codes, key("C-11")) }),
            ("a code scanned once counted twice", { t in try t.put(.codes, key("C-20"), UInt32(2).bigEndianBytes) }),
            ("a code scanned four times counted five times", { t in try t.put(.codes, key("C-3"), UInt32(5).bigEndianBytes) }),
            ("a code scanned once missing", { t in try t.delete(.codes, key("C-21")) }),
            ("a code the log never scans", { t in try t.put(.codes, key("N-1"), UInt32(1).bigEndianBytes) }),
            ("a code the log never scans, counted twice", { t in try t.put(.codes, key("N-2"), UInt32(2).bigEndianBytes) }),
            ("a count cut short", { t in try t.put(.codes, key("C-22"), [0, 1]) }),
        ]
        for (what, change) in damages {
            let store = try copyStore(original)
            try damage(store, change)
            XCTAssertNotEqual(try codesTable(store), codesBefore, what)
            let summary = try rebuild(store)
            XCTAssertFalse(summary.rewroteScanList, what)
            XCTAssertTrue(summary.rewroteCodes, what)
            XCTAssertEqual(try codesTable(store), codesBefore, what)
            XCTAssertEqual(try answers(store), before, what)
            XCTAssertFalse(try rebuild(store).rewroteCodes, "\(what): a second rebuild keeps the table")
            // The table as the import left it: the fourth scan of C-3 has three before it.
            let again = try ok(["show", "again-3", "--json", "--store", store.path])
            XCTAssertEqual(jsonObject(again.stdout)?["seenBefore"] as? Int, 3, what)
        }
    }

    /// The codes a rebuild would hold to keep the table are bounded (`CodeCounts.heldLimit`): past the
    /// limit, the table is not kept but written again.
    func testACodesTableWithMoreRepeatedCodesThanTheLimitIsNotKept() throws {
        let store = try repeatedCodesStore()
        try Store(directory: store.path).log.environment.read { txn in
            XCTAssertNotNil(try KeptCodes.read(txn, limit: 3))  // C-3, C-7 and C-11
            XCTAssertNil(try KeptCodes.read(txn, limit: 2))
        }
    }

    /// Every entry of the `codes` table, in order.
    private func codesTable(_ store: URL) throws -> [[UInt8]] {
        let opened = try Store(directory: store.path)
        return try opened.log.environment.read { txn in
            var entries: [[UInt8]] = []
            try StoredTables(transaction: txn, databases: opened.modelDatabases).forEach(.codes, prefix: []) { key, value in
                entries.append(Array(key) + Array(value))
                return true
            }
            return entries
        }
    }

    func testRebuildWritesAStaleScanListAgain() throws {
        let original = temporaryPath()
        try importOK(demoEvents, into: original)
        let before = try answers(original)
        let damages: [(String, (StoredTables) throws -> Void)] = [
            ("a changed byte in a row", { t in
                var (key, row) = try self.firstEntry(t, .scans, after: 4)
                row[row.count / 2] ^= 0x20
                try t.put(.scans, key, row)
            }),
            ("a row the log does not give", { t in
                let (_, row) = try self.firstEntry(t, .scans)
                try t.put(.scans, UInt32(100_000).bigEndianBytes, row)
            }),
            ("a missing scanId", { t in try t.delete(.scanIds, try self.firstEntry(t, .scanIds).0) }),
            ("a scanId pointing at another scan", { t in
                let (key, _) = try self.firstEntry(t, .scanIds)
                try t.put(.scanIds, key, UInt32(3).bigEndianBytes)
            }),
            ("an actor's scans out of order", { t in
                let (k1, v1) = try self.firstEntry(t, .scansByActor)
                let (k2, v2) = try self.firstEntry(t, .scansByActor, after: 1)
                try t.put(.scansByActor, k1, v2)
                try t.put(.scansByActor, k2, v1)
            }),
            ("another scan's row in place of a reported one", { t in
                try t.put(.scans, try self.reportedRow(t), try self.firstEntry(t, .scans).1)
            }),
            // The rebuild reads this row for its report, and the other thread can not read it either.
            ("a reported row too short to read", { t in try t.put(.scans, try self.reportedRow(t), [1, 2, 3]) }),
        ]
        for (what, change) in damages {
            let store = try copyStore(original)
            try damage(store, change)
            let summary = try rebuild(store)
            XCTAssertTrue(summary.rewroteScanList, what)
            XCTAssertEqual(try answers(store), before, what)
            XCTAssertFalse(try rebuild(store).rewroteScanList, "\(what): a second rebuild finds the list up to date")
        }
    }
}
