import Foundation
import XCTest

/// `--utc` shows times as the log writes them in every human answer, not only in the auditor's commands
/// (issue 14): an auditor compares, sorts and pastes them back into `--as-of`.
final class UTCTimesTests: XCTestCase {
    func testHumanAnswersShowTheLogsTimesWithUTC() throws {
        let store = temporaryPath("demo")
        try importOK(demoEvents, into: store)
        let now = "2026-11-20T18:00:00Z"
        for args in [["history", "--window", "all", "--limit", "3"], ["customers"], ["accounts"], ["stats"], ["log", "tail", "-n", "3"]] {
            let relative = try veritrail(args + ["--store", store.path, "--now", now])
            let absolute = try veritrail(args + ["--store", store.path, "--now", now, "--utc"])
            XCTAssertEqual(absolute.exit, 0, absolute.transcript)
            XCTAssertTrue(relative.stdout.contains(" ago"), "\(args): \(relative.transcript)")
            XCTAssertFalse(absolute.stdout.contains(" ago"), "\(args): \(absolute.transcript)")
            XCTAssertNotNil(absolute.stdout.range(of: #"2026-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, options: .regularExpression),
                            "\(args): \(absolute.transcript)")
        }
    }
}
