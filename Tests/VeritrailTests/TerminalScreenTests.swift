import Foundation
import Testing

/// Issue #23: what a person sees on a real terminal (a pseudo-terminal at 80 and 200 columns), and what a
/// pipe gets.
@Suite struct TerminalScreenTests {
    /// #23.3: the import's progress bar is cleared before the answer is printed.
    @Test(arguments: [80, 200])
    func theImportProgressBarIsCleared(columns: Int) throws {
        let store = TempDir.fresh("bar")
        defer { try? FileManager.default.removeItem(at: store) }
        let screen = try PseudoTerminal.run(["import", Stores.demoEvents.path, "--store", store.path], columns: columns)
        #expect(screen.exit == 0, "\(screen.transcript)")
        #expect(screen.raw.contains("importing"), "the bar was drawn: \(screen.transcript)")
        #expect(screen.rows.first == "appended 849 events", "\(screen.transcript)")
        #expect(screen.rows.count == 2 && screen.rows[1].hasPrefix("head 849:"), "\(screen.transcript)")
        #expect(!screen.rows.contains { $0.contains("importing") || $0.contains("█") }, "\(screen.transcript)")
    }

    /// #23.4: every human view of the README walk fits an 80-column terminal (no line longer than the terminal),
    /// a scan id is shown as the shortest start `show` takes, and a pipe gets every id whole.
    @Test func everyHumanViewFitsEightyColumns() throws {
        try Stores.withDemoCopy { store in
            let recorded = try CLI.run(["scan", "--as", "ines", "--passcode-stdin", "--code", "https://v.example/p/fit", "--product", "Serum",
                                        "--category", "Cosmetics", "--result", "authentic", "--json", "--store", store.path],
                                       stdin: Data("1234\n".utf8))
            let id = try #require((recorded.json as? [String: Any])?["scanId"] as? String)
            #expect(id.count > 30)
            let views: [[String]] = [["stats"], ["history", "--window", "all", "--limit", "20"], ["lockout"], ["customers"],
                                     ["customer", "show", "kamren"], ["goals", "tmueller"], ["accounts"], ["settings", "ines"],
                                     ["searches", "ines"], ["replay"], ["log", "status"], ["log", "tail", "-n", "20"],
                                     ["diff", "--from", "800"], ["show", id]]
            for view in views {
                let screen = try PseudoTerminal.run(view + ["--store", store.path, "--no-pager"], columns: 80)
                #expect(screen.exit == 0, "\(view): \(screen.transcript)")
                let lines = screen.raw.replacingOccurrences(of: "\r", with: "")
                    .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression).split(separator: "\n")
                for line in lines { #expect(line.count <= 80, "\(view): \(line.count) columns: \(line)") }
            }
            let history = try PseudoTerminal.run(["history", "--window", "all", "--limit", "3", "--store", store.path], columns: 80)
            // The shortest start no other scan shares: four characters, or more when a demo id starts alike
            // (a random id "s-00e…" beside the demo's "s-0042").
            let shown = history.rows.compactMap { $0.split(separator: " ").last.map(String.init) }.first { id.hasPrefix($0) }
            let short = try #require(shown, "\(history.transcript)")
            #expect(short.count >= 4 && short.count < id.count, "\(history.transcript)")
            #expect(try CLI.run(["show", short, "--json", "--store", store.path]).exit == 0, "the short id is one `show` takes")
            let piped = try CLI.run(["history", "--window", "all", "--limit", "3", "--store", store.path])
            #expect(piped.stdout.contains(id), "a pipe gets the whole id: \(piped.transcript)")
            let tail = try CLI.run(["log", "tail", "-n", "3", "--store", store.path])
            #expect(tail.stdout.split(separator: "\n").contains { $0.count > 80 && $0.contains(id) }, "nothing cut or wrapped in a pipe")
        }
    }
}
