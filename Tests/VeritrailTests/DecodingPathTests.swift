import Domain
import Foundation
import StrictJSON
import XCTest

/// An import reads plain lines with `JSONScanner` and the others with the parser; both go through the same
/// `EventJSON.decode`. This checks that the two readings of a line decode alike: the same event, or the
/// same refusal, for every fixture line and for lines made wrong member by member.
final class DecodingPathTests: XCTestCase {
    /// The decoding of `line` by each path: the event, or the refusal's text; nil for the scanner's when
    /// it does not take the line.
    private func decodings(_ line: [UInt8]) -> (scanned: String?, parsed: String) {
        func text(_ result: Result<IncomingEvent, EventError>) -> String {
            switch result {
            case .success(let event): "\(event)"
            case .failure(let error): "refused: \(error)"
            }
        }
        let scanner = JSONScanner()
        let scanned = line.withUnsafeBytes { bytes in
            scanner.scan(bytes).map { object in text(Result { () throws(EventError) in try EventJSON.decode(object) }) }
        }
        let parsed: String
        do {
            let value = try JSONValue.parse(line)
            parsed = text(Result { () throws(EventError) in try EventJSON.decode(value) })
        } catch {
            parsed = "not JSON: \(error)"
        }
        return (scanned, parsed)
    }

    private func fixtureLines() throws -> [[UInt8]] {
        let events = packageRoot.appendingPathComponent("Events")
        var files = [events.appendingPathComponent("demo.ndjson")]
        files += try FileManager.default.contentsOfDirectory(at: events.appendingPathComponent("scenarios"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "ndjson" }
        return try files.flatMap { url in
            try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { Array($0.utf8) }
        }
    }

    func testFixtureLinesDecodeAlikeEitherWay() throws {
        var scanned = 0
        for line in try fixtureLines() {
            let (fast, parsed) = decodings(line)
            guard let fast else { continue }
            scanned += 1
            XCTAssertEqual(fast, parsed, String(decoding: line, as: UTF8.self))
        }
        XCTAssertGreaterThan(scanned, 500, "most fixture lines are plain enough to be scanned")
    }

    /// Each member of each event's `data` (and of the line itself) removed, or given a value of every
    /// kind, and an unknown key added: the refusals (and the rare acceptances) are the same either way.
    func testWrongLinesAreRefusedAlikeEitherWay() throws {
        let replacements: [JSONValue] = [.number(JSONNumber(-1)), .number(JSONNumber(100_000)), .bool(true), .string(""),
                                         .string("zz"), .string(" x "), .object(JSONObject())]
        var compared = 0
        for line in try fixtureLines().prefix(400) {
            guard case .object(let event)? = try? JSONValue.parse(line) else { continue }
            var variants: [JSONObject] = []
            func vary(_ object: JSONObject, _ put: (JSONObject) -> JSONObject) {
                for key in object.keys {
                    var removed = object
                    removed.removeValue(forKey: key)
                    variants.append(put(removed))
                    for value in replacements {
                        var changed = object
                        changed.updateValue(value, forKey: key)
                        variants.append(put(changed))
                    }
                }
                var extra = object
                extra.updateValue(.string("x"), forKey: "unknownKey")
                variants.append(put(extra))
            }
            vary(event) { $0 }
            if case .object(let data)? = event["data"] {
                vary(data) { data in
                    var e = event
                    e.updateValue(.object(data), forKey: "data")
                    return e
                }
            }
            for variant in variants {
                let (fast, parsed) = decodings(canonicalJSON(.object(variant)))
                guard let fast else { continue }
                compared += 1
                XCTAssertEqual(fast, parsed)
            }
        }
        XCTAssertGreaterThan(compared, 10_000)
    }
}
