import Foundation
import XCTest

// The command line as a newcomer meets it (issue 14): README's walk runs as printed, --version, a mistyped
// command's suggestion, help examples that are not broken, register's usage, and a copied binary that still
// geocodes. Each runs the real binary.
final class NewcomerTests: XCTestCase {
    /// A store made from the demo events, removed when the test ends.
    func demoStore() throws -> URL {
        let store = temporaryPath("demo")
        try importOK(demoEvents, into: store)
        return store
    }

    /// The shell commands of README's "Using it" section that start with `veritrail` or pipe into it.
    func readmeWalk() throws -> [String] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "## Using it") else { XCTFail("README has no \"Using it\" section"); return [] }
        let section = readme[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        var commands: [String] = [], inBlock = false
        for line in section.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inBlock = line == "```sh"; continue }
            if inBlock && (line.hasPrefix("veritrail ") || line.contains("| veritrail ")) { commands.append(line) }
        }
        return commands
    }

    /// Runs `command` with /bin/sh in the package's folder, with the built `veritrail` first on the PATH.
    func shell(_ command: String, environment: [String: String]) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = packageRoot
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("VERITRAIL_") { env[key] = nil }
        env["NO_COLOR"] = "1"
        env["PATH"] = try CLI.binary().deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let running = CLI.Running(process: process, out: out, err: err)
        return running.finish()
    }

    func testEveryCommandOfTheReadmeWalkRunsAsPrinted() throws {
        let store = try demoStore()
        let commands = try readmeWalk()
        XCTAssertGreaterThan(commands.count, 10, "the walk of README's \"Using it\"")
        for command in commands {
            let r = try shell(command, environment: ["VERITRAIL_STORE": store.path, "VERITRAIL_NOW": "2026-11-20T18:05:00Z"])
            XCTAssertEqual(r.exit, 0, "\(command)\n\(r.transcript)")
            XCTAssertFalse(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(command) printed nothing")
        }
    }

    func testVersionIsOneLine() throws {
        let r = try veritrail("--version")
        XCTAssertEqual(r.exit, 0)
        XCTAssertEqual(r.stdout, "veritrail 0.2.0\n")
    }

    func testAMistypedCommandGetsASuggestion() throws {
        var r = try veritrail("histroy")
        XCTAssertEqual(r.exit, 64)
        XCTAssertEqual(r.stderr, "veritrail: 'histroy' is not a command of veritrail: did you mean history? ('veritrail --help' lists them)\n")
        r = try veritrail("log", "verfy")
        XCTAssertEqual(r.exit, 64)
        XCTAssertTrue(r.stderr.contains("did you mean verify?"), r.transcript)
        r = try veritrail("zzzzzzzz")
        XCTAssertEqual(r.exit, 64)
        XCTAssertFalse(r.stderr.contains("did you mean"), r.transcript)
        r = try veritrail("help", "history")
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertTrue(r.stdout.hasPrefix("OVERVIEW: The scan list"), r.stdout)
    }

    /// The command paths under `path`, from the SUBCOMMANDS of its help.
    func commandPaths(_ path: [String] = []) throws -> [[String]] {
        let help = try veritrail(path + ["--help"], environment: ["COLUMNS": "200"]).stdout
        var paths: [[String]] = []
        var inList = false
        for line in help.components(separatedBy: "\n") {
            if line.hasPrefix("SUBCOMMANDS:") { inList = true; continue }
            if inList && line.isEmpty { inList = false }
            guard inList, line.hasPrefix("  "), let name = line.split(separator: " ").first, name != "help" else { continue }
            let sub = path + [String(name)]
            paths.append(sub)
            paths += try commandPaths(sub)
        }
        return paths
    }

    func testHelpExamplesAreNotBrokenAt80Columns() throws {
        let headers = ["USAGE:", "ARGUMENTS:", "OPTIONS:", "SUBCOMMANDS:", "OVERVIEW:", "See "]
        let paths = try [[]] + commandPaths()
        XCTAssertGreaterThan(paths.count, 25)
        for path in paths {
            let lines = try veritrail(path + ["--help"], environment: ["COLUMNS": "80"]).stdout.components(separatedBy: "\n")
            for (line, next) in zip(lines, lines.dropFirst()) where line.hasPrefix("  veritrail ") || line.hasPrefix("Example: veritrail") {
                // A wrapped example goes on at the start of the next line.
                let broken = !next.isEmpty && !next.hasPrefix(" ") && !headers.contains { next.hasPrefix($0) }
                XCTAssertFalse(broken, "veritrail \(path.joined(separator: " ")) --help breaks an example:\n\(line)\n\(next)")
            }
        }
    }

    func testRegisterUsageShowsItsRequiredOptions() throws {
        let r = try veritrail("register", "--help", environment: ["COLUMNS": "200"])
        XCTAssertTrue(r.stdout.contains("USAGE: veritrail register [<options>] <username> --name <name> --email <email>"), r.stdout)
    }

    func testACopiedBinaryStillGeocodes() throws {
        let folder = temporaryPath("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("veritrail")
        try FileManager.default.copyItem(at: try CLI.binary(), to: copy)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasSuffix(".resources") })
        let store = try demoStore()
        let process = Process()
        process.executableURL = copy
        process.arguments = ["register", "paula", "--name", "Paula P", "--email", "paula@example.org", "--street", "1 Rue X",
                             "--city", "Paris", "--zipcode", "75001", "--passcode-stdin", "--store", store.path]
        process.environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        let input = try TempDir.scratchFile(contents: Data("2468\n2468\n".utf8))
        process.standardInput = try FileHandle(forReadingFrom: input)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let r = CLI.Running(process: process, out: out, err: err).finish()
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(r.stderr, "placed \"Paris\" at Paris, Île-de-France, France (48.85341, 2.3488)\n")
        let shown = try ok(["customer", "show", "paula", "--store", store.path, "--json"])
        let geo = (shown.json as? [String: Any])?["geo"] as? [String: Any]
        XCTAssertEqual(geo?["lat"] as? Double, 48.85341, shown.stdout)
    }

    func testThePlaceChosenIsSaidAndAGuessIsFlagged() throws {
        let store = try demoStore()
        func register(_ user: String, _ extra: [String]) throws -> RunResult {
            try veritrail(["register", user, "--name", "N", "--email", "\(user)@example.org", "--street", "1 Main St",
                           "--zipcode", "1", "--passcode-stdin", "--store", store.path] + extra, stdin: Data("2468\n2468\n".utf8))
        }
        var r = try register("mex", ["--city", "México"])
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertTrue(r.stderr.hasPrefix("placed \"México\" at Mexico City, Mexico"), r.stderr)
        r = try register("lon", ["--city", "London, UK"])
        XCTAssertTrue(r.stderr.hasPrefix("placed \"London, UK\" at London, England, United Kingdom"), r.stderr)
        r = try register("zer", ["--city", "Zermatt"])
        XCTAssertTrue(r.stderr.hasPrefix("placed \"Zermatt\" at Zermatt, Valais, Switzerland"), r.stderr)
        r = try register("spr", ["--city", "Springfield"])
        XCTAssertTrue(r.stderr.contains("note: not sure"), r.stderr)
        r = try register("tex", ["--city", "Paris", "--country", "us"])
        XCTAssertTrue(r.stderr.hasPrefix("placed \"Paris\" at Paris, Texas, United States"), r.stderr)
        r = try register("atl", ["--city", "Paris", "--country", "Atlantis"])
        XCTAssertEqual(r.exit, 65, r.transcript)
    }
}
