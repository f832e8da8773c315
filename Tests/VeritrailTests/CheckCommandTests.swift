import Foundation
import XCTest

/// `check` as a test author meets it (cli.md §7): a question file with a key it does not know is refused,
/// `--update` writes the answers, and a missing folder is one line.
final class CheckCommandTests: XCTestCase {
    private var events: URL!
    private var folder: URL!

    override func setUpWithError() throws {
        events = try ndjsonFile(LogAuditTests.events)
        folder = temporaryPath("questions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    private func read(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    func testAMisspeltKeyIsRefused() throws {
        try write("a.json", #"{"args": ["accounts"], "exit": 0, "expect": {"accounts": []}}"#)
        try write("b.json", #"{"args": ["stats"], "now": "2026-11-05T10:00:00Z", "expct": {"total": 99}}"#)
        let r = try veritrail("check", events.path, folder.path)
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "veritrail: \(folder.path)/b.json: unknown key \"expct\" (a question file has only args, now, asOf, as, exit, expect)\n")
    }

    func testQuestionsOfTheWrongShapeAreRefused() throws {
        for (text, why) in [
            (#"["stats"]"#, "a question file is one JSON object"),
            (#"{"args": "stats"}"#, "\"args\" must be a non-empty list of strings"),
            (#"{"args": ["stats"], "exit": 65, "expect": {}}"#, "\"expect\" is only for exit 0 (an answer is checked only when the command succeeds)"),
            (#"{"args": ["stats"], "now": 5}"#, "\"now\" must be a string"),
        ] {
            try write("q.json", text)
            let r = try veritrail("check", events.path, folder.path)
            XCTAssertEqual(r.exit, 65, r.transcript)
            XCTAssertEqual(r.stderr, "veritrail: \(folder.path)/q.json: \(why)\n", text)
        }
    }

    func testUpdateWritesTheAnswersThenTheyPass() throws {
        let kept = #"{"args": ["settings", "ines"], "now": "2026-11-05T10:00:00Z", "exit": 0, "expect": {"username": "ines", "flash": false, "captureMode": "single", "historyWindow": "30d", "color": "white", "windows": ["today", "7d", "30d", "90d", "all"]}}"#
        try write("kept.json", kept)
        try write("new.json", #"{"args": ["customer", "show", "bret"], "asOf": "4"}"#)
        try write("gone.json", #"{"args": ["goals", "nobody"], "now": "2026-11-05T10:00:00Z", "exit": 0, "expect": {}}"#)
        let r = try veritrail("check", "--update", events.path, folder.path)
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(r.stdout, "✎ gone.json (exit 65)\n✎ new.json (exit 0)\n2 updated, 1 unchanged\n")
        // A question whose answer still holds is left as it was written.
        XCTAssertEqual(try read("kept.json"), kept)
        XCTAssertEqual(try read("gone.json"), """
            {
             "args": [
              "goals",
              "nobody"
             ],
             "now": "2026-11-05T10:00:00Z",
             "exit": 65
            }

            """)
        let written = try XCTUnwrap(jsonObject(try read("new.json")))
        XCTAssertEqual(written["asOf"] as? String, "4")
        XCTAssertEqual(written["exit"] as? Int, 0)
        XCTAssertEqual((written["expect"] as? [String: Any])?["status"] as? String, "AWAITED")
        let again = try veritrail("check", events.path, folder.path)
        XCTAssertEqual(again.exit, 0, again.transcript)
        XCTAssertEqual(again.stdout, "3 passed, 0 failed\n")
    }

    func testAMissingFolderIsOneLine() throws {
        let missing = folder.appendingPathComponent("nope").path
        let r = try veritrail("check", events.path, missing)
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertEqual(r.stderr, "veritrail: no such folder: \(missing) (give the folder of question files, *.json)\n")
    }
}
