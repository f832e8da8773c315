import Foundation
import LMDB
import TestSupport
import XCTest

/// `log verify` checks the id index as well as the chain: a damaged index would let an imported id be
/// appended a second time, while the chain itself still verified.
final class IdIndexVerifyTests: XCTestCase {
    /// Runs `change` on the store's id index, through LMDB itself (the store is closed when it returns).
    private func changeIndex(of store: URL, _ change: (Transaction, Database) throws -> Void) throws {
        let environment = try Environment(path: store.path, mapSize: 64 << 20, flags: [.writeMap])
        let ids = try environment.openDatabase("ids")
        try environment.write { txn in try change(txn, ids) }
    }

    private func verify(_ store: URL) throws -> RunResult {
        try veritrail("log", "verify", "--store", store.path, "--json")
    }

    func testAnIdThatNoLongerLeadsToItsEventIsFound() throws {
        let store = temporaryPath()
        try importOK(try ndjsonFile(LogTests.admin + [Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z", id: "i-1")]), into: store)
        XCTAssertEqual(try verify(store).exit, 0)
        try changeIndex(of: store) { txn, ids in _ = try txn.delete(ids, Array("i-1".utf8)) }
        let r = try verify(store)
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertEqual((r.json as? [String: Any])?["firstBadSeq"] as? Int, 3, r.transcript)
        XCTAssertEqual((r.json as? [String: Any])?["ok"] as? Bool, false, r.transcript)
    }

    func testAnEntryForNoEventIsFound() throws {
        let store = temporaryPath()
        try importOK(try ndjsonFile(LogTests.admin), into: store)
        try changeIndex(of: store) { txn, ids in
            try txn.put(ids, Array("ghost".utf8), [0, 0, 0, 0, 0, 0, 0, 9])
        }
        let r = try verify(store)
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertTrue(r.stdout.contains("id index"), r.transcript)
    }

    func testAnIdMovedToAnotherEventIsFound() throws {
        let store = temporaryPath()
        try importOK(try ndjsonFile(LogTests.admin + [Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z", id: "i-1")]), into: store)
        try changeIndex(of: store) { txn, ids in
            try txn.put(ids, Array("i-1".utf8), [0, 0, 0, 0, 0, 0, 0, 1])
        }
        let r = try verify(store)
        XCTAssertEqual(r.exit, 65, r.transcript)
    }
}
