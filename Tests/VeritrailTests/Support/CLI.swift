import Foundation
import XCTest

/// What one run of the `veritrail` binary gave back.
struct RunResult {
    var exit: Int32
    var stdout: String
    var stderr: String
    var stdoutData: Data

    /// Both streams, for failure messages.
    var transcript: String { "exit \(exit)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)" }

    /// stdout parsed as one JSON document (nil when it is not).
    var json: Any? { try? JSONSerialization.jsonObject(with: stdoutData, options: [.fragmentsAllowed]) }
}

/// Runs the real `veritrail` executable that `swift build` put next to this test bundle.
enum CLI {
    /// Where the binary is, or why it could not be found.
    static let located: Result<URL, CLIError> = locate()

    struct CLIError: Error, CustomStringConvertible {
        var description: String
    }

    private static func locate() -> Result<URL, CLIError> {
        let fm = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["VERITRAIL_TEST_BINARY"], !explicit.isEmpty {
            return fm.isExecutableFile(atPath: explicit) ? .success(URL(fileURLWithPath: explicit))
                : .failure(CLIError(description: "VERITRAIL_TEST_BINARY=\(explicit) is not an executable file"))
        }
        // The folders that may hold the test bundle: on Linux `<scratch>/debug/X.xctest` (a file run by
        // itself), on macOS `<scratch>/debug/X.xctest/Contents/MacOS/X` run by `xctest`.
        var folders: [URL] = []
        func addAncestors(of url: URL) {
            var dir = url.resolvingSymlinksInPath()
            for _ in 0..<5 {
                if dir.pathExtension == "xctest" { folders.append(dir.deletingLastPathComponent()) }
                folders.append(dir)
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            addAncestors(of: bundle.bundleURL)
        }
        if let arg0 = CommandLine.arguments.first, !arg0.isEmpty {
            addAncestors(of: URL(fileURLWithPath: arg0).deletingLastPathComponent())
        }
        for arg in CommandLine.arguments.dropFirst() where arg.hasSuffix(".xctest") {
            addAncestors(of: URL(fileURLWithPath: arg))
        }
        addAncestors(of: Bundle.main.bundleURL)
        addAncestors(of: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        var seen = Set<String>()
        for folder in folders where seen.insert(folder.path).inserted {
            let candidate = folder.appendingPathComponent("veritrail")
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fm.isExecutableFile(atPath: candidate.path) {
                return .success(candidate)
            }
        }
        return .failure(CLIError(description: """
            the `veritrail` executable is not next to the test bundle (looked in: \(seen.sorted().joined(separator: ", "))). \
            Run `swift build` (with the same --scratch-path as `swift test`) first, \
            or set VERITRAIL_TEST_BINARY to its path.
            """))
    }

    /// The binary, or a test failure that says to run `swift build` first.
    static func binary(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        switch located {
        case .success(let url): return url
        case .failure(let error):
            XCTFail("\(error)", file: file, line: line)
            throw error
        }
    }

    /// Runs `veritrail args…` with `stdin` (nothing when nil), without any VERITRAIL_* from the caller's
    /// environment, plus `environment`.
    static func run(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let process = try start(args, stdin: stdin, environment: environment, file: file, line: line)
        return process.finish()
    }

    /// A started process whose output is being collected.
    final class Running: @unchecked Sendable {
        let process: Process
        private let group = DispatchGroup()
        private var out = Data()
        private var err = Data()

        init(process: Process, out: Pipe, err: Pipe) {
            self.process = process
            let queue = DispatchQueue.global()
            group.enter()
            queue.async { self.out = out.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }
            group.enter()
            queue.async { self.err = err.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }
        }

        func finish() -> RunResult {
            group.wait()
            process.waitUntilExit()
            return RunResult(exit: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                             stderr: String(decoding: err, as: UTF8.self), stdoutData: out)
        }
    }

    static func start(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:],
                      file: StaticString = #filePath, line: UInt = #line) throws -> Running {
        let process = Process()
        process.executableURL = try binary(file: file, line: line)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("VERITRAIL_") { env[key] = nil }
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let input = try TempDir.scratchFile(contents: stdin)
            process.standardInput = try FileHandle(forReadingFrom: input)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        return Running(process: process, out: out, err: err)
    }
}

/// Temporary directories under the system's temporary folder, removed by the test that made them.
enum TempDir {
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("veritrail-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // What a test left (stdin files live as long as the process) goes with the process.
        atexit { try? FileManager.default.removeItem(at: TempDir.root) }
        return url
    }()

    static func fresh(_ label: String = "t") -> URL {
        root.appendingPathComponent("\(label)-\(UUID().uuidString.lowercased())")
    }

    /// A file with `contents` that lives as long as this test process (used for stdin).
    static func scratchFile(contents: Data) throws -> URL {
        let url = fresh("stdin")
        try contents.write(to: url)
        return url
    }
}

extension XCTestCase {
    /// A new directory path (not created) that is removed when the test ends.
    func temporaryPath(_ label: String = "store") -> URL {
        let url = TempDir.fresh(label)
        try? FileManager.default.createDirectory(at: TempDir.root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A file holding `lines` joined by `\n` (with a final `\n`), removed when the test ends.
    func ndjsonFile(_ lines: [String], label: String = "events") throws -> URL {
        let url = temporaryPath(label + ".ndjson")
        try Data((lines.map { $0 + "\n" }.joined()).utf8).write(to: url)
        return url
    }

    func dataFile(_ data: Data, label: String = "events") throws -> URL {
        let url = temporaryPath(label + ".ndjson")
        try data.write(to: url)
        return url
    }

    /// Runs the CLI; the failure location is the caller's.
    @discardableResult
    func veritrail(_ args: String..., stdin: Data? = nil, environment: [String: String] = [:],
                   file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try CLI.run(args, stdin: stdin, environment: environment, file: file, line: line)
    }

    @discardableResult
    func veritrail(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:],
                   file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try CLI.run(args, stdin: stdin, environment: environment, file: file, line: line)
    }

    /// Runs the CLI and fails unless it exits 0.
    @discardableResult
    func ok(_ args: [String], stdin: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let r = try CLI.run(args, stdin: stdin, file: file, line: line)
        XCTAssertEqual(r.exit, 0, "veritrail \(args.joined(separator: " "))\n\(r.transcript)", file: file, line: line)
        return r
    }

    /// Imports `file` into `store`, failing unless it succeeds.
    @discardableResult
    func importOK(_ file: URL, into store: URL, file callerFile: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try ok(["import", file.path, "--store", store.path, "--json"], file: callerFile, line: line)
    }

    /// `log status --json` of a store, as raw stdout (so that "unchanged" means byte-identical).
    func status(_ store: URL, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try CLI.run(["log", "status", "--store", store.path, "--json"], file: file, line: line)
    }

    /// The package's root folder (where Events/ and Projections/ are).
    var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    var demoEvents: URL { packageRoot.appendingPathComponent("Events/demo.ndjson") }

    /// The lines of a file, without empty ones.
    func lines(of url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Copies an existing store (its data file, kept checkpoint and secrets file) into a new directory,
    /// removed when the test ends.
    func copyStore(_ store: URL) throws -> URL {
        let copy = temporaryPath("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for name in ["data.mdb", "checkpoint", "secrets"] where FileManager.default.fileExists(atPath: store.appendingPathComponent(name).path) {
            try FileManager.default.copyItem(at: store.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        return copy
    }
}

/// Parses a JSON object from text (for checking lines and answers).
func jsonObject(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [])) as? [String: Any]
}
