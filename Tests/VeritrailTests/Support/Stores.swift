import Foundation

/// Stores for the Swift Testing suites, which have no `XCTestCase` teardown: each lives under the test
/// process's temporary folder (`TempDir.root`), removed by whoever made it.
enum Stores {
    /// A store holding Events/demo.ndjson, imported once per test process and only read by the suites that
    /// share it.
    static let demo: URL = {
        let store = TempDir.fresh("demo")
        let result = try? CLI.run(["import", demoEvents.path, "--store", store.path, "--json"])
        precondition(result?.exit == 0, "the demo store could not be made: \(result?.transcript ?? "no run")")
        return store
    }()

    /// A fresh copy of the demo store, for a test that writes; `body` runs with it and it is removed after.
    static func withDemoCopy<R>(_ body: (URL) throws -> R) throws -> R {
        let copy = TempDir.fresh("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: copy) }
        // The data file and what is kept beside it (the signed checkpoint), so that `log verify` checks the copy whole.
        for name in try FileManager.default.contentsOfDirectory(atPath: demo.path) where name != "lock.mdb" && !name.hasSuffix(".lock") {
            try FileManager.default.copyItem(at: demo.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        return try body(copy)
    }

    /// The package's root folder (where Events/ and Projections/ are).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var demoEvents: URL { packageRoot.appendingPathComponent("Events/demo.ndjson") }
}
