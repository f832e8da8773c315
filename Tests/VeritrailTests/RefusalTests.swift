import Foundation
import TestSupport
import XCTest

/// One test per rule of events.md that a bad event can break, through `veritrail import`.
///
/// Every case imports a small file onto a copy of a base store (built once: an admin registered by
/// `system`, two inspectors, a deleted inspector, a self-registered customer, scans, a report, a session,
/// fitness, and `tom` locked out until 10:01:30). A refused file must exit 65, name `line N`, the field
/// path and the rule on stderr, and leave `log status --json` byte-identical. Each bad line comes after a
/// valid scan line, so a refusal that wrote the lines before it is caught too.
final class RefusalTests: XCTestCase {
    /// The default `at` of the events under test: after the base's last event (10:00:30).
    static let at = "2026-11-20T10:01:00Z"

    static let baseLines: [String] = [
        Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z", name: "Ada Admin"),
        Ev.passcodeSet("admin", by: "system", at: "2026-11-01T08:00:00Z"),
        Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z"),
        Ev.register("tom", role: "inspector", by: "admin", at: "2026-11-01T09:01:00Z"),
        Ev.register("gone", role: "inspector", by: "admin", at: "2026-11-01T09:02:00Z"),
        Ev.line("account.deleted", "admin", at: "2026-11-01T09:03:00Z", #""username":"gone","reason":"not real""#),
        Ev.register("cara", role: "customer", by: "cara", at: "2026-11-01T09:04:00Z"),
        Ev.passcodeSet("ines", by: "admin", at: "2026-11-01T09:05:00Z"),
        Ev.passcodeSet("tom", by: "admin", at: "2026-11-01T09:06:00Z"),
        Ev.scan("s-1", by: "ines", at: "2026-11-19T09:00:00Z"),
        Ev.scan("s-2", by: "ines", at: "2026-11-19T09:01:00Z"),
        Ev.report("s-2", reason: "label", by: "tom", at: "2026-11-19T09:02:00Z"),
        Ev.session("ines", "sess-1", by: "ines", at: "2026-11-19T12:00:00Z", date: "2026-11-19"),
        Ev.fitness("tom", at: "2026-11-19T12:01:00Z"),
        Ev.attempt("tom", "denied", at: "2026-11-20T10:00:00Z"),
        Ev.attempt("tom", "denied", at: "2026-11-20T10:00:10Z"),
        Ev.attempt("tom", "denied", at: "2026-11-20T10:00:30Z"),
    ]

    /// A valid line put before each bad one.
    static let lead = Ev.scan("s-lead", by: "ines", at: "2026-11-20T10:00:30Z")

    private struct Base { var store: URL; var status: String }
    nonisolated(unsafe) private static var base: Base?
    private static let lock = NSLock()

    private func baseStore() throws -> Base {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let base = Self.base { return base }
        let store = TempDir.fresh("refusal-base")
        let file = TempDir.fresh("refusal-base").appendingPathExtension("ndjson")
        try Data(Self.baseLines.map { $0 + "\n" }.joined().utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let imported = try CLI.run(["import", file.path, "--store", store.path, "--json"])
        guard imported.exit == 0 else {
            XCTFail("the base events of RefusalTests do not import:\n\(imported.transcript)")
            throw CLI.CLIError(description: "bad base")
        }
        let status = try CLI.run(["log", "status", "--store", store.path, "--json"])
        XCTAssertEqual(status.exit, 0, status.transcript)
        let base = Base(store: store, status: status.stdout)
        Self.base = base
        return base
    }

    override class func tearDown() {
        if let base { try? FileManager.default.removeItem(at: base.store) }
        base = nil
        super.tearDown()
    }

    // MARK: - Helpers

    /// A case queued by `assertRefused`/`assertAccepted`; all of a test's cases run at its end, two
    /// processes at a time (an import of the debug build costs a few tenths of a second).
    private struct Case {
        var lines: [String]
        var raw: Data?
        var expectRefusal: Bool
        var path: String?
        var rule: String
        var lineNumber: Int
        var file: StaticString
        var line: UInt
    }
    private var pending: [Case] = []

    /// Queues `lines` (after the lead line unless `lead` is false) for import onto a copy of the base store;
    /// the refusal must exit 65 and name `line N`, the path and the rule's words, with nothing written.
    private func assertRefused(_ lines: [String], path: String?, rule: String, lineNumber: Int? = nil, lead: Bool = true,
                               raw: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let all = lead ? [Self.lead] + lines : lines
        pending.append(Case(lines: all, raw: raw, expectRefusal: true, path: path, rule: rule,
                            lineNumber: lineNumber ?? all.count, file: file, line: line))
    }

    /// Queues `lines` (after the lead line unless `lead` is false) that must all be appended (exit 0).
    private func assertAccepted(_ lines: [String], lead: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws {
        let all = lead ? [Self.lead] + lines : lines
        pending.append(Case(lines: all, raw: nil, expectRefusal: false, path: nil, rule: "", lineNumber: 0, file: file, line: line))
    }

    override func tearDownWithError() throws {
        let cases = pending
        pending = []
        defer { try? super.tearDownWithError() }
        guard !cases.isEmpty else { return }
        let base = try baseStore()
        let results = try runCases(cases, base: base)
        for (c, outcome) in zip(cases, results) {
            let (r, after) = outcome
            let shown = "input:\n\(c.lines.joined(separator: "\n"))\n\(r.transcript)"
            if c.expectRefusal {
                XCTAssertEqual(r.exit, 65, "expected a refusal (65)\n\(shown)", file: c.file, line: c.line)
                XCTAssertTrue(r.stderr.contains("line \(c.lineNumber):"), "stderr should name line \(c.lineNumber)\n\(shown)",
                              file: c.file, line: c.line)
                if let path = c.path {
                    XCTAssertTrue(r.stderr.contains(path), "stderr should name the field \(path)\n\(shown)", file: c.file, line: c.line)
                }
                if !c.rule.isEmpty {
                    XCTAssertTrue(r.stderr.lowercased().contains(c.rule.lowercased()),
                                  "stderr should state the rule (\"\(c.rule)\")\n\(shown)", file: c.file, line: c.line)
                }
                XCTAssertEqual(after.stdout, base.status, "a refused import changed the store\n\(shown)", file: c.file, line: c.line)
            } else {
                XCTAssertEqual(r.exit, 0, "expected the lines to be accepted\n\(shown)", file: c.file, line: c.line)
                if r.exit == 0 {
                    XCTAssertEqual((r.json as? [String: Any])?["appended"] as? Int, c.lines.count, shown, file: c.file, line: c.line)
                }
            }
        }
    }

    /// Runs every case on its own copy of the base store, two at a time; returns the import's result and
    /// the `log status --json` after it.
    private func runCases(_ cases: [Case], base: Base) throws -> [(RunResult, RunResult)] {
        let work = TempDir.fresh("cases")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var inputs: [(file: URL, store: URL)] = []
        for (i, c) in cases.enumerated() {
            let file = work.appendingPathComponent("\(i).ndjson")
            try (c.raw ?? Data(c.lines.map { $0 + "\n" }.joined().utf8)).write(to: file)
            let store = work.appendingPathComponent("store-\(i)")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: false)
            // A store is its data file, its kept checkpoint and its secrets: a data file alone refuses writes.
            for name in ["data.mdb", "checkpoint", "secrets"] {
                try FileManager.default.copyItem(at: base.store.appendingPathComponent(name), to: store.appendingPathComponent(name))
            }
            inputs.append((file, store))
        }
        let runs = inputs
        let results = Results(count: cases.count)
        DispatchQueue.concurrentPerform(iterations: min(2, cases.count)) { worker in
            var i = worker
            while i < cases.count {
                let (file, store) = runs[i]
                let json = cases[i].expectRefusal ? [] : ["--json"]
                let r = try? CLI.run(["import", file.path, "--store", store.path] + json)
                let after = try? CLI.run(["log", "status", "--store", store.path, "--json"])
                results.set(i, (r ?? RunResult(exit: -1, stdout: "", stderr: "could not run", stdoutData: Data()),
                                after ?? RunResult(exit: -1, stdout: "", stderr: "could not run", stdoutData: Data())))
                i += 2
            }
        }
        return results.all
    }

    private final class Results: @unchecked Sendable {
        private var items: [(RunResult, RunResult)?]
        private let lock = NSLock()
        init(count: Int) { items = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ v: (RunResult, RunResult)) { lock.lock(); items[i] = v; lock.unlock() }
        var all: [(RunResult, RunResult)] { items.map { $0! } }
    }

    private let at = RefusalTests.at
    private func scanLine(_ data: String, actor: String = "ines", at: String = RefusalTests.at) -> String {
        Ev.line("scan.recorded", actor, at: at, data)
    }
    private let scanFields = #""scanId":"s-new","code":"C-9","productName":"Widget","category":"Tools","result":"authentic","mode":"single","source":"camera","flash":false"#

    // MARK: - The base itself

    func testBaseImportsAndLeadIsAccepted() throws {
        let base = try baseStore()
        let status = jsonObject(base.status)
        XCTAssertEqual(status?["events"] as? Int, Self.baseLines.count, base.status)
        try assertAccepted([])
    }

    // MARK: - Syntax and shape

    func testUnknownType() throws {
        try assertRefused([Ev.line("scan.deleted", "ines", at: at, #""scanId":"s-1""#)], path: "type", rule: "must be one of")
    }

    func testMissingType() throws {
        try assertRefused([#"{"at":"\#(at)","actor":"ines","data":{}}"#], path: "type", rule: "required")
    }

    func testUnknownTopLevelKey() throws {
        let line = String(scanLine(scanFields).dropLast()) + #","extra":1}"#
        try assertRefused([line], path: "extra", rule: "unknown key")
    }

    func testUnknownDataKey() throws {
        try assertRefused([scanLine(scanFields + #","colour":"red""#)], path: "data.colour", rule: "unknown key")
        try assertRefused([Ev.register("ivan", role: "customer", by: "ivan", at: at,
                                       extra: #","address":{"street":"1 Rue","city":"Lyon","zipcode":"69001","country":"FR"}"#)],
                          path: "data.address.country", rule: "unknown key")
    }

    func testNullValue() throws {
        try assertRefused([scanLine(scanFields + #","brand":null"#)], path: "data.brand", rule: "null")
        let topNull = String(scanLine(scanFields).dropLast()) + #","id":null}"#
        try assertRefused([topNull], path: "id", rule: "null")
    }

    func testFractionForAnInteger() throws {
        try assertRefused([Ev.fitness("ines", at: at, height: "70.0")], path: "data.heightInches", rule: "integer")
        try assertRefused([Ev.session("ines", "sess-2", by: "ines", at: at, date: "2026-11-20", jumps: "100.0")],
                          path: "data.jumps", rule: "integer")
    }

    func testExponentForAnInteger() throws {
        try assertRefused([Ev.session("ines", "sess-2", by: "ines", at: at, date: "2026-11-20", jumps: "1e2")],
                          path: "data.jumps", rule: "integer")
        try assertRefused([Ev.goal("tom", month: "2026-11", metric: "jumps", target: "1E3", at: at)], path: "data.target", rule: "integer")
    }

    func testIntegerOutOfRange() throws {
        try assertRefused([Ev.fitness("ines", at: at, height: "35")], path: "data.heightInches", rule: "36")
        try assertRefused([Ev.session("ines", "sess-2", by: "ines", at: at, date: "2026-11-20", jumps: "-1")],
                          path: "data.jumps", rule: "0")
        try assertAccepted([Ev.fitness("ines", at: at, height: "96")])
    }

    func testDuplicateKey() throws {
        try assertRefused([scanLine(scanFields + #","category":"Other""#)], path: nil, rule: "duplicate key \"category\"")
        let topDuplicate = String(scanLine(scanFields).dropLast()) + #","actor":"tom"}"#
        try assertRefused([topDuplicate], path: nil, rule: "duplicate key \"actor\"")
    }

    func testByteOrderMark() throws {
        var bytes = Data([0xEF, 0xBB, 0xBF])
        bytes.append(Data((Self.lead + "\n").utf8))
        try assertRefused([Self.lead], path: nil, rule: "byte-order mark", lineNumber: 1, lead: false, raw: bytes)
    }

    func testLoneSurrogate() throws {
        try assertRefused([scanLine(scanFields + #","notes":"bad \ud800 here""#)], path: nil, rule: "surrogate")
        try assertRefused([scanLine(scanFields + #","notes":"bad \udc00 here""#)], path: nil, rule: "surrogate")
        // A proper pair is fine.
        try assertAccepted([scanLine(scanFields + #","notes":"ok \ud83d\ude00""#)])
    }

    func testNotJSON() throws {
        try assertRefused([#"{"type":"scan.recorded","#], path: nil, rule: "not valid JSON")
        try assertRefused([#"[1,2]"#], path: nil, rule: "object")
    }

    // MARK: - at

    func testBadAt() throws {
        for bad in ["2026-11-20T10:01:00z", "2026-11-20t10:01:00Z", "2026-02-30T10:00:00Z", "2026-06-30T23:59:60Z",
                    "2026-11-20T10:01:00.1234567Z", "2026-11-20T10:01:00.Z", "2026-11-20T10:01:00+00:00",
                    "2026-11-20 10:01:00Z", "2026-11-20T10:01Z", "2026-13-01T10:00:00Z", "2026-11-20T24:00:00Z"] {
            try assertRefused([scanLine(scanFields, at: bad)], path: "at", rule: "YYYY-MM-DD")
        }
    }

    func testGoodAtForms() throws {
        try assertAccepted([scanLine(scanFields, at: "2026-11-20T10:01:00.250Z"),
                            Ev.scan("s-new2", by: "ines", at: "2026-11-20T10:01:00.999999Z"),
                            Ev.scan("s-new3", by: "ines", at: "2028-02-29T00:00:00Z")])
    }

    func testTimeRunningBackwards() throws {
        try assertRefused([scanLine(scanFields, at: "2026-11-20T10:00:29.999999Z")], path: "at", rule: "earlier")
        // Within one file too.
        try assertRefused([Ev.scan("s-a", by: "ines", at: "2026-11-21T00:00:00Z"), Ev.scan("s-b", by: "ines", at: "2026-11-20T23:59:59Z")],
                          path: "at", rule: "earlier")
        // Equal is fine.
        try assertAccepted([Ev.scan("s-a", by: "ines", at: "2026-11-20T10:00:30Z"), Ev.scan("s-b", by: "ines", at: "2026-11-20T10:00:30Z")])
    }

    // MARK: - Identifiers and patterns

    func testBadEventId() throws {
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, id: "bad id!")], path: "id", rule: "A–Z")
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, id: String(repeating: "x", count: 65))], path: "id", rule: "A–Z")
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, id: "é")], path: "id", rule: "A–Z")
        try assertAccepted([Ev.scan("s-new", by: "ines", at: at, id: String(repeating: "x", count: 64)),
                            Ev.scan("s-new2", by: "ines", at: at, id: "Az09._:-")])
    }

    func testBadScanId() throws {
        try assertRefused([Ev.scan("s new", by: "ines", at: at)], path: "data.scanId", rule: "A–Z")
        try assertRefused([Ev.scan(String(repeating: "s", count: 65), by: "ines", at: at)], path: "data.scanId", rule: "A–Z")
    }

    func testUsernamePattern() throws {
        for bad in ["Bob", "ab", "1abc", "a" + String(repeating: "b", count: 32), "ab cd", "ab+c", "émile"] {
            try assertRefused([Ev.register(bad, role: "inspector", by: "admin", at: at, email: "x@vt.example")],
                              path: "data.username", rule: "username")
        }
        try assertRefused([Ev.scan("s-new", by: "Ines", at: at)], path: "actor", rule: "username")
        try assertAccepted([Ev.register("a" + String(repeating: "b", count: 31), role: "inspector", by: "admin", at: at, email: "x@vt.example"),
                            Ev.register("a.b_c-9", role: "inspector", by: "admin", at: at, email: "y@vt.example")])
    }

    func testSystemIsReserved() throws {
        try assertRefused([Ev.register("system", role: "inspector", by: "admin", at: at)], path: "data.username", rule: "reserved")
    }

    // MARK: - Text

    func testTextEmptyAfterTrimming() throws {
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, productName: " \\t\\u00a0\\u3000 ")],
                          path: "data.productName", rule: "empty")
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, name: "   ")], path: "data.name", rule: "empty")
        try assertRefused([Ev.report("s-1", reason: "other", by: "ines", at: at, extra: #","message":"\n""#.replacingOccurrences(of: "\n", with: "\\n"))],
                          path: "data.message", rule: "empty")
        // code is not trimmed, but must hold a character that is not white space.
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, code: "  \\t ")], path: "data.code", rule: "white space")
    }

    func testLengthsCountUnicodeScalars() throws {
        // 100 two-byte scalars, 100 four-byte scalars (200 UTF-16 units): accepted.
        try assertAccepted([Ev.register("ivan", role: "inspector", by: "admin", at: at, name: String(repeating: "é", count: 100)),
                            Ev.register("olga", role: "inspector", by: "admin", at: at, name: String(repeating: "😀", count: 100))])
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, name: String(repeating: "é", count: 101))],
                          path: "data.name", rule: "100")
        // 51 grapheme clusters of two scalars each: 102 scalars, refused.
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, name: String(repeating: "e\u{301}", count: 51))],
                          path: "data.name", rule: "100")
        // Surrounding white space does not count.
        try assertAccepted([Ev.register("ivan", role: "inspector", by: "admin", at: at, name: "  " + String(repeating: "x", count: 100) + "  ")])
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, category: String(repeating: "c", count: 61))], path: "data.category", rule: "60")
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, code: String(repeating: "c", count: 2049))], path: "data.code", rule: "2048")
        try assertAccepted([Ev.scan("s-new", by: "ines", at: at, code: String(repeating: "ç", count: 2048))])
    }

    // MARK: - E-mail

    func testEmailRules() throws {
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "nobody.example")], path: "data.email", rule: "@")
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "a@b@c.example")], path: "data.email", rule: "@")
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "@vt.example")], path: "data.email", rule: "@")
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "ivan@")], path: "data.email", rule: "@")
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "a@")], path: "data.email", rule: "")
    }

    func testDuplicateEmailCaseInsensitive() throws {
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "INES@VT.Example")],
                          path: "data.email", rule: "already")
        // Full Unicode lower-casing, within one file.
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "σασ@vt.example"),
                           Ev.register("olga", role: "inspector", by: "admin", at: at, email: "ΣΑΣ@vt.example")],
                          path: "data.email", rule: "already")
        // Trimmed before comparing.
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "  ines@vt.example ")],
                          path: "data.email", rule: "already")
        // A deleted account's e-mail is free again; é and e + U+0301 differ.
        try assertAccepted([Ev.register("ivan", role: "inspector", by: "admin", at: at, email: "gone@vt.example"),
                            Ev.register("olga", role: "inspector", by: "admin", at: at, email: "andr\u{E9}@vt.example"),
                            Ev.register("petr", role: "inspector", by: "admin", at: at, email: "andre\u{301}@vt.example")])
    }

    // MARK: - Accounts

    func testCustomerWithoutAddress() throws {
        let line = Ev.line("account.registered", "admin", at: at, #""username":"dan","role":"customer","name":"Dan","email":"dan@vt.example""#)
        try assertRefused([line], path: "data.address", rule: "required")
        try assertRefused([Ev.register("dan", role: "customer", by: "admin", at: at, extra: #","address":{"street":"1 Rue","zipcode":"1"}"#)],
                          path: "data.address.city", rule: "required")
        try assertAccepted([Ev.register("dan", role: "customer", by: "admin", at: at)])
    }

    func testGeoOutOfRange() throws {
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, extra: #","geo":{"lat":90.000001,"lng":0}"#)],
                          path: "data.geo.lat", rule: "90")
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, extra: #","geo":{"lat":0,"lng":-180.5}"#)],
                          path: "data.geo.lng", rule: "180")
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, extra: #","geo":{"lat":0}"#)],
                          path: "data.geo.lng", rule: "required")
        try assertRefused([Ev.register("ivan", role: "inspector", by: "admin", at: at, extra: #","geo":{"lat":"1","lng":0}"#)],
                          path: "data.geo.lat", rule: "number")
        try assertAccepted([Ev.register("ivan", role: "inspector", by: "admin", at: at, extra: #","geo":{"lat":-90,"lng":180.0}"#),
                            Ev.register("olga", role: "inspector", by: "admin", at: at, extra: #","geo":{"lat":1e-7,"lng":-1.8e2}"#)])
    }

    func testEnumValues() throws {
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, result: "fake")], path: "data.result", rule: #"must be "authentic" or "counterfeit", got "fake""#)
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, result: "Authentic")], path: "data.result", rule: "authentic")
        try assertRefused([Ev.register("ivan", role: "owner", by: "admin", at: at)], path: "data.role", rule: "inspector")
        try assertRefused([Ev.report("s-1", reason: "smell", by: "ines", at: at)], path: "data.reason", rule: "packaging")
        try assertRefused([Ev.line("settings.changed", "ines", at: at, #""username":"ines","color":"black""#)], path: "data.color", rule: "white")
    }

    func testAccountUpdatedCannotChangeEmailOrRole() throws {
        try assertRefused([Ev.line("account.updated", "admin", at: at, #""username":"ines","email":"new@vt.example""#)],
                          path: "data.email", rule: "can not be changed")
        try assertRefused([Ev.line("account.updated", "admin", at: at, #""username":"ines","role":"admin""#)],
                          path: "data.role", rule: "can not be changed")
    }

    func testAccountUpdatedNeedsAChange() throws {
        try assertRefused([Ev.line("account.updated", "admin", at: at, #""username":"ines""#)], path: "data", rule: "at least one")
        try assertRefused([Ev.line("settings.changed", "ines", at: at, #""username":"ines""#)], path: "data", rule: "at least one")
    }

    // MARK: - Who may

    func testSystemMayRegisterOnlyTheFirstAdmin() throws {
        try assertRefused([Ev.register("boss", role: "admin", by: "system", at: at)], path: "actor", rule: "system")
        try assertRefused([Ev.passcodeSet("ines", by: "system", at: at)], path: "actor", rule: "system")
        try assertRefused([Ev.passcodeSet("admin", by: "system", at: at)], path: "actor", rule: "system")
        try assertRefused([Ev.scan("s-new", by: "system", at: at)], path: "actor", rule: "system")
    }

    func testSystemMayRegisterOnlyAnAdminOnAnEmptyLog() throws {
        let store = temporaryPath()
        let r = try veritrail(["import", try ndjsonFile([Ev.register("ines", role: "inspector", by: "system", at: at)]).path,
                               "--store", store.path])
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertTrue(r.stderr.contains("line 1") && r.stderr.contains("actor"), r.transcript)
        let s = try status(store)
        if s.exit == 0 { XCTAssertEqual((s.json as? [String: Any])?["events"] as? Int, 0, s.transcript) }
    }

    func testNonAdminMayNotRegisterOthers() throws {
        try assertRefused([Ev.register("ivan", role: "inspector", by: "ines", at: at)], path: "actor", rule: "admin")
        try assertRefused([Ev.register("dan", role: "customer", by: "ines", at: at)], path: "actor", rule: "admin")
        try assertRefused([Ev.register("dan", role: "customer", by: "cara", at: at)], path: "actor", rule: "admin")
        try assertAccepted([Ev.register("ivan", role: "admin", by: "admin", at: at),
                            Ev.register("dan", role: "customer", by: "ivan", at: at)])
    }

    func testSelfRegistration() throws {
        try assertRefused([Ev.register("ivan", role: "inspector", by: "ivan", at: at)], path: "actor", rule: "customer")
        try assertRefused([Ev.register("ivan", role: "admin", by: "ivan", at: at)], path: "actor", rule: "customer")
        try assertRefused([Ev.register("scan", role: "customer", by: "nobody", at: at)], path: "actor", rule: "nobody")
        try assertAccepted([Ev.register("ivan", role: "customer", by: "ivan", at: at)])
    }

    func testAccountUpdatedWhoMay() throws {
        try assertRefused([Ev.line("account.updated", "tom", at: at, #""username":"ines","name":"X""#)], path: "actor", rule: "itself")
        try assertRefused([Ev.line("account.updated", "cara", at: at, #""username":"ines","name":"X""#)], path: "actor", rule: "itself")
        try assertRefused([Ev.line("account.updated", "admin", at: at, #""username":"gone","name":"X""#)], path: "data.username", rule: "deleted")
        try assertRefused([Ev.line("account.updated", "admin", at: at, #""username":"nosuch","name":"X""#)], path: "data.username", rule: "no such")
        try assertAccepted([Ev.line("account.updated", "ines", at: at, #""username":"ines","name":"Ines M""#),
                            Ev.line("account.updated", "admin", at: at, #""username":"ines","phone":"+33 1""#),
                            Ev.line("account.updated", "cara", at: at, #""username":"cara","address":{"street":"2 Rue","city":"Paris","zipcode":"75001"}"#)])
    }

    func testAccountDeletedWhoMay() throws {
        try assertRefused([Ev.line("account.deleted", "ines", at: at, #""username":"tom""#)], path: "actor", rule: "admin")
        try assertRefused([Ev.line("account.deleted", "ines", at: at, #""username":"ines""#)], path: "actor", rule: "admin")
        try assertRefused([Ev.line("account.deleted", "admin", at: at, #""username":"gone""#)], path: "data.username", rule: "deleted")
        try assertRefused([Ev.line("account.deleted", "admin", at: at, #""username":"tom","reason":"\#(String(repeating: "r", count: 201))""#)],
                          path: "data.reason", rule: "200")
        try assertAccepted([Ev.line("account.deleted", "admin", at: at, #""username":"tom","reason":"  gone  ""#)])
    }

    func testLastAdminCannotBeDeleted() throws {
        try assertRefused([Ev.line("account.deleted", "admin", at: at, #""username":"admin""#)], path: "data.username", rule: "last admin")
        // With a second admin it can; then the second is the last one.
        try assertAccepted([Ev.register("boss", role: "admin", by: "admin", at: at),
                            Ev.line("account.deleted", "boss", at: at, #""username":"admin""#)])
        try assertRefused([Ev.register("boss", role: "admin", by: "admin", at: at),
                           Ev.line("account.deleted", "boss", at: at, #""username":"admin""#),
                           Ev.line("account.deleted", "boss", at: at, #""username":"boss""#)],
                          path: "data.username", rule: "last admin")
    }

    func testPasscodeSetWhoMay() throws {
        try assertRefused([Ev.passcodeSet("ines", by: "tom", at: at)], path: "actor", rule: "itself")
        try assertRefused([Ev.passcodeSet("gone", by: "admin", at: at)], path: "data.username", rule: "deleted")
        try assertAccepted([Ev.passcodeSet("ines", by: "ines", at: at), Ev.passcodeSet("cara", by: "admin", at: at),
                            Ev.passcodeSet("tom", by: "tom", at: at)])
    }

    func testPasscodeAttemptedWhoMay() throws {
        try assertRefused([Ev.attempt("ines", "granted", by: "admin", at: at)], path: "actor", rule: "itself")
        try assertRefused([Ev.attempt("cara", "granted", at: at)], path: "data.username", rule: "no passcode")
        try assertRefused([Ev.attempt("gone", "granted", at: at)], path: "actor", rule: "deleted")
        try assertRefused([Ev.attempt("ines", "maybe", at: at)], path: "data.outcome", rule: "granted")
    }

    func testOwnOnlyEvents() throws {
        try assertRefused([Ev.line("settings.changed", "admin", at: at, #""username":"ines","flash":true"#)], path: "actor", rule: "itself")
        try assertRefused([Ev.line("search.performed", "admin", at: at, #""username":"ines","query":"serum""#)], path: "actor", rule: "itself")
        try assertRefused([Ev.fitness("ines", by: "admin", at: at)], path: "actor", rule: "itself")
        try assertRefused([Ev.goal("tom", month: "2026-11", metric: "jumps", target: "10", by: "admin", at: at)], path: "actor", rule: "itself")
        try assertAccepted([Ev.line("settings.changed", "ines", at: at, #""username":"ines","flash":true,"historyWindow":"7d""#),
                            Ev.line("search.performed", "ines", at: at, #""username":"ines","query":" serum ""#),
                            Ev.fitness("ines", at: at),
                            Ev.goal("tom", month: "2026-11", metric: "jumps", target: "10", at: at)])
    }

    func testStatusChangedWhoMay() throws {
        try assertRefused([Ev.line("status.changed", "ines", at: at, #""username":"cara","status":"ONBOARDED""#)], path: "actor", rule: "admin")
        try assertRefused([Ev.line("status.changed", "cara", at: at, #""username":"cara","status":"ONBOARDED""#)], path: "actor", rule: "admin")
        try assertAccepted([Ev.line("status.changed", "admin", at: at, #""username":"cara","status":"ONBOARDED","note":"called""#)])
    }

    func testSessionWhoMay() throws {
        try assertRefused([Ev.session("ines", "sess-9", by: "tom", at: at, date: "2026-11-20")], path: "actor", rule: "admin")
        try assertAccepted([Ev.session("ines", "sess-9", by: "admin", at: at, date: "2026-11-20"),
                            Ev.session("ines", "sess-10", by: "ines", at: at, date: "2026-11-20")])
    }

    func testDeletedActorCannotAct() throws {
        try assertRefused([Ev.scan("s-new", by: "gone", at: at)], path: "actor", rule: "deleted")
        try assertRefused([Ev.line("settings.changed", "gone", at: at, #""username":"gone","flash":true"#)], path: "actor", rule: "deleted")
        try assertRefused([Ev.passcodeSet("gone", by: "gone", at: at)], path: "actor", rule: "deleted")
        try assertRefused([Ev.scan("s-new", by: "nobody", at: at)], path: "actor", rule: "no such account")
        // An account deleted earlier in the same file.
        try assertRefused([Ev.line("account.deleted", "admin", at: at, #""username":"tom""#), Ev.scan("s-new", by: "tom", at: at)],
                          path: "actor", rule: "deleted")
    }

    func testUsernameNeverReused() throws {
        try assertRefused([Ev.register("gone", role: "inspector", by: "admin", at: at, email: "other@vt.example")],
                          path: "data.username", rule: "taken")
        try assertRefused([Ev.register("ines", role: "inspector", by: "admin", at: at, email: "other@vt.example")],
                          path: "data.username", rule: "taken")
        try assertRefused([Ev.register("gone", role: "customer", by: "gone", at: at, email: "other@vt.example")],
                          path: "data.username", rule: "taken")
    }

    // MARK: - Scans and reports

    func testScanIdUnique() throws {
        try assertRefused([Ev.scan("s-1", by: "tom", at: at)], path: "data.scanId", rule: "unique")
        try assertRefused([Ev.scan("s-new", by: "tom", at: at), Ev.scan("s-new", by: "ines", at: at)], path: "data.scanId", rule: "unique")
    }

    func testReportOfUnknownScan() throws {
        try assertRefused([Ev.report("s-nope", reason: "label", by: "ines", at: at)], path: "data.scanId", rule: "no such scan")
    }

    func testSecondReport() throws {
        try assertRefused([Ev.report("s-2", reason: "price", by: "ines", at: at)], path: "data.scanId", rule: "already reported")
        try assertRefused([Ev.report("s-1", reason: "price", by: "ines", at: at), Ev.report("s-1", reason: "label", by: "tom", at: at)],
                          path: "data.scanId", rule: "already reported")
        // Any scan can be reported once, whatever its result.
        try assertAccepted([Ev.report("s-1", reason: "price", by: "cara", at: at)])
    }

    func testOtherNeedsAMessage() throws {
        try assertRefused([Ev.report("s-1", reason: "other", by: "ines", at: at)], path: "data.message", rule: "required")
        try assertRefused([Ev.report("s-1", reason: "label", by: "ines", at: at, extra: #","message":"\#(String(repeating: "m", count: 281))""#)],
                          path: "data.message", rule: "280")
        try assertAccepted([Ev.report("s-1", reason: "other", by: "ines", at: at, extra: #","message":"smells odd""#)])
    }

    func testBatchIdOnlyInBatchMode() throws {
        try assertRefused([Ev.scan("s-new", by: "ines", at: at, extra: #","batchId":"b-1""#)], path: "data.batchId", rule: "batch")
        try assertAccepted([Ev.scan("s-new", by: "ines", at: at, mode: "batch", extra: #","batchId":"b-1""#)])
    }

    func testFlashMustBeBoolean() throws {
        try assertRefused([Ev.line("scan.recorded", "ines", at: at, scanFields.replacingOccurrences(of: #""flash":false"#, with: #""flash":0"#))],
                          path: "data.flash", rule: "true or false")
        try assertRefused([Ev.line("scan.recorded", "ines", at: at, scanFields.replacingOccurrences(of: #","flash":false"#, with: ""))],
                          path: "data.flash", rule: "required")
    }

    // MARK: - Customers' process

    func testStatusMustDiffer() throws {
        try assertRefused([Ev.line("status.changed", "admin", at: at, #""username":"cara","status":"AWAITED""#)], path: "data.status", rule: "differ")
        try assertRefused([Ev.line("status.changed", "admin", at: at, #""username":"cara","status":"DONE""#)], path: "data.status", rule: "AWAITED")
    }

    func testStatusOfANonCustomer() throws {
        try assertRefused([Ev.line("status.changed", "admin", at: at, #""username":"ines","status":"ONBOARDED""#)],
                          path: "data.username", rule: "not a customer")
        try assertRefused([Ev.line("status.changed", "admin", at: at, #""username":"nosuch","status":"ONBOARDED""#)],
                          path: "data.username", rule: "no such")
    }

    // MARK: - Fitness goals

    func testGoalMonthBeforeMonthOfAt() throws {
        try assertRefused([Ev.goal("tom", month: "2026-10", metric: "jumps", target: "10", at: at)], path: "data.month", rule: "before")
        try assertRefused([Ev.goal("tom", month: "2026-13", metric: "jumps", target: "10", at: at)], path: "data.month", rule: "YYYY-MM")
        try assertAccepted([Ev.goal("tom", month: "2026-11", metric: "scans", target: "0", at: at),
                            Ev.goal("tom", month: "2027-01", metric: "jumps", target: "100000000", at: at)])
        try assertRefused([Ev.goal("tom", month: "2026-12", metric: "jumps", target: "100000001", at: at)], path: "data.target", rule: "100000000")
    }

    func testCaloriesGoalNeedsFitness() throws {
        try assertRefused([Ev.goal("ines", month: "2026-11", metric: "calories", target: "500", at: at)], path: "data.target", rule: "fitness")
        try assertAccepted([Ev.goal("ines", month: "2026-11", metric: "calories", target: "0", at: at),
                            Ev.goal("tom", month: "2026-11", metric: "calories", target: "500", at: at),
                            Ev.fitness("ines", at: at),
                            Ev.goal("ines", month: "2026-11", metric: "calories", target: "500", at: at)])
    }

    func testSessionDateNotAfterDateOfAt() throws {
        try assertRefused([Ev.session("ines", "sess-9", by: "ines", at: "2026-11-20T23:59:59Z", date: "2026-11-21")], path: "data.date", rule: "after")
        try assertRefused([Ev.session("ines", "sess-9", by: "ines", at: at, date: "2026-11-31")], path: "data.date", rule: "YYYY-MM-DD")
        try assertAccepted([Ev.session("ines", "sess-9", by: "ines", at: at, date: "2026-11-20"),
                            Ev.session("ines", "sess-10", by: "ines", at: at, date: "2025-01-01")])
    }

    func testEndTimeAfterStartTime() throws {
        try assertRefused([Ev.session("ines", "sess-9", by: "ines", at: at, date: "2026-11-20", start: "10:00", end: "10:00")],
                          path: "data.endTime", rule: "after")
        try assertRefused([Ev.session("ines", "sess-9", by: "ines", at: at, date: "2026-11-20", start: "10:00", end: "09:59")],
                          path: "data.endTime", rule: "after")
        try assertRefused([Ev.session("ines", "sess-9", by: "ines", at: at, date: "2026-11-20", start: "9:00", end: "10:30")],
                          path: "data.startTime", rule: "HH:MM")
        try assertAccepted([Ev.session("ines", "sess-9", by: "ines", at: at, date: "2026-11-20", start: "00:00", end: "23:59")])
    }

    func testSessionIdUniquePerAccount() throws {
        try assertRefused([Ev.session("ines", "sess-1", by: "ines", at: at, date: "2026-11-20")], path: "data.sessionId", rule: "already")
        try assertRefused([Ev.session("tom", "sess-x", by: "tom", at: at, date: "2026-11-20"),
                           Ev.session("tom", "sess-x", by: "admin", at: at, date: "2026-11-20")], path: "data.sessionId", rule: "already")
        try assertAccepted([Ev.session("tom", "sess-1", by: "tom", at: at, date: "2026-11-20")])
    }

    // MARK: - Lockout consistency

    func testLockoutConsistency() throws {
        // tom is locked from 10:00:30 until 10:01:30.
        try assertRefused([Ev.attempt("tom", "granted", at: at)], path: "data.outcome", rule: "locked")
        try assertRefused([Ev.attempt("tom", "denied", at: "2026-11-20T10:01:29.999999Z")], path: "data.outcome", rule: "locked")
        try assertRefused([Ev.attempt("ines", "locked", at: at)], path: "data.outcome", rule: "not locked")
        // Exactly at lockedUntil the lock has run out: a denied counts afresh, a locked is refused.
        try assertAccepted([Ev.attempt("tom", "locked", at: "2026-11-20T10:01:29.999999Z"),
                            Ev.attempt("tom", "denied", at: "2026-11-20T10:01:30Z")])
        try assertRefused([Ev.attempt("tom", "locked", at: "2026-11-20T10:01:30Z")], path: "data.outcome", rule: "not locked")
        // Setting a passcode clears the lockout.
        try assertAccepted([Ev.passcodeSet("tom", by: "admin", at: at), Ev.attempt("tom", "granted", at: at)])
        // Three denials in the file lock ines at once.
        try assertRefused([Ev.attempt("ines", "denied", at: at), Ev.attempt("ines", "denied", at: at),
                           Ev.attempt("ines", "denied", at: at), Ev.attempt("ines", "granted", at: "2026-11-20T10:01:59Z")],
                          path: "data.outcome", rule: "locked")
    }

    // MARK: - Credentials

    func testCredentialRules() throws {
        func cred(_ iterations: String = "100000", salt: String = Ev.salt, hash: String = Ev.hash, scheme: String = "pbkdf2-sha256") -> String {
            Ev.line("passcode.set", "admin", at: at,
                    #""username":"ines","credential":{"scheme":"\#(scheme)","iterations":\#(iterations),"salt":"\#(salt)","hash":"\#(hash)"}"#)
        }
        try assertRefused([cred("99999")], path: "data.credential.iterations", rule: "100000")
        try assertRefused([cred("10000001")], path: "data.credential.iterations", rule: "10000000")
        try assertRefused([cred("100000.0")], path: "data.credential.iterations", rule: "integer")
        try assertRefused([cred(salt: "AAECAwQFBgcICQoLDA0O")], path: "data.credential.salt", rule: "")   // 15 bytes
        try assertRefused([cred(salt: Data(count: 15).base64EncodedString())], path: "data.credential.salt", rule: "16")
        try assertRefused([cred(salt: Data(count: 65).base64EncodedString())], path: "data.credential.salt", rule: "64")
        try assertRefused([cred(hash: Data(count: 31).base64EncodedString())], path: "data.credential.hash", rule: "32")
        try assertRefused([cred(hash: Data(count: 33).base64EncodedString())], path: "data.credential.hash", rule: "32")
        try assertRefused([cred(hash: "ayf3tcDVah5kRZWydsw6bJ//4aRAeOWgSOaDtH/B5Lg")], path: "data.credential.hash", rule: "base64")
        try assertRefused([cred(hash: "ayf3tcDVah5kRZWydsw6bJ__4aRAeOWgSOaDtH_B5Lg=")], path: "data.credential.hash", rule: "base64")
        try assertRefused([cred(salt: "AAECAwQFBgcI CQoLDA0ODw==")], path: "data.credential.salt", rule: "base64")
        try assertRefused([cred(scheme: "sha1")], path: "data.credential.scheme", rule: "pbkdf2-sha256")
        try assertAccepted([cred("10000000", salt: Data(count: 64).base64EncodedString()),
                            cred(salt: Data(count: 16).base64EncodedString(), hash: Data(repeating: 0xFF, count: 32).base64EncodedString())])
    }

    // MARK: - All or nothing

    func testABadLastLineWritesNothingOnANewStore() throws {
        let store = temporaryPath()
        var lines = Self.baseLines
        lines.append(Ev.scan("s-1", by: "ines", at: at))
        let r = try veritrail(["import", try ndjsonFile(lines).path, "--store", store.path])
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertTrue(r.stderr.contains("line \(lines.count)"), r.transcript)
        let s = try status(store)
        if s.exit == 0 {
            XCTAssertEqual((s.json as? [String: Any])?["events"] as? Int, 0, s.transcript)
        } else {
            XCTAssertEqual(s.exit, 74, "no store, or an empty one\n\(s.transcript)")
        }
    }

    func testBlankLinesCountInLineNumbers() throws {
        try assertRefused(["", "  \t ", Ev.scan("s-1", by: "ines", at: at)], path: "data.scanId", rule: "unique")
        // CRLF line ends are accepted.
        let base = try baseStore()
        let store = try copyStore(base.store)
        let text = [Self.lead, "", Ev.scan("s-x", by: "ines", at: at)].joined(separator: "\r\n") + "\r\n"
        let r = try veritrail(["import", try dataFile(Data(text.utf8)).path, "--store", store.path, "--json"])
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual((r.json as? [String: Any])?["appended"] as? Int, 2, r.transcript)
    }
}
