import Foundation
import XCTest

/// export → import restores a store bit for bit; a doctored export is refused at its first bad line; an
/// export re-imported onto its own store is a chain of no-ops.
final class RoundTripTests: XCTestCase {
    private func digest(_ store: URL) throws -> String {
        try ok(["log", "digest", "--store", store.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testDemoRoundTrip() throws {
        let a = temporaryPath("a"), b = temporaryPath("b")
        try importOK(demoEvents, into: a)
        let exportFile = temporaryPath("export.ndjson")
        try ok(["export", "--store", a.path, "--output", exportFile.path])
        let exported = try Data(contentsOf: exportFile)
        XCTAssertEqual(try ok(["export", "--store", a.path]).stdoutData, exported, "export to stdout and to --output differ")
        let count = try lines(of: demoEvents).count
        XCTAssertEqual(try lines(of: exportFile).count, count)

        // Into a fresh store, under the same origin (proofs.md §2; its signing key is its own): the same
        // digest, the same export byte for byte, the same status.
        let origin = try XCTUnwrap((try status(a).json as? [String: Any])?["origin"] as? String)
        let restored = try ok(["import", exportFile.path, "--store", b.path, "--origin", origin, "--json"])
        XCTAssertEqual((restored.json as? [String: Any])?["appended"] as? Int, count, restored.transcript)
        XCTAssertEqual(try digest(b), try digest(a))
        XCTAssertEqual(try ok(["export", "--store", b.path]).stdoutData, exported)
        XCTAssertEqual(try status(b).stdout, try status(a).stdout)

        // Onto its own store: every line an idempotent no-op.
        let before = try digest(a)
        let again = try importOK(exportFile, into: a)
        XCTAssertEqual((again.json as? [String: Any])?["appended"] as? Int, 0, again.transcript)
        XCTAssertEqual((again.json as? [String: Any])?["existing"] as? Int, count, again.transcript)
        XCTAssertEqual(try digest(a), before)

        // A doctored export: one character of the middle line's data changed.
        var exportLines = try lines(of: exportFile)
        guard let index = (exportLines.count / 2..<exportLines.count).first(where: { exportLines[$0].contains(#""productName":""#) }) else {
            return XCTFail("no scan after the middle of the demo")
        }
        var line = Array(exportLines[index].unicodeScalars)
        let marker = Array(#""productName":""#.unicodeScalars)
        let start = (0...(line.count - marker.count)).first { Array(line[$0..<$0 + marker.count]) == marker }! + marker.count
        line[start] = line[start] == "Z" ? "Y" : "Z"
        exportLines[index] = String(String.UnicodeScalarView(line))
        let doctored = try ndjsonFile(exportLines, label: "doctored")
        let c = temporaryPath("c")
        let refused = try veritrail(["import", doctored.path, "--store", c.path])
        XCTAssertEqual(refused.exit, 65, refused.transcript)
        XCTAssertTrue(refused.stderr.contains("line \(index + 1):"), "should be refused at line \(index + 1)\n\(refused.transcript)")
        XCTAssertTrue(refused.stderr.contains("hash"), refused.transcript)
        let s = try status(c)
        if s.exit == 0 { XCTAssertEqual((s.json as? [String: Any])?["events"] as? Int, 0, s.transcript) }
        // The same doctored file onto the original store: refused at the same line (different content, same id).
        let refusedOnA = try veritrail(["import", doctored.path, "--store", a.path])
        XCTAssertEqual(refusedOnA.exit, 65, refusedOnA.transcript)
        XCTAssertTrue(refusedOnA.stderr.contains("line \(index + 1):"), refusedOnA.transcript)
        XCTAssertEqual(try digest(a), before)

        // An exported line imports only at the position it came from.
        let tail = try ndjsonFile(Array(try lines(of: exportFile).dropFirst()), label: "tail")
        let misplaced = try veritrail(["import", tail.path, "--store", temporaryPath("d").path])
        XCTAssertEqual(misplaced.exit, 65, misplaced.transcript)
        XCTAssertTrue(misplaced.stderr.contains("line 1:") && misplaced.stderr.contains("seq"), misplaced.transcript)
        // A copy holding exactly the events before a point extends with the rest.
        let half = count / 2
        let e = temporaryPath("e")
        try importOK(try ndjsonFile(Array(try lines(of: exportFile).prefix(half)), label: "head"), into: e)
        try importOK(try ndjsonFile(Array(try lines(of: exportFile).dropFirst(half)), label: "rest"), into: e)
        XCTAssertEqual(try digest(e), before)
    }
}
