import ArgumentParser
import Foundation
import VeritrailKit

/// `check EVENTS_FILE EXPECTATIONS_DIR`: asserts projections from an event fixture. It imports the events
/// into a fresh store through the library and asks every question file of the directory through this same
/// executable, as a user would, comparing exit codes and JSON answers (by value: key order and number spelling aside).
/// `--update` writes the answers into the question files instead, so that a fixture is written by asking
/// and then reviewed (cli.md §7).
///
/// A question file is `{"args": [...], "now"?, "asOf"?, "as"?, "exit"?: 0, "expect"?: {...}}` (README,
/// "Writing projection tests"); any other key is refused, so that a misspelt `expect` can not make a
/// question that checks nothing.
struct CheckCommand: ParsableCommand {
    /// The origin of every fixture store (proofs.md §2), which `log status` answers show.
    static let origin = "veritrail.invalid/check"

    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the answers of an event fixture against expected JSON files; exit 1 when any differs.",
        discussion: """
        Examples:
          veritrail check Events/demo.ndjson Projections/demo
          veritrail check --update Events/scenarios/lockout.ndjson \\
            Projections/scenarios/lockout
        """
    )

    @Argument(help: ArgumentHelp("The NDJSON event fixture.", valueName: "events-file"), completion: .file()) var events: String
    @Argument(help: ArgumentHelp("The folder of question files (*.json).", valueName: "expectations-dir"), completion: .directory) var expectations: String
    @Flag(help: "Write the current answers (exit and expect) into the question files instead of checking them.")
    var update = false

    func run() throws {
        try runReporting {
            let questions = try Question.load(folder: expectations)
            let storeDirectory = FileManager.default.temporaryDirectory
                .appendingPathComponent("veritrail-check-\(UUID().uuidString.lowercased())").path
            defer { try? FileManager.default.removeItem(atPath: storeDirectory) }
            // A fixed origin, so that `log status` (which shows it) answers the same in every run. The store is
            // let go at once: the questions are asked by other processes.
            do {
                _ = try VeritrailStore.create(at: storeDirectory, importingNDJSON: events, origin: CheckCommand.origin)
            } catch {
                // Worded as `veritrail import` reports it, which the check quotes.
                let why = ("veritrail: " + Failure.from(error).message).trimmingCharacters(in: .whitespacesAndNewlines)
                throw Failure.refused("the events did not import: \(why)")
            }
            if update { return try rewrite(questions, store: storeDirectory) }
            var failed = 0
            for question in questions {
                let differences = try check(question, store: storeDirectory)
                if differences.isEmpty { continue }
                failed += 1
                Output.print("✗ \(question.name)")
                for line in differences { Output.print("    " + line) }
            }
            Output.print("\(questions.count - failed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(1) }
        }
    }

    /// Asks one question and returns how the answer differs from the expected one (empty when it holds).
    private func check(_ question: Question, store: String) throws -> [String] {
        let args = question.arguments(store: store)
        let result = try Self.runSelf(args)
        let command = "veritrail " + args.joined(separator: " ")
        guard Int64(result.exit) == question.exit else {
            return ["\(command)", "exit: expected \(question.exit), got \(result.exit) \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"]
        }
        guard let expected = question.expect else { return [] }
        guard let got = try? JSONValue.parse(result.stdout) else { return ["\(command)", "stdout is not one JSON document"] }
        let differences = JSONDifference.between(expected, got, path: "$")
        return differences.isEmpty ? [] : [command] + differences
    }

    /// `--update`: asks every question and writes its exit code and answer into its file (the answer only
    /// for exit 0). A file whose expectation still holds is left as it is (numbers spelt its way, `0.0`
    /// included), so that the review sees only the answers that changed.
    private func rewrite(_ questions: [Question], store: String) throws {
        var written = 0
        for question in questions {
            let result = try Self.runSelf(question.arguments(store: store))
            var answer: JSONValue?
            if result.exit == 0 {
                do {
                    answer = try JSONValue.parse(result.stdout)
                } catch {
                    throw Failure.refused("\(question.name): the answer is not one JSON document, nothing written for it")
                }
            }
            let holds = Int64(result.exit) == question.exit && question.expect.map { expected in
                answer.map { JSONDifference.between(expected, $0, path: "$").isEmpty } ?? false
            } ?? (result.exit != 0)
            if holds { continue }
            let text = question.updated(exit: result.exit, expect: answer)
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: question.path), options: .atomic)
            } catch {
                throw Failure.refused("can not write \(question.path): \(error.localizedDescription)")
            }
            written += 1
            Output.print("✎ \(question.name) (exit \(result.exit))")
        }
        Output.print("\(written) updated, \(questions.count - written) unchanged")
    }

    /// Runs this executable with `arguments`, capturing its output.
    static func runSelf(_ arguments: [String]) throws -> (exit: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["VERITRAIL_NOW"] = nil
        environment["VERITRAIL_USER"] = nil
        environment["VERITRAIL_STORE"] = nil
        environment["VERITRAIL_SERVER"] = nil
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

/// The JSON paths at which two values differ, with both sides.
enum JSONDifference {
    static func between(_ expected: JSONValue, _ got: JSONValue, path: String) -> [String] {
        switch (expected, got) {
        case let (.object(e), .object(g)):
            var out: [String] = []
            for (key, value) in e.members {
                if let other = g[key] { out += between(value, other, path: path + "." + key) } else { out.append("\(path).\(key): expected \(text(value)), got nothing") }
            }
            for (key, value) in g.members where e[key] == nil { out.append("\(path).\(key): expected nothing, got \(text(value))") }
            return out
        case let (.array(e), .array(g)):
            var out: [String] = []
            for i in 0..<max(e.count, g.count) {
                if i >= e.count { out.append("\(path)[\(i)]: expected nothing, got \(text(g[i]))") } else if i >= g.count { out.append("\(path)[\(i)]: expected \(text(e[i])), got nothing") } else { out += between(e[i], g[i], path: "\(path)[\(i)]") }
            }
            return out
        default:
            return expected == got ? [] : ["\(path): expected \(text(expected)), got \(text(got))"]
        }
    }

    static func text(_ v: JSONValue) -> String {
        let s = canonicalJSONString(v)
        return s.count > 120 ? String(s.prefix(120)) + "…" : s
    }
}
