import Foundation
import XCTest

/// The command line's own conventions (cli.md §1, §6): global options before or after the command's name,
/// usage errors before anything else, and a missing store.
final class CommandLineTests: XCTestCase {
    private func demoStore() throws -> URL {
        let store = temporaryPath()
        try importOK(packageRoot.appendingPathComponent("Events/demo.ndjson"), into: store)
        return store
    }

    func testGlobalOptionsAreAcceptedBeforeTheCommandToo() throws {
        let store = try demoStore()
        let after = try ok(["stats", "--store", store.path, "--json", "--now", "2026-11-20T18:00:00Z"])
        let before = try ok(["--store", store.path, "--json", "--now", "2026-11-20T18:00:00Z", "stats"])
        XCTAssertEqual(before.stdout, after.stdout)
        let digest = try ok(["--store=\(store.path)", "log", "digest"])
        XCTAssertEqual(digest.stdout, try ok(["log", "digest", "--store", store.path]).stdout)
    }

    func testUsageErrorsComeBeforeAMissingStore() throws {
        let missing = temporaryPath()
        XCTAssertEqual(try veritrail("history", "--limit", "0", "--store", missing.path).exit, 64)
        XCTAssertEqual(try veritrail("history", "--now", "yesterday", "--store", missing.path).exit, 64)
        XCTAssertEqual(try veritrail("stats", "--store", missing.path).exit, 74)
        XCTAssertEqual(try veritrail("log", "verify", "--store", missing.path).exit, 74)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "a read must not create a store")
    }

    func testARefusedImportIntoANewStoreLeavesNoStore() throws {
        let store = temporaryPath()
        let bad = try ndjsonFile([#"{"type":"scan.recorded","at":"2026-11-01T00:00:00Z","actor":"ines","data":{}}"#])
        let r = try veritrail("import", bad.path, "--store", store.path)
        XCTAssertEqual(r.exit, 65)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path))
        XCTAssertEqual(try veritrail("log", "status", "--store", store.path).exit, 74)
    }
}
