import Foundation

/// Where the package's files are, from this source file's place in it.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// A new temporary directory; the caller removes it.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("proof-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// What a run of a program gave back.
struct Run {
    var exit: Int32
    var stdout: String
    var stderr: String
}

/// Runs `executable` with `arguments` (no VERITRAIL_* from the caller's environment) and waits for it.
func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
         input: String? = nil) throws -> Run {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for key in env.keys where key.hasPrefix("VERITRAIL_") { env[key] = nil }
    for (k, v) in environment { env[k] = v }
    process.environment = env
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
        stdin.fileHandleForWriting.write(Data((input + "\n").utf8))
        try stdin.fileHandleForWriting.close()
    }
    let outData = Collected()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { outData.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Run(exit: process.terminationStatus, stdout: String(decoding: outData.data, as: UTF8.self),
               stderr: String(decoding: errData, as: UTF8.self))
}

/// Output read on another thread, handed over through the dispatch group's wait.
private final class Collected: @unchecked Sendable {
    var data = Data()
}

/// The `veritrail` binary `swift build` put next to the test bundle (or VERITRAIL_TEST_BINARY).
func veritrailBinary() throws -> URL {
    if let explicit = ProcessInfo.processInfo.environment["VERITRAIL_TEST_BINARY"], !explicit.isEmpty {
        return URL(fileURLWithPath: explicit)
    }
    var candidates: [URL] = []
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
        candidates.append(bundle.bundleURL.deletingLastPathComponent())
    }
    candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
    candidates.append(Paths.file(".build/debug"))
    for folder in candidates {
        let url = folder.appendingPathComponent("veritrail")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw BinaryMissing(description: "the veritrail binary is not next to the test bundle: run `swift build` first")
}

struct BinaryMissing: Error, CustomStringConvertible { var description: String }
