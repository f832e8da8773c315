import Foundation
import XCTest

/// A writing command whose commit may have failed is retried safely with the id it printed (`--id`): the
/// retry of a write that did commit is a no-op, and an id can not be reused for other data (issue 11).
final class RetryTests: XCTestCase {
    let now = "2026-11-20T18:00:00Z"

    func run(_ store: URL, _ args: [String], stdin: String? = nil) throws -> RunResult {
        try veritrail(args + ["--store", store.path], stdin: stdin.map { Data($0.utf8) }, environment: ["VERITRAIL_NOW": now])
    }

    func testARetryWithTheSameIdWritesNothingMore() throws {
        let store = temporaryPath("demo")
        try importOK(demoEvents, into: store)
        let scan = ["scan", "--as", "ines", "--code", "R-1", "--product", "Serum", "--category", "Cosmetics",
                    "--result", "authentic", "--scan-id", "s-retry", "--passcode-stdin"]
        let first = try run(store, scan, stdin: "1234\n")
        XCTAssertEqual(first.exit, 0, first.transcript)
        let id = try XCTUnwrap(first.stdout.range(of: "event ").map { String(first.stdout[$0.upperBound...].prefix { $0 != ")" }) })
        let before = try status(store).stdout

        let retry = try run(store, scan + ["--id", id], stdin: "1234\n")
        XCTAssertEqual(retry.exit, 0, retry.transcript)
        XCTAssertTrue(retry.stdout.contains("event \(id)"), retry.transcript)
        XCTAssertEqual(try status(store).stdout, before, "the retry wrote nothing")

        let other = try run(store, ["scan", "--as", "ines", "--code", "R-2", "--product", "Serum", "--category", "Cosmetics",
                                    "--result", "authentic", "--id", id, "--passcode-stdin"], stdin: "1234\n")
        XCTAssertEqual(other.exit, 65, other.transcript)
        XCTAssertTrue(other.stderr.hasPrefix("veritrail: --id: \"\(id)\" is already in the log"), other.transcript)
        XCTAssertEqual(try status(store).stdout, before, "a reused id wrote nothing")
    }

    func testAMalformedIdIsAUsageError() throws {
        let store = temporaryPath("demo")
        try importOK(demoEvents, into: store)
        let r = try run(store, ["goal", "set", "--as", "ines", "--metric", "scans", "--target", "5", "--id", "no spaces"])
        XCTAssertEqual(r.exit, 64, r.transcript)
    }
}
