import Foundation

/// A store made by the real `veritrail` binary in a temporary directory, and the files its checks need.
struct StoreFixture {
    let directory: URL
    let binary: URL
    var store: String { directory.appendingPathComponent("store").path }

    init() throws {
        directory = try Paths.temporaryDirectory()
        binary = try veritrailBinary()
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// `veritrail ARGS --store STORE`.
    @discardableResult
    func veritrail(_ arguments: [String], store: String? = nil) throws -> Run {
        try run(binary, arguments + ["--store", store ?? self.store], environment: ["NO_COLOR": "1"])
    }

    /// Imports the first `count` lines of `lines` (or all of them).
    func importLines(_ lines: [Substring], store: String? = nil) throws -> Run {
        let file = directory.appendingPathComponent("import-\(UUID().uuidString).ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return try veritrail(["import", file.path], store: store)
    }

    static func demoLines() throws -> [Substring] {
        try String(contentsOf: Paths.file("Events/demo.ndjson"), encoding: .utf8).split(separator: "\n")
    }

    func write(_ text: String, _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

/// The Go verifier of scripts/proofverify, built once per test run with Debian's Go and golang.org/x/mod.
enum GoVerifier {
    static let built: Result<URL, BuildFailed> = build()

    struct BuildFailed: Error, CustomStringConvertible { var description: String }

    private static func build() -> Result<URL, BuildFailed> {
        do {
            let out = try Paths.temporaryDirectory().appendingPathComponent("proofverify")
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("veritrail-proof-tests-gocache")
            let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["go", "build", "-o", out.path, "."],
                                 environment: ["GOPATH": "/usr/share/gocode", "GO111MODULE": "off", "GOFLAGS": "",
                                               "GOCACHE": cache.path, "HOME": FileManager.default.temporaryDirectory.path],
                                 in: Paths.file("scripts/proofverify"))
            guard result.exit == 0 else {
                return .failure(BuildFailed(description: "go build failed (run `make deps`): \(result.stderr)"))
            }
            return .success(out)
        } catch {
            return .failure(BuildFailed(description: "go build could not run (run `make deps`): \(error)"))
        }
    }

    /// `proofverify MODE VKEY FILES…`: exit 0 and "ok" when the check holds.
    static func check(_ mode: String, _ key: String, _ files: [String]) throws -> Run {
        try run(try built.get(), [mode, key] + files)
    }
}

/// The canonical forms (events.md §2) of an export's events, computed by scripts/oracle.py's own JCS: the
/// leaf data the Go verifier hashes, made by nobody's Swift.
func canonicalForms(ofExport path: String) throws -> [String] {
    let script = """
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import oracle
    for line in open(sys.argv[2], encoding="utf-8"):
        if line.strip():
            e = json.loads(line); del e["hash"]
            print(json.dumps(oracle.jcs(e)))
    """
    let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, Paths.file("scripts").path, path])
    guard result.exit == 0 else { throw BinaryMissing(description: "python3 failed: \(result.stderr)") }
    return try result.stdout.split(separator: "\n").map { line in
        try JSONDecoder().decode(String.self, from: Data(line.utf8))
    }
}
