import ArgumentParser
import Foundation
import StrictJSON

/// `check EVENTS_FILE EXPECTATIONS_DIR`: asserts projections from an event fixture. It imports the events
/// into a fresh store and asks every question file of the directory through this same executable, as a
/// user would, comparing exit codes and JSON answers (by value: key order and number spelling aside).
///
/// A question file is `{"args": [...], "now"?, "asOf"?, "as"?, "exit"?: 0, "expect"?: {...}}`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the answers of an event fixture against expected JSON files; exit 1 when any differs.",
        discussion: "Example: veritrail check Events/demo.ndjson Projections/demo"
    )

    @Argument(help: ArgumentHelp("The NDJSON event fixture.", valueName: "events-file")) var events: String
    @Argument(help: ArgumentHelp("The folder of question files (*.json).", valueName: "expectations-dir")) var expectations: String

    func run() throws {
        try runReporting {
            let files = try FileManager.default.contentsOfDirectory(atPath: expectations)
                .filter { $0.hasSuffix(".json") }.sorted()
            guard !files.isEmpty else { throw Failure.refused("no question files (*.json) in \(expectations)") }
            let storeDirectory = FileManager.default.temporaryDirectory
                .appendingPathComponent("veritrail-check-\(UUID().uuidString.lowercased())").path
            defer { try? FileManager.default.removeItem(atPath: storeDirectory) }
            let imported = try Self.runSelf(["import", events, "--store", storeDirectory, "--json"])
            guard imported.exit == 0 else {
                throw Failure.refused("the events did not import: \(imported.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            var failed = 0
            for file in files {
                let differences = try check(question: expectations + "/" + file, store: storeDirectory)
                if differences.isEmpty { continue }
                failed += 1
                Output.print("✗ \(file)")
                for line in differences { Output.print("    " + line) }
            }
            Output.print("\(files.count - failed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(1) }
        }
    }

    /// Asks one question and returns how the answer differs from the expected one (empty when it holds).
    private func check(question path: String, store: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path), case .object(let q)? = try? JSONValue.parse(Array(data)),
              case .array(let argValues)? = q["args"] else {
            return ["not a question file: needs an object with \"args\""]
        }
        var args = argValues.compactMap { if case .string(let s) = $0 { s } else { nil } }
        args += ["--json", "--store", store]
        if case .string(let now)? = q["now"] { args += ["--now", now] }
        if case .string(let asOf)? = q["asOf"] { args += ["--as-of", asOf] }
        if case .string(let viewer)? = q["as"] { args += ["--as", viewer] }
        var expectedExit: Int64 = 0
        if case .number(let n)? = q["exit"], let e = n.integerValue { expectedExit = e }
        let result = try Self.runSelf(args)
        let command = "veritrail " + args.joined(separator: " ")
        guard Int64(result.exit) == expectedExit else {
            return ["\(command)", "exit: expected \(expectedExit), got \(result.exit) \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"]
        }
        guard let expected = q["expect"] else { return [] }
        guard let got = try? JSONValue.parse(result.stdout) else { return ["\(command)", "stdout is not one JSON document"] }
        let differences = JSONDifference.between(expected, got, path: "$")
        return differences.isEmpty ? [] : [command] + differences
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
