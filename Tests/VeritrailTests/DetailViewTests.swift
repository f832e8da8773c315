import Foundation
import Testing

/// Issue #23.11: `show`, `customer show`, `settings`, `searches` and `log status` are laid out for people (a
/// title, aligned facts, tables), not as the JSON's keys.
@Suite struct DetailViewTests {
    let store = ["--store", Stores.demo.path, "--now", "2026-11-21T00:00:00Z"]

    @Test(arguments: [
        (["show", "s-0024"], "Scan s-0024  ✗ counterfeit", ["scanId:", "seenBefore:", "productName:"]),
        (["customer", "show", "kamren"], "Chelsey Dietrich (kamren)  ● FAILEDTOREACH", ["color:", "light-red", "statusHistory:", "lat:"]),
        (["settings", "ines"], "Settings of ines", ["windows:", "- 30d", "historyWindow:"]),
        (["searches", "ines"], "Recent searches of ines (newest first)", ["recent:", "username:"]),
        (["log", "status"], "849 events", ["byType:", "head:", "firstAt:"]),
    ])
    func aViewForPeople(args: [String], title: String, dumped: [String]) throws {
        let r = try CLI.run(args + store)
        #expect(r.exit == 0, "\(r.transcript)")
        #expect(r.stdout.hasPrefix(title), "\(r.stdout)")
        for key in dumped { #expect(!r.stdout.contains(key), "\(args) still shows \(key):\n\(r.stdout)") }
    }

    @Test func theJSONIsUnchanged() throws {
        let r = try CLI.run(["settings", "ines", "--json"] + store)
        #expect(r.stdout.contains(#""windows":["today","7d","30d","90d","all"]"#), "\(r.stdout)")
    }
}
