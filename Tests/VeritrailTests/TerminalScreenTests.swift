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
}
