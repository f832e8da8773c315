import Foundation
import XCTest

/// `diff` and the human `replay` through the real binary: the events between two points counted, the
/// projections side by side where they changed, and the auditor's report instead of a dump.
final class DiffReplayTests: XCTestCase {
    private var store: URL!

    override func setUpWithError() throws {
        store = temporaryPath()
        try importOK(try ndjsonFile(LogAuditTests.events), into: store)
    }

    private func run(_ args: String...) throws -> RunResult { try veritrail(args + ["--store", store.path]) }

    func testDiffJSON() throws {
        let r = try run("diff", "--from", "4", "--to", "2026-11-03T23:00:00Z", "--json")
        XCTAssertEqual(r.exit, 0, r.transcript)
        let o = try XCTUnwrap(r.json as? [String: Any])
        XCTAssertEqual(o["from"] as? NSDictionary, ["seq": 4, "at": "2026-11-01T09:30:00Z", "now": "2026-11-01T09:30:00Z"])
        XCTAssertEqual(o["to"] as? NSDictionary, ["seq": 7, "at": "2026-11-03T12:00:00Z", "now": "2026-11-03T23:00:00Z"])
        XCTAssertEqual(o["events"] as? NSDictionary, [
            "total": 3, "byType": ["account.registered": 1, "scan.recorded": 1, "status.changed": 1],
            "byActor": ["admin": 2, "ines": 1],
        ])
        let changes = try XCTUnwrap(o["changes"] as? [String: Any])
        XCTAssertEqual(changes["customers"] as? NSArray, [["username": "bret", "before": "AWAITED", "after": "INPROCESS"]])
        let stats = try XCTUnwrap(changes["stats"] as? [String: Any])
        XCTAssertEqual((stats["before"] as? [String: Any])?["total"] as? Int, 0)
        XCTAssertEqual((stats["after"] as? [String: Any])?["counterfeit"] as? Int, 1)
        // tom is new: his passcode gate appears (before: null); ines's scan counts in her month.
        let gates = try XCTUnwrap(changes["lockout"] as? [[String: Any]])
        XCTAssertEqual(gates.map { $0["username"] as? String }, ["tom"])
        XCTAssertTrue(gates.first?["before"] is NSNull)
        let goals = try XCTUnwrap(changes["goals"] as? [[String: Any]])
        XCTAssertEqual(goals.map { $0["username"] as? String }, ["ines"])
        XCTAssertEqual(goals.first?["before"] as? NSDictionary, ["month": "2026-11", "metrics": []])
        // Each side is what replay --as-of answers.
        let replay = try XCTUnwrap(try run("replay", "--as-of", "4", "--json").json as? [String: Any])
        XCTAssertEqual(stats["before"] as? NSDictionary, replay["stats"] as? NSDictionary)
    }

    func testDiffToDefaultsToTheHead() throws {
        let r = try run("diff", "--from", "7", "--json")
        let o = try XCTUnwrap(r.json as? [String: Any], r.transcript)
        XCTAssertEqual((o["to"] as? [String: Any])?["seq"] as? Int, 9)
        XCTAssertEqual((o["to"] as? [String: Any])?["now"] as? String, "2026-11-05T09:00:00Z")
        let goals = try XCTUnwrap((o["changes"] as? [String: Any])?["goals"] as? [[String: Any]])
        XCTAssertEqual(goals.map { $0["username"] as? String }, ["tom"])
        XCTAssertEqual(((goals.first?["after"] as? [String: Any])?["metrics"] as? [[String: Any]])?.map { $0["metric"] as? String },
                       ["jumps", "scans"])
    }

    func testDiffHuman() throws {
        let r = try run("diff", "--from", "4", "--to", "6", "--utc")
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(r.stdout, """
            From seq 4 (2026-11-01T09:30:00Z) to seq 6 (2026-11-03T11:00:00Z): 2 events
              by type:  scan.recorded 1, status.changed 1
              by actor: admin 1, ines 1

            Scans
              total 0 → 1
              counterfeit 0 → 1
              counterfeitRate 0 → 1
              last7d 0 → 1
              last30d 0 → 1
              firstScanAt — → 2026-11-02T10:00:00Z
              lastScanAt — → 2026-11-02T10:00:00Z

            Customers' statuses
              ACCOUNT  BEFORE   AFTER
              bret     AWAITED  INPROCESS

            Goals this month
              ACCOUNT  BEFORE            AFTER
              ines     2026-11: nothing  2026-11: scans 1 (no goal)

            """)
    }

    func testDiffRefusals() throws {
        let backwards = try run("diff", "--from", "6", "--to", "4")
        XCTAssertEqual(backwards.exit, 64, backwards.transcript)
        XCTAssertEqual(backwards.stderr, "veritrail: --from (seq 6) is after --to (seq 4): give the earlier point first\n")
        XCTAssertEqual(try run("diff", "--from", "last week").exit, 64)
        XCTAssertEqual(try run("diff").exit, 64)
        XCTAssertEqual(try run("diff", "--from", "1", "--as", "nobody").exit, 65)
    }

    func testReplayHumanIsAReport() throws {
        let r = try run("replay", "--as-of", "9", "--utc")
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(r.stdout, """
            The log as of seq 9, 2026-11-05T09:00:00Z (now 2026-11-05T09:00:00Z)

            Scans
              2 scans: 1 authentic, 1 counterfeit (50.0 %), 0 reported
              today 1, last 7 days 2, last 30 days 2
              first 2026-11-02T10:00:00Z, last 2026-11-05T09:00:00Z
              by category: Cosmetics 1 (1 counterfeit), Tools 1 (0 counterfeit)

            Passcode gate
              0 locked, 0 unlocked, 1 required, 3 unset (unset: no passcode)

            Customers
              AWAITED 0  FAILEDTOREACH 0  ONBOARDED 0  INPROCESS 1  COMPLETED 0  DENIED 0
              USERNAME  NAME  STATUS       SINCE                 BY
              bret      Bret  ● INPROCESS  2026-11-03T11:00:00Z  admin

            Accounts
              4 accounts: 1 admin, 2 inspectors, 1 customer

            Goals this month
              ines (2026-11): scans 1 (no goal)
              tom (2026-11): jumps 0/30000 (0 %), scans 1 (no goal)

            """)
    }
}
