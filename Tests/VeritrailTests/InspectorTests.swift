import Foundation
import XCTest

// The command line as an inspector meets it (issue 14, cli.md §7): scan prints its id and warns on a code seen
// before, short scan ids, whole table values off a terminal, escaped control characters, the viewer's window
// said, dash-led values, refusals in the command's words, batch scans from a file or stdin.
final class InspectorTests: XCTestCase {
    let now = "2026-11-20T18:00:00Z"

    func demoStore() throws -> URL {
        let store = temporaryPath("demo")
        try importOK(demoEvents, into: store)
        return store
    }

    func run(_ store: URL, _ args: [String], stdin: String? = nil) throws -> RunResult {
        try veritrail(args + ["--store", store.path], stdin: stdin.map { Data($0.utf8) }, environment: ["VERITRAIL_NOW": now])
    }

    func testScanPrintsItsIdAndWarnsOnACodeSeenBefore() throws {
        let store = try demoStore()
        let scan = ["scan", "--as", "ines", "--code", "https://verify.example/p/TWICE", "--product", "Serum",
                    "--category", "Cosmetics", "--result", "authentic", "--passcode-stdin"]
        var r = try run(store, scan + ["--scan-id", "s-first"], stdin: "1234\n")
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertTrue(r.stdout.hasPrefix("recorded scan s-first (seq "), r.stdout)
        XCTAssertEqual(r.stderr, "")
        r = try run(store, scan + ["--scan-id", "s-second", "--json"], stdin: "1234\n")
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(r.stderr, "warning: this code was scanned 1 time before: worth a second look\n")
        let answer = r.json as? [String: Any]
        XCTAssertEqual(answer?["scanId"] as? String, "s-second")
        XCTAssertEqual(answer?["seenBefore"] as? Int, 1)
        XCTAssertEqual(answer?["actor"] as? String, "ines")
    }

    func testShortScanIds() throws {
        let store = try demoStore()
        // Exact, unique prefix, several, too short.
        var r = try run(store, ["show", "s-0064", "--json"])
        XCTAssertEqual((r.json as? [String: Any])?["scanId"] as? String, "s-0064")
        _ = try run(store, ["scan", "--as", "ines", "--scan-id", "s-unique-42", "--code", "c", "--product", "p",
                            "--category", "c", "--result", "authentic", "--passcode-stdin"], stdin: "1234\n")
        r = try run(store, ["show", "s-uni", "--json"])
        XCTAssertEqual((r.json as? [String: Any])?["scanId"] as? String, "s-unique-42", r.transcript)
        r = try run(store, ["show", "s-012"])
        XCTAssertEqual(r.exit, 65)
        XCTAssertEqual(r.stderr, "veritrail: \"s-012\" is the start of several scan ids: s-0120, s-0121, s-0122, s-0123, s-0124, "
            + "s-0125, s-0126, s-0127, s-0128, s-0129; give more of the id\n")
        r = try run(store, ["show", "s-0"])
        XCTAssertEqual(r.exit, 65)
        XCTAssertEqual(r.stderr, "veritrail: no such scan \"s-0\" (a short scan id needs at least 4 characters)\n")
        // An exact id wins over the longer ids it starts.
        _ = try run(store, ["scan", "--as", "ines", "--scan-id", "s-unique-420", "--code", "c", "--product", "p",
                            "--category", "c", "--result", "authentic", "--passcode-stdin"], stdin: "1234\n")
        r = try run(store, ["show", "s-unique-42", "--json"])
        XCTAssertEqual((r.json as? [String: Any])?["scanId"] as? String, "s-unique-42", r.transcript)
        // As of a point before a scan, its id is no candidate.
        r = try run(store, ["show", "s-uni", "--as-of", "849"])
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertEqual(r.stderr, "veritrail: no such scan \"s-uni\"\n")
        // report takes a prefix too.
        r = try run(store, ["report", "s-unique-4", "--reason", "label", "--as", "ines", "--passcode-stdin"], stdin: "1234\n")
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertTrue(r.stderr.contains("several scan ids: s-unique-42, s-unique-420"), r.stderr)
        r = try run(store, ["report", "s-unique-42", "--reason", "label", "--as", "ines", "--passcode-stdin"], stdin: "1234\n")
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertTrue(r.stdout.hasPrefix("reported scan s-unique-42 (label)"), r.stdout)
    }

    func testValuesThatStartWithADashAreValues() throws {
        let store = try demoStore()
        var r = try run(store, ["history", "--search", "-0002", "--window", "all"])
        XCTAssertEqual(r.exit, 0, r.transcript)
        r = try run(store, ["history", "--category", "-20% deals"])
        XCTAssertEqual(r.exit, 0, r.transcript)
        r = try run(store, ["show", "-NI"])
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertEqual(r.stderr, "veritrail: no such scan \"-NI\" (a short scan id needs at least 4 characters)\n")
        r = try run(store, ["show", "-0001"])
        XCTAssertEqual(r.stderr, "veritrail: no such scan \"-0001\"\n")
        _ = try run(store, ["scan", "--as", "ines", "--scan-id", "-dash-1", "--code", "-c", "--product", "-p",
                            "--category", "c", "--result", "authentic", "--passcode-stdin"], stdin: "1234\n")
        r = try run(store, ["show", "-dash-1", "--json"])
        XCTAssertEqual((r.json as? [String: Any])?["code"] as? String, "-c", r.transcript)
        r = try run(store, ["history", "--offset", "99999999999999999999", "--json"])
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(((r.json as? [String: Any])?["items"] as? [Any])?.count, 0)
        r = try run(store, ["history", "--offset", "-1"])
        XCTAssertEqual(r.exit, 64)
    }

