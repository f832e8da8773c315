import Foundation
import TestSupport
import XCTest

/// The auditor's log commands (cli.md §7) through the real binary on a real store: `--as-of` on `log
/// status | digest | tail | verify`, the filters of `export` and `log tail`, the sentences of the human
/// `log tail`, and `log verify --digest` saying that the digest matches.
final class LogAuditTests: XCTestCase {
    /// Nine events over five days; every test reads the same log.
    static let events = [
        Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z", id: "a-1", name: "Ada Admin"),
        Ev.passcodeSet("admin", by: "system", at: "2026-11-01T08:00:00Z", id: "a-2"),
        Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z", id: "a-3"),
        Ev.register("bret", role: "customer", by: "admin", at: "2026-11-01T09:30:00Z", id: "a-4"),
        Ev.scan("s-1", by: "ines", at: "2026-11-02T10:00:00Z", id: "a-5", code: "QR-7F3A", productName: "Serum",
                category: "Cosmetics", result: "counterfeit"),
        Ev.line("status.changed", "admin", at: "2026-11-03T11:00:00Z", id: "a-6", #""username":"bret","status":"INPROCESS""#),
        Ev.register("tom", role: "inspector", by: "admin", at: "2026-11-03T12:00:00Z", id: "a-7"),
        Ev.goal("tom", month: "2026-11", metric: "jumps", target: "30000", at: "2026-11-04T08:00:00Z"),
        Ev.scan("s-2", by: "tom", at: "2026-11-05T09:00:00Z", id: "a-9"),
    ]

    private var store: URL!
    /// The whole export, one line per event (index 0 is seq 1).
    private var exported: [String] = []

    override func setUpWithError() throws {
        store = temporaryPath()
        try importOK(try ndjsonFile(Self.events), into: store)
        exported = try ok(["export", "--store", store.path]).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(exported.count, 9)
    }

    private func hash(_ seq: Int) -> String { jsonObject(exported[seq - 1])?["hash"] as? String ?? "" }

    private func run(_ args: String...) throws -> RunResult { try veritrail(args + ["--store", store.path]) }

    private func lines(_ r: RunResult) -> [String] { r.stdout.split(separator: "\n").map(String.init) }

    func testDigestAsOfASeqOrATime() throws {
        XCTAssertEqual(try run("log", "digest", "--as-of", "5").stdout, "5:\(hash(5))\n")
        // A time keeps the events at or before it; one beyond the head keeps everything.
        XCTAssertEqual(try run("log", "digest", "--as-of", "2026-11-03T11:59:59Z").stdout, "6:\(hash(6))\n")
        XCTAssertEqual(try run("log", "digest", "--as-of", "2026-11-03T12:00:00Z").stdout, "7:\(hash(7))\n")
        XCTAssertEqual(try run("log", "digest", "--as-of", "120").stdout, "9:\(hash(9))\n")
        XCTAssertEqual(try run("log", "digest", "--as-of", "2026-10-01T00:00:00Z").stdout, "0:" + String(repeating: "0", count: 64) + "\n")
        // --now hides nothing from the log commands.
        XCTAssertEqual(try run("log", "digest", "--now", "2026-11-01T08:00:00Z").stdout, "9:\(hash(9))\n")
        XCTAssertEqual(try run("log", "digest", "--as-of", "five").exit, 64)
    }

    func testStatusAsOf() throws {
        let r = try run("log", "status", "--as-of", "5", "--json")
        XCTAssertEqual(r.exit, 0, r.transcript)
        // The store's origin (proofs.md §2) is shown at any point: it is the store's, not the log's.
        let origin = try XCTUnwrap((r.json as? [String: Any])?["origin"] as? String, r.transcript)
        XCTAssertTrue(origin.hasPrefix("veritrail.invalid/"), origin)
        XCTAssertEqual(r.stdout, #"{"byType":{"account.registered":3,"passcode.set":1,"scan.recorded":1},"events":5,"firstAt":"2026-11-01T08:00:00Z","#
            + #""head":{"hash":"\#(hash(5))","seq":5},"lastAt":"2026-11-02T10:00:00Z","origin":"\#(origin)"}"# + "\n")
        let all = try run("log", "status", "--json"), beyond = try run("log", "status", "--as-of", "99", "--json")
        XCTAssertEqual(beyond.stdout, all.stdout)
        XCTAssertEqual(try run("log", "status", "--now", "2026-11-01T08:00:00Z", "--json").stdout, all.stdout)
    }

    func testVerifyAsOfAndDigest() throws {
        let r = try run("log", "verify", "--as-of", "4", "--json")
        XCTAssertEqual(r.stdout, #"{"events":4,"head":{"hash":"\#(hash(4))","seq":4},"ok":true}"# + "\n", r.transcript)
        let human = try run("log", "verify", "--digest", "3:\(hash(3))")
        XCTAssertEqual(human.stdout, "ok: 9 events verified; head 9:\(hash(9)), and the digest 3:\(hash(3)) matches\n", human.transcript)
        let cut = try run("log", "verify", "--as-of", "2026-11-02T10:00:00Z", "--digest", "5:\(hash(5))")
        XCTAssertEqual(cut.stdout, "ok: 5 events verified (the log as of seq 5); head 5:\(hash(5)), and the digest 5:\(hash(5)) matches\n")
        // A digest past the cut is not in the log as of it.
        let past = try run("log", "verify", "--as-of", "4", "--digest", "5:\(hash(5))", "--json")
        XCTAssertEqual(past.exit, 65, past.transcript)
        XCTAssertEqual((past.json as? [String: Any])?["firstBadSeq"] as? Int, 5)
        let wrong = try run("log", "verify", "--digest", "3:\(hash(4))")
        XCTAssertEqual(wrong.exit, 65, wrong.transcript)
        XCTAssertEqual(wrong.stdout, "broken at seq 3: the digest's hash differs from the log's hash at seq 3\n")
    }

    func testTailAsOfAndFilters() throws {
        XCTAssertEqual(lines(try run("log", "tail", "-n", "2", "--as-of", "5", "--json")), Array(exported[3...4]))
        XCTAssertEqual(lines(try run("log", "tail", "--actor", "admin", "--type", "status.changed", "--type", "account.registered", "--json")),
                       [exported[2], exported[3], exported[5], exported[6]])
        XCTAssertEqual(lines(try run("log", "tail", "-n", "1", "--actor", "admin", "--as-of", "6", "--json")), [exported[5]])
    }

    func testExportFilters() throws {
        // Times are inclusive at both ends; a filtered export keeps seq and hash on its lines.
        let between = try run("export", "--since", "2026-11-01T09:30:00Z", "--until", "2026-11-03T11:00:00Z")
        XCTAssertEqual(lines(between), Array(exported[3...5]), between.transcript)
        XCTAssertEqual(lines(try run("export", "--actor", "ines", "--actor", "tom")), [exported[4], exported[7], exported[8]])
        XCTAssertEqual(lines(try run("export", "--type", "scan.recorded", "--since", "2026-11-03T00:00:00Z")), [exported[8]])
        XCTAssertEqual(lines(try run("export", "--actor", "admin", "-n", "2")), [exported[5], exported[6]])
        XCTAssertEqual(lines(try run("export", "--from", "2", "--to", "6", "--actor", "system")), [exported[1]])
        XCTAssertEqual(try run("export", "--since", "2026-12-01T00:00:00Z").stdout, "")
        XCTAssertEqual(try run("export", "--output", "-").stdout, exported.map { $0 + "\n" }.joined())
    }

    func testFilterRefusals() throws {
        let output = temporaryPath("out.ndjson")
        let unknown = try run("export", "--actor", "nobody", "--output", output.path)
        XCTAssertEqual(unknown.exit, 65, unknown.transcript)
        XCTAssertEqual(unknown.stderr, "veritrail: no such account \"nobody\" (--actor)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "a refused export wrote its file")
        XCTAssertEqual(try run("export", "--type", "scan.made").exit, 64)
        XCTAssertEqual(try run("log", "tail", "--since", "yesterday").exit, 64)
        XCTAssertEqual(try run("log", "tail", "-n", "0").exit, 64)
    }

    func testHumanTailSaysWhatEachEventDid() throws {
        let r = try run("log", "tail", "-n", "20", "--utc")
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(lines(r), [
            "1  2026-11-01T08:00:00Z  system registered admin as an admin (Ada Admin)",
            "2  2026-11-01T08:00:00Z  system set admin's passcode",
            "3  2026-11-01T09:00:00Z  admin registered ines as an inspector (Ines)",
            "4  2026-11-01T09:30:00Z  admin registered bret as a customer (Bret, Lyon)",
            "5  2026-11-02T10:00:00Z  ines scanned QR-7F3A (Serum, counterfeit), scan s-1",
            "6  2026-11-03T11:00:00Z  admin moved bret to INPROCESS",
            "7  2026-11-03T12:00:00Z  admin registered tom as an inspector (Tom)",
            "8  2026-11-04T08:00:00Z  tom set a jumps goal of 30000 for 2026-11",
            "9  2026-11-05T09:00:00Z  tom scanned C-s-2 (Widget, authentic), scan s-2",
        ])
        // Without --utc, times are relative to the clock.
        let relative = try run("log", "tail", "-n", "2", "--now", "2026-11-05T10:00:00Z")
        XCTAssertEqual(lines(relative), [
            "8  1 day ago  tom set a jumps goal of 30000 for 2026-11",
            "9  1 h ago    tom scanned C-s-2 (Widget, authentic), scan s-2",
        ])
    }

    /// One sentence for every event type of events.md §3 (those `testHumanTailSaysWhatEachEventDid` has not
    /// shown), on a store of their own.
    func testEveryEventTypeHasItsSentence() throws {
        let more = [
            Ev.line("account.updated", "admin", at: "2026-11-06T08:00:00Z", #""username":"ines","name":"Inès","phone":"+33 1""#),
            Ev.line("account.deleted", "admin", at: "2026-11-06T08:01:00Z", #""username":"bret","reason":"not a real person""#),
            Ev.attempt("admin", "denied", at: "2026-11-06T08:02:00Z"),
            Ev.attempt("admin", "granted", at: "2026-11-06T08:03:00Z"),
            Ev.attempt("admin", "denied", at: "2026-11-06T08:04:00Z"),
            Ev.attempt("admin", "denied", at: "2026-11-06T08:04:01Z"),
            Ev.attempt("admin", "denied", at: "2026-11-06T08:04:02Z"),
            Ev.attempt("admin", "locked", at: "2026-11-06T08:04:30Z"),
            Ev.report("s-1", reason: "other", by: "ines", at: "2026-11-06T09:00:00Z", extra: #","message":"label misprinted""#),
            Ev.line("settings.changed", "ines", at: "2026-11-06T09:01:00Z", #""username":"ines","flash":true,"historyWindow":"7d""#),
            Ev.line("search.performed", "ines", at: "2026-11-06T09:02:00Z", #""username":"ines","query":"serum""#),
            Ev.fitness("tom", at: "2026-11-06T09:03:00Z"),
            Ev.session("tom", "t-1", by: "admin", at: "2026-11-06T09:04:00Z", date: "2026-11-05", jumps: "800", calories: "60"),
            Ev.goal("tom", month: "2026-12", metric: "calories", target: "0", at: "2026-11-06T09:05:00Z"),
            Ev.passcodeSet("ines", by: "admin", at: "2026-11-06T09:06:00Z"),
        ]
        let other = temporaryPath()
        try importOK(try ndjsonFile(Self.events + more), into: other)
        let r = try veritrail("log", "tail", "-n", "15", "--utc", "--store", other.path)
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(lines(r), [
            "10  2026-11-06T08:00:00Z  admin updated ines's name and phone",
            "11  2026-11-06T08:01:00Z  admin deleted bret (not a real person)",
            "12  2026-11-06T08:02:00Z  admin entered a wrong passcode",
            "13  2026-11-06T08:03:00Z  admin entered the right passcode (unlocked for 15 min)",
            "14  2026-11-06T08:04:00Z  admin entered a wrong passcode",
            "15  2026-11-06T08:04:01Z  admin entered a wrong passcode",
            "16  2026-11-06T08:04:02Z  admin entered a wrong passcode",
            "17  2026-11-06T08:04:30Z  admin tried a passcode while locked out",
            "18  2026-11-06T09:00:00Z  ines reported scan s-1 as counterfeit (other: “label misprinted”)",
            "19  2026-11-06T09:01:00Z  ines changed their settings: flash on, history window 7d",
            "20  2026-11-06T09:02:00Z  ines searched for “serum”",
            "21  2026-11-06T09:03:00Z  tom set their body type 1 and height 70 in",
            "22  2026-11-06T09:04:00Z  admin recorded a session of tom's at Central on 2026-11-05, 10:00–11:00: 800 jumps, 60 calories",
            "23  2026-11-06T09:05:00Z  tom turned off the calories goal for 2026-12",
            "24  2026-11-06T09:06:00Z  admin set ines's passcode",
        ])
    }
}
