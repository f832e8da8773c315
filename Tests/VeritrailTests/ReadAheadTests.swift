import Domain
@testable import Engine
import Foundation
import TestSupport
import XCTest

/// What reads much of a store in order asks the kernel to read ahead (`Environment.readingMuch`): a store is
/// opened with `MDB_NORDAHEAD`, which advises its map `MADV_RANDOM`, so that a page out of the page cache is
/// otherwise read alone at each fault (docs/BULK.md, "A rebuild, an export out of the page cache"). What reads a few
/// pages, and everything after, reads as LMDB left the map. The advice shows in the map's `VmFlags`
/// (`rr`: random reads).
final class ReadAheadTests: XCTestCase {
    /// Whether every map of the store's data file is advised random reads; nil when none is mapped.
    private func advisedRandom(_ store: URL) -> Bool? {
        guard let flags = try? MappedFile.flags(of: store.appendingPathComponent("data.mdb").path), !flags.isEmpty else { return nil }
        return flags.allSatisfy { $0.contains("rr") }
    }

    func testRebuildReadsAheadAndLeavesTheMapAsItWas() throws {
        let store = temporaryPath()
        try importOK(demoEvents, into: store)
        let opened = try Store(directory: store.path)
        var during: [Bool?] = []
        try opened.rebuild { _ in during.append(advisedRandom(store)) }
        XCTAssertFalse(during.isEmpty)
        XCTAssert(during.allSatisfy { $0 == false }, "\(during)")
        XCTAssertEqual(advisedRandom(store), true)
    }

    /// An export or a filtered `log tail` reads the log from a seq to another: past
    /// `LogFilter.readAheadFrom` records, with read-ahead; the last few records, without.
    func testALongReadOfTheLogReadsAheadAndAShortOneDoesNot() throws {
        let count = Int(LogFilter.readAheadFrom) + 100
        var lines = [Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z"),
                     Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z")]
        for i in 0..<count { lines.append(Ev.scan("s-\(i)", by: "ines", at: "2026-11-02T00:00:00Z", code: "C-\(i % 50)")) }
        let store = temporaryPath()
        try importOK(try ndjsonFile(lines), into: store)
        let opened = try Store(directory: store.path)
        /// How the map was advised at each record `filter` gave, and how many records it gave.
        func read(_ filter: LogFilter) throws -> (advice: Set<Bool?>, records: Int) {
            var advice: Set<Bool?> = [], records = 0
            try opened.read { reader, _ in
                try filter.forEach(reader) { _, _ in
                    if records % 1_000 == 0 { advice.insert(advisedRandom(store)) }
                    records += 1
                }
            }
            return (advice, records)
        }
        let whole = try read(LogFilter())
        XCTAssertEqual(whole.records, lines.count)
        XCTAssertEqual(whole.advice, [false])
        XCTAssertEqual(advisedRandom(store), true)
        // Filtered by type, the whole log is read for a few records.
        var registrations = LogFilter()
        registrations.types = [.accountRegistered]
        registrations.last = 1
        let registered = try read(registrations)
        XCTAssertEqual(registered.records, 1)
        XCTAssertEqual(registered.advice, [false])
        var lastFew = LogFilter()
        lastFew.last = 10
        let tail = try read(lastFew)
        XCTAssertEqual(tail.records, 10)
        XCTAssertEqual(tail.advice, [true])
        XCTAssertEqual(advisedRandom(store), true)
    }
}
