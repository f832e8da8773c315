import Foundation
import TestSupport
import XCTest

/// The stored read models against themselves after `rebuild`, and against the in-memory replay path.
final class ReadModelTests: XCTestCase {
    /// Representative queries (`--json` and the store are added), for a log whose users are given.
    private func queries(inspector: String, other: String, customer: String?, scanId: String?) -> [[String]] {
        var q: [[String]] = [
            ["history"], ["history", "--type", "failed", "--window", "30d", "--limit", "20", "--offset", "3"],
            ["history", "--search", "a"], ["history", "--as", inspector], ["history", "--by", other, "--window", "all"],
            ["stats"], ["stats", "--by", inspector], ["lockout"], ["lockout", inspector], ["customers"],
            ["accounts"], ["goals", inspector], ["settings", inspector], ["searches", inspector], ["replay"],
        ]
        if let customer { q.append(["customer", "show", customer]) }
        if let scanId { q.append(["show", scanId]) }
        return q
    }

    /// Every query's exit code and stdout, in order.
    private func answers(_ store: URL, now: String, _ queries: [[String]], extra: [String] = [],
                         file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try queries.map { q in
            let r = try veritrail(q + ["--json", "--store", store.path, "--now", now] + extra, file: file, line: line)
            XCTAssertEqual(r.exit, 0, "\(q.joined(separator: " "))\n\(r.transcript)", file: file, line: line)
            return "\(q.joined(separator: " ")) → \(r.exit)\n\(r.stdout)"
        }
    }

    private func assertSame(_ a: [String], _ b: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, what, file: file, line: line)
        for (x, y) in zip(a, b) where x != y {
            XCTFail("\(what) differ:\n\(x.prefix(1500))\n---\n\(y.prefix(1500))", file: file, line: line)
        }
    }

    /// The parsed lines of an NDJSON file.
    private func events(_ lines: [String]) -> [[String: Any]] { lines.compactMap(jsonObject) }

    private func check(lines all: [String], inspector: String, other: String, now: String) throws {
        let parsed = events(all)
        let full = temporaryPath("full")
        try importOK(try ndjsonFile(all), into: full)
        let headSeq = all.count
        let firstCustomer = parsed.first { ($0["data"] as? [String: Any])?["role"] as? String == "customer" }
            .flatMap { ($0["data"] as? [String: Any])?["username"] as? String }
        let firstScan = parsed.first { $0["type"] as? String == "scan.recorded" }
            .flatMap { ($0["data"] as? [String: Any])?["scanId"] as? String }
        let qs = queries(inspector: inspector, other: other, customer: firstCustomer, scanId: firstScan)

        // rebuild changes no answer.
        let before = try answers(full, now: now, qs)
        let statusBefore = try status(full).stdout
        let rebuilt = try ok(["rebuild", "--store", full.path, "--json"])
        // The scan list the store kept event by event is the one the rebuild recomputes.
        XCTAssertEqual(jsonObject(rebuilt.stdout)?["scanListRewritten"] as? Bool, false, rebuilt.stdout)
        let after = try answers(full, now: now, qs)
        assertSame(before, after, "answers before and after rebuild")
        XCTAssertEqual(try status(full).stdout, statusBefore)

        // --as-of the head seq keeps every event: the same answers.
        let asOfHead = try answers(full, now: now, qs, extra: ["--as-of", "\(headSeq)"])
        assertSame(before, asOfHead, "plain answers and --as-of \(headSeq)")

        // The replay path (a clock before the last event) against the stored models of a store that holds
        // only the events up to that clock.
        let cut = parsed[parsed.count / 2]["at"] as? String ?? ""
        let prefix = zip(all, parsed).filter { ($0.1["at"] as? String ?? "") <= cut }.map(\.0)
        XCTAssertLessThan(prefix.count, all.count)
        let partial = temporaryPath("prefix")
        try importOK(try ndjsonFile(prefix), into: partial)
        let prefixParsed = events(prefix)
        let customer = prefixParsed.first { ($0["data"] as? [String: Any])?["role"] as? String == "customer" }
            .flatMap { ($0["data"] as? [String: Any])?["username"] as? String }
        let qsPrefix = queries(inspector: inspector, other: other, customer: customer, scanId: firstScan)
        let stored = try answers(partial, now: cut, qsPrefix)
        let replayed = try answers(full, now: cut, qsPrefix)
        assertSame(stored, replayed, "stored models of a prefix store and the replay of the whole log at --now \(cut)")
        // --as-of the cut time and seq on the whole log, with the same clock.
        let asOfTime = try answers(full, now: cut, qsPrefix, extra: ["--as-of", cut])
        assertSame(stored, asOfTime, "prefix store and --as-of \(cut)")
        let asOfSeq = try answers(full, now: cut, qsPrefix, extra: ["--as-of", "\(prefix.count)"])
        assertSame(stored, asOfSeq, "prefix store and --as-of \(prefix.count)")
    }

    func testDemoAnswersSurviveRebuildAndMatchReplay() throws {
        try check(lines: try lines(of: demoEvents), inspector: "ines", other: "kwan", now: "2026-11-20T18:00:00Z")
    }

    func testGeneratedLogAnswersSurviveRebuildAndMatchReplay() throws {
        let (lines, last) = GeneratedLog.make(seed: 20261120, count: 3000)
        XCTAssertGreaterThanOrEqual(lines.count, 3000)
        try check(lines: lines, inspector: "insp1", other: "insp2", now: last)
    }
}