    func testTablesKeepEveryValueWholeOffATerminal() throws {
        let store = try demoStore()
        let r = try run(store, ["accounts"])
        XCTAssertEqual(r.exit, 0)
        XCTAssertFalse(r.stdout.contains("…"), r.stdout)
        XCTAssertTrue(r.stdout.contains("amelie.durand@veritrail.example"), r.stdout)
        XCTAssertTrue(r.stdout.contains("(deleted)"), r.stdout)
    }

    func testControlCharactersFromTheLogAreEscapedInHumanOutputOnly() throws {
        let store = try demoStore()
        let evil = "Evil\u{1B}[2J\nRed"
        _ = try run(store, ["scan", "--as", "ines", "--scan-id", "s-evil-1", "--code", "c", "--product", evil,
                            "--category", "Cosmetics", "--result", "authentic", "--passcode-stdin"], stdin: "1234\n")
        for args in [["history", "--window", "all", "--limit", "3"], ["show", "s-evil-1"], ["stats"]] {
            let r = try run(store, args)
            XCTAssertEqual(r.exit, 0, r.transcript)
            XCTAssertFalse(r.stdout.contains("\u{1B}"), "\(args): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains(#"Evil\u001b[2J\nRed"#), "\(args): \(r.stdout)")
        }
        let json = try run(store, ["show", "s-evil-1", "--json"])
        XCTAssertEqual((json.json as? [String: Any])?["productName"] as? String, evil)
    }

    func testTheViewersWindowIsSaid() throws {
        let store = try demoStore()
        var r = try run(store, ["history", "--as", "ines"])
        XCTAssertTrue(r.stdout.hasSuffix("\nyour history window is 7 days: --window all for everything\n"), r.stdout)
        r = try run(store, ["history", "--as", "ines", "--window", "30d"])
        XCTAssertFalse(r.stdout.contains("your history window"), r.stdout)
        r = try run(store, ["history", "--as", "ines", "--json"])
        XCTAssertNotNil(r.json)
    }

    func testRefusalsAreInTheCommandsWords() throws {
        let store = try demoStore()
        var r = try run(store, ["goal", "set", "--metric", "calories", "--target", "100", "--as", "kwan", "--passcode-stdin"], stdin: "1234\n")
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertEqual(r.stderr, "veritrail: --target: a calories goal above 0 needs 'veritrail fitness set' first\n")
        r = try run(store, ["settings", "set", "--as", "ines"])
        XCTAssertEqual(r.exit, 64, r.transcript)
        XCTAssertTrue(r.stderr.contains("nothing to set"), r.stderr)
        r = try run(store, ["customer", "status", "kamren", "onboarded", "--as", "admin", "--passcode-stdin"], stdin: "1234\n")
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(r.stdout.components(separatedBy: " (seq").first, "kamren is now ONBOARDED")
        r = try run(store, ["customer", "status", "kamren", "bogus", "--as", "admin"])
        XCTAssertEqual(r.exit, 64)
        XCTAssertTrue(r.stderr.contains("INPROCESS"), r.stderr)
    }

    func testAccountUpdateOfTheCityKeepsTheRestOfTheAddress() throws {
        let store = try demoStore()
        let before = try run(store, ["customer", "show", "bret", "--json"]).json as? [String: Any]
        let r = try run(store, ["account", "update", "bret", "--city", "Paris, France", "--as", "admin", "--passcode-stdin"], stdin: "1234\n")
        XCTAssertEqual(r.exit, 0, r.transcript)
        let after = try run(store, ["customer", "show", "bret", "--json"]).json as? [String: Any]
        let old = before?["address"] as? [String: Any], new = after?["address"] as? [String: Any]
        XCTAssertEqual(new?["city"] as? String, "Paris, France")
        XCTAssertEqual(new?["street"] as? String, old?["street"] as? String)
        XCTAssertEqual(new?["zipcode"] as? String, old?["zipcode"] as? String)
        XCTAssertNotNil(old?["street"])
    }

    func testBatchScansFromStdinAndFromAFile() throws {
        let store = try demoStore()
        let csv = "code,productName,category,result\nc-1,\"Serum, 30 ml\",Cosmetics,authentic\nc-2,Bag,Handbags,counterfeit\n"
        var r = try run(store, ["scan", "--batch", "-", "--as", "ines", "--json"], stdin: csv)
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(((r.json as? [String: Any])?["events"] as? [Any])?.count, 2)
        XCTAssertEqual(r.stderr, "")
        let ndjson = try ndjsonFile([#"{"code":"c-3","productName":"P","category":"C","result":"authentic","scanId":"s-nd-1"}"#])
        r = try run(store, ["scan", "--batch", ndjson.path, "--as", "ines"])
        XCTAssertEqual(r.exit, 0, r.transcript)
        let shown = try run(store, ["show", "s-nd-1", "--json"]).json as? [String: Any]
        XCTAssertEqual(shown?["mode"] as? String, "batch")
        // A bad row refuses the whole batch, naming the file and line, and writes nothing.
        let head = try status(store).stdout
        let bad = try dataFile(Data("code,productName,category,result\nc-4,P,C,authentic\nc-5,P,C,maybe\n".utf8), label: "bad")
        r = try run(store, ["scan", "--batch", bad.path, "--as", "ines"])
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertTrue(r.stderr.hasPrefix("veritrail: \(bad.path) record 2 (line 3): result: "), r.stderr)
        XCTAssertEqual(try status(store).stdout, head)
    }
}
