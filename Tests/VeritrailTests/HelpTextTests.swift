import Foundation
import Testing

/// Issue #23.12: every help page fits 80 columns, on a terminal and through a pipe, says what each command takes
/// (no bare `<options>` usage), and holds examples that can be pasted.
@Suite struct HelpTextTests {
    /// Every command path, from ArgumentParser's own description of the command line.
    static let commands: [[String]] = {
        guard let r = try? CLI.run(["--experimental-dump-help"]),
              let root = (r.json as? [String: Any])?["command"] as? [String: Any] else { return [] }
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            paths.append(path)
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                if let name = sub["commandName"] as? String { walk(sub, path + [name]) }
            }
        }
        walk(root, [])
        return paths
    }()

    @Test func everyCommandIsListed() {
        #expect(Self.commands.count > 40)
    }

    @Test(arguments: commands)
    func helpFitsEightyColumnsAndCanBePasted(path: [String]) throws {
        let screen = try PseudoTerminal.run(path + ["--help"], columns: 80)
        let piped = try CLI.run(path + ["--help"])
        #expect(screen.exit == 0 && piped.exit == 0)
        let terminalLines = screen.raw.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false)
        for (where_, lines) in [("terminal", terminalLines), ("pipe", piped.stdout.split(separator: "\n", omittingEmptySubsequences: false))] {
            for line in lines {
                #expect(line.count <= 80, "\(path) on a \(where_): \(line.count) columns: \(line)")
            }
        }
        let text = piped.stdout
        #expect(!text.contains("USAGE: veritrail \(path.joined(separator: " ")) <options>"), "\(text)")
        #expect(!text.contains("/tmp/demo"), "the README's store is demo-store")
        for line in text.split(separator: "\n") where line.contains("(default ") && line.contains("(default:") {
            Issue.record("a default said twice: \(line)")
        }
        // An example line is a command to paste: no elided digest or placeholder in it.
        for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("veritrail ") {
            #expect(!line.contains("…"), "\(path): \(line)")
        }
    }

    /// A paragraph of a discussion is one sentence after another, not broken where the source's line ended.
    @Test(arguments: [["init"], ["import"], ["register"]])
    func discussionsAreParagraphs(path: [String]) throws {
        let text = try CLI.run(path + ["--help"], environment: ["COLUMNS": "1000"]).stdout
        let discussion = text.components(separatedBy: "\n\n").dropFirst().first ?? ""
        #expect(!discussion.contains("\n"), "a hard break mid-sentence in \(path): \(discussion)")
    }
}
