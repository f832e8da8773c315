import Foundation
import XCTest

/// Every event fixture against its question folder, through `veritrail check`: the demo and every
/// `Events/scenarios/NAME.ndjson` with `Projections/scenarios/NAME`. New fixtures need no new code.
final class FixtureTests: XCTestCase {
    func testDemoFixture() throws {
        try assertCheck(events: demoEvents, questions: packageRoot.appendingPathComponent("Projections/demo"))
    }

    func testEveryScenarioFixture() throws {
        let fm = FileManager.default
        let eventsDir = packageRoot.appendingPathComponent("Events/scenarios")
        let questionsDir = packageRoot.appendingPathComponent("Projections/scenarios")
        let names = try fm.contentsOfDirectory(atPath: eventsDir.path).filter { $0.hasSuffix(".ndjson") }
            .map { String($0.dropLast(".ndjson".count)) }.sorted()
        XCTAssertFalse(names.isEmpty, "no scenarios in \(eventsDir.path)")
        for name in names {
            let questions = questionsDir.appendingPathComponent(name)
            XCTAssertTrue(fm.fileExists(atPath: questions.path), "scenario \(name) has no question folder \(questions.path)")
            guard fm.fileExists(atPath: questions.path) else { continue }
            try assertCheck(events: eventsDir.appendingPathComponent(name + ".ndjson"), questions: questions)
        }
        // A question folder without its events is a fixture that never runs.
        let folders = try fm.contentsOfDirectory(atPath: questionsDir.path).filter { !$0.hasPrefix(".") }
        for folder in folders where !names.contains(folder) {
            XCTFail("Projections/scenarios/\(folder) has no Events/scenarios/\(folder).ndjson")
        }
    }

    private func assertCheck(events: URL, questions: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try veritrail(["check", events.path, questions.path], file: file, line: line)
        XCTAssertEqual(r.exit, 0, "veritrail check \(events.lastPathComponent) \(questions.path)\n\(r.transcript)",
                       file: file, line: line)
    }
}