/// A seeded, valid log shaped like real use: an admin, inspectors, customers, many scans over weeks with
/// repeated codes and reports, searches, settings, sessions, goals, status changes, passcode attempts.
enum GeneratedLog {
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
    }

    static func time(_ seconds: Int) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// At least `count` lines, and the `at` of the last one.
    static func make(seed: UInt64, count: Int) -> (lines: [String], last: String) {
        var rng = SplitMix64(state: seed)
        var t = 1_788_249_600 // 2026-09-01T00:00:00Z
        var lines: [String] = []
        var at: String { time(t) }
        lines.append(Ev.register("admin", role: "admin", by: "system", at: at, name: "Ada Admin"))
        lines.append(Ev.passcodeSet("admin", by: "system", at: at))
        let inspectors = ["insp1", "insp2", "insp3", "insp4"]
        for name in inspectors {
            t += 60
            lines.append(Ev.register(name, role: "inspector", by: "admin", at: at, name: "Inspector \(name.last!)"))
            lines.append(Ev.passcodeSet(name, by: "admin", at: at))
        }
        var customers: [String: String] = [:]
        for (i, name) in ["cust1", "cust2", "cust3"].enumerated() {
            t += 60
            lines.append(Ev.register(name, role: "customer", by: i == 0 ? name : "admin", at: at, name: ["Zoë", "adam", "Émile"][i]))
            customers[name] = "AWAITED"
        }
        let categories = ["Apparel", "Cosmetics", "Watches", "Électronique", "Food"]
        let products = ["Sneaker", "Serum", "Chrono", "Café crème", "Bag 👜"]
        var scans: [String] = []
        var unreported: [String] = []
        var sessions = 0
        let statuses = ["AWAITED", "FAILEDTOREACH", "ONBOARDED", "INPROCESS", "COMPLETED", "DENIED"]
        while lines.count < count {
            t += rng.int(30...3000)
            let who = rng.pick(inspectors)
            let roll = rng.int(0...99)
            switch roll {
            case 0..<78:
                let id = "g-\(scans.count)"
                let code = "CODE-\(rng.int(0...700))"
                let k = rng.int(0...categories.count - 1)
                let batch = rng.int(0...9) == 0
                var extra = batch ? #","batchId":"B\#(rng.int(1...20))""# : ""
                if rng.int(0...3) == 0 { extra += #","location":"Aisle \#(rng.int(1...9))""# }
                if rng.int(0...5) == 0 { extra += #","notes":"note \#(rng.int(1...99)) ✓""# }
                if rng.int(0...2) == 0 { extra += #","brand":"Brand\#(rng.int(1...5))""# }
                lines.append(Ev.scan(id, by: who, at: at, code: code, productName: products[k], category: categories[k],
                                     result: rng.int(0...6) == 0 ? "counterfeit" : "authentic", mode: batch ? "batch" : "single",
                                     extra: extra))
                scans.append(id)
                unreported.append(id)
            case 78..<85 where !unreported.isEmpty:
                let i = rng.int(0...unreported.count - 1)
                let id = unreported.remove(at: i)
                let reason = rng.pick(["packaging", "label", "serial", "price", "seller", "other"])
                lines.append(Ev.report(id, reason: reason, by: who, at: at,
                                       extra: reason == "other" || rng.int(0...1) == 0 ? #","message":"Looks \#(rng.pick(["odd", "FAKE", "off"]))""# : ""))
            case 85..<88:
                lines.append(Ev.line("search.performed", who, at: at, #""username":"\#(who)","query":"\#(rng.pick(["serum", "Serum", "sneaker", "café", "code-1"]))""#))
            case 88..<90:
                lines.append(Ev.line("settings.changed", who, at: at,
                                     #""username":"\#(who)","historyWindow":"\#(rng.pick(["today", "7d", "30d", "90d", "all"]))","flash":\#(rng.int(0...1) == 0)"#))
            case 90..<94:
                sessions += 1
                let date = String(at.prefix(10))
                let start = rng.int(6...20)
                lines.append(Ev.session(who, "sess-\(sessions)", by: rng.int(0...3) == 0 ? "admin" : who, at: at, date: date,
                                        start: String(format: "%02d:00", start), end: String(format: "%02d:%02d", start + 1, rng.int(0...59)),
                                        jumps: "\(rng.int(0...9000))", calories: "\(rng.int(0...900))"))
            case 94..<96:
                let month = String(at.prefix(7))
                lines.append(Ev.goal(who, month: month, metric: rng.pick(["jumps", "scans"]), target: "\(rng.int(0...50) * 100)", at: at))
            case 96..<98:
                let name = rng.pick(customers.keys.sorted())
                let next = rng.pick(statuses.filter { $0 != customers[name] })
                customers[name] = next
                lines.append(Ev.line("status.changed", "admin", at: at, #""username":"\#(name)","status":"\#(next)","note":"step \#(lines.count)""#))
            default:
                lines.append(Ev.attempt(who, "granted", at: at))
            }
        }
        return (lines, at)
    }
}
