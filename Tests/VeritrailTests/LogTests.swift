import Domain
import Engine
import EventLog
import Foundation
import StrictJSON
import TestSupport
import XCTest

/// The log against real stores: append and read back, idempotent ids, gap-free seqs under concurrent
/// writers, growth past the initial map size, verify and digests, file modes.
final class LogTests: XCTestCase {
    static let admin = [
        Ev.register("admin", role: "admin", by: "system", at: "2026-11-01T08:00:00Z", id: "adm-1", name: "Ada Admin"),
        Ev.passcodeSet("admin", by: "system", at: "2026-11-01T08:00:00Z", id: "adm-2"),
    ]

    private func export(_ store: URL, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let r = try ok(["export", "--store", store.path], file: file, line: line)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    private func digest(_ store: URL) throws -> String {
        try ok(["log", "digest", "--store", store.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAppendAndReadBack() throws {
        let store = temporaryPath()
        let lines = Self.admin + [
            Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00.500Z"),
            Ev.scan("s-1", by: "ines", at: "2026-11-02T10:00:05.250Z", productName: "  Widget\\u00a0",
                    extra: #","notes":" two\nlines ""#.replacingOccurrences(of: "\n", with: "\\n")),
        ]
        let imported = try importOK(try ndjsonFile(lines), into: store)
        XCTAssertEqual((imported.json as? [String: Any])?["appended"] as? Int, 4, imported.transcript)
        let out = try export(store)
        XCTAssertEqual(out.count, 4)
        let events = out.compactMap(jsonObject)
        XCTAssertEqual(events.map { $0["seq"] as? Int }, [1, 2, 3, 4])
        XCTAssertEqual(events[0]["id"] as? String, "adm-1")
        XCTAssertEqual(events[1]["id"] as? String, "adm-2")
        let uuid = try NSRegularExpression(pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
        for e in events[2...] {
            let id = e["id"] as? String ?? ""
            XCTAssertEqual(uuid.numberOfMatches(in: id, range: NSRange(id.startIndex..., in: id)), 1, "not a lower-case UUID: \(id)")
        }
        XCTAssertNotEqual(events[2]["id"] as? String, events[3]["id"] as? String)
        for e in events {
            let hash = e["hash"] as? String ?? ""
            XCTAssertTrue(hash.count == 64 && hash.allSatisfy { "0123456789abcdef".contains($0) }, "hash: \(hash)")
        }
        // The log keeps normalised times and trimmed text; code and ids as given.
        XCTAssertEqual(events[2]["at"] as? String, "2026-11-01T09:00:00.5Z")
        XCTAssertEqual(events[3]["at"] as? String, "2026-11-02T10:00:05.25Z")
        let data = events[3]["data"] as? [String: Any]
        XCTAssertEqual(data?["productName"] as? String, "Widget")
        XCTAssertEqual(data?["notes"] as? String, "two\nlines")
        XCTAssertEqual(data?["code"] as? String, "C-s-1")
        // Keys of an exported line are in canonical order.
        XCTAssertTrue(out[3].hasPrefix(#"{"actor":"ines","at":"#), out[3])
        // log tail shows the same lines; status counts them.
        let tail = try ok(["log", "tail", "-n", "2", "--store", store.path, "--json"])
        XCTAssertEqual(tail.stdout.split(separator: "\n").map(String.init), Array(out[2...]))
        let status = try status(store).json as? [String: Any]
        XCTAssertEqual(status?["events"] as? Int, 4)
        XCTAssertEqual((status?["head"] as? [String: Any])?["seq"] as? Int, 4)
        XCTAssertEqual((status?["head"] as? [String: Any])?["hash"] as? String, events[3]["hash"] as? String)
        XCTAssertEqual(status?["firstAt"] as? String, "2026-11-01T08:00:00Z")
        XCTAssertEqual(status?["lastAt"] as? String, "2026-11-02T10:00:05.25Z")
        XCTAssertEqual(try digest(store), "4:\(events[3]["hash"] as? String ?? "")")
        // export --from/--to.
        let middle = try ok(["export", "--from", "2", "--to", "3", "--store", store.path])
        XCTAssertEqual(middle.stdout.split(separator: "\n").map(String.init), Array(out[1...2]))
    }

    func testEmptyStore() throws {
        let store = temporaryPath()
        try importOK(try ndjsonFile([]), into: store)
        let status = try status(store).json as? [String: Any]
        XCTAssertEqual(status?["events"] as? Int, 0)
        XCTAssertEqual((status?["head"] as? [String: Any])?["hash"] as? String, String(repeating: "0", count: 64))
        XCTAssertEqual(try digest(store), "0:" + String(repeating: "0", count: 64))
        try ok(["log", "verify", "--store", store.path, "--digest", "0:" + String(repeating: "0", count: 64)])
        XCTAssertEqual(try veritrail("log", "status", "--store", temporaryPath().path).exit, 74)
    }

    func testIdempotentIds() throws {
        let store = temporaryPath()
        let lines = Self.admin + [Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z", id: "i-1")]
        let file = try ndjsonFile(lines)
        try importOK(file, into: store)
        let before = try digest(store)
        // Re-importing the same file is a chain of no-ops that reports the existing events.
        let again = try importOK(file, into: store)
        let json = again.json as? [String: Any]
        XCTAssertEqual(json?["appended"] as? Int, 0, again.transcript)
        XCTAssertEqual(json?["existing"] as? Int, 3, again.transcript)
        XCTAssertEqual(try digest(store), before)

        // The same id with different content, in a later import: refused, nothing written.
        let changed = Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z", id: "i-1", name: "Other")
        let other = Ev.scan("s-9", by: "ines", at: "2026-11-03T00:00:00Z")
        let r = try veritrail(["import", try ndjsonFile([other, changed]).path, "--store", store.path])
        XCTAssertEqual(r.exit, 65, r.transcript)
        XCTAssertTrue(r.stderr.contains("line 2") && r.stderr.contains("id"), r.transcript)
        XCTAssertEqual(try digest(store), before)

        // The same id twice in one file, identical: appended once.
        let scan = Ev.scan("s-1", by: "ines", at: "2026-11-03T00:00:00Z", id: "scan-1")
        let twice = try importOK(try ndjsonFile([scan, scan]), into: store)
        XCTAssertEqual((twice.json as? [String: Any])?["appended"] as? Int, 1, twice.transcript)
        XCTAssertEqual((twice.json as? [String: Any])?["existing"] as? Int, 1, twice.transcript)
        // ...and differing within one file: refused at the second.
        let differs = Ev.scan("s-2", by: "ines", at: "2026-11-03T00:00:00Z", id: "scan-2")
        let differs2 = Ev.scan("s-3", by: "ines", at: "2026-11-03T00:00:00Z", id: "scan-2")
        let r2 = try veritrail(["import", try ndjsonFile([differs, differs2]).path, "--store", store.path])
        XCTAssertEqual(r2.exit, 65, r2.transcript)
        XCTAssertTrue(r2.stderr.contains("line 2"), r2.transcript)

        // Ids out of order, each twice in one file: appended once, then found (in this file's appends).
        let high = Ev.scan("s-4", by: "ines", at: "2026-11-03T00:00:00Z", id: "zz-9")
        let low = Ev.scan("s-5", by: "ines", at: "2026-11-03T00:00:00Z", id: "aa-1")
        let mixed = try importOK(try ndjsonFile([high, low, high, low]), into: store)
        XCTAssertEqual((mixed.json as? [String: Any])?["appended"] as? Int, 2, mixed.transcript)
        XCTAssertEqual((mixed.json as? [String: Any])?["existing"] as? Int, 2, mixed.transcript)
    }

    func testIdenticalOnceNormalised() throws {
        let store = temporaryPath()
        let first = #"{"id":"g-1","type":"account.registered","at":"2026-11-01T09:00:00.250Z","actor":"admin","data":{"username":"ines","role":"inspector","name":"  Ines ","email":"ines@vt.example","geo":{"lat":48.0,"lng":-0.0}}}"#
        let second = #"{"data":{"geo":{"lng":0,"lat":48},"email":"ines@vt.example","name":"Ines","role":"inspector","username":"ines"},"actor":"admin","at":"2026-11-01T09:00:00.25Z","type":"account.registered","id":"g-1"}"#
        let third = #"{"id":"g-1","type":"account.registered","at":"2026-11-01T09:00:00.250000Z","actor":"admin","data":{"username":"ines","role":"inspector","name":"Ines","email":"ines@vt.example","geo":{"lat":4.8e1,"lng":0.0}}}"#
        try importOK(try ndjsonFile(Self.admin + [first]), into: store)
        let before = try digest(store)
        for line in [second, third] {
            let r = try importOK(try ndjsonFile([line]), into: store)
            XCTAssertEqual((r.json as? [String: Any])?["existing"] as? Int, 1, "\(line)\n\(r.transcript)")
        }
        XCTAssertEqual(try digest(store), before)
        // A real difference in a number is not.
        let moved = second.replacingOccurrences(of: #""lat":48"#, with: #""lat":48.000001"#)
        XCTAssertEqual(try veritrail(["import", try ndjsonFile([moved]).path, "--store", store.path]).exit, 65)
    }

    func testConcurrentWritersKeepSeqsGapFree() throws {
        let store = temporaryPath()
        let inspectors = (1...4).map { "insp\($0)" }
        try importOK(try ndjsonFile(Self.admin + inspectors.map {
            Ev.register($0, role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z")
        }), into: store)
        let at = "2026-11-02T12:00:00Z"
        var files: [URL] = []
        for (i, who) in inspectors.enumerated() {
            files.append(try ndjsonFile((0..<50).map { Ev.scan("c\(i)-\($0)", by: who, at: at, code: "CODE-\($0 % 7)") }))
        }
        let running = try files.map { try CLI.start(["import", $0.path, "--store", store.path, "--json"]) }
        for r in running.map({ $0.finish() }) {
            XCTAssertEqual(r.exit, 0, r.transcript)
            XCTAssertEqual((r.json as? [String: Any])?["appended"] as? Int, 50, r.transcript)
        }
        let out = try export(store).compactMap(jsonObject)
        XCTAssertEqual(out.count, 206)
        XCTAssertEqual(out.map { $0["seq"] as? Int ?? -1 }, Array(1...206))
        XCTAssertEqual(out.filter { $0["type"] as? String == "scan.recorded" }.count, 200)
        XCTAssertEqual(Set(out.compactMap { ($0["data"] as? [String: Any])?["scanId"] as? String }).count, 200)
        let verify = try ok(["log", "verify", "--store", store.path, "--json"])
        XCTAssertEqual((verify.json as? [String: Any])?["ok"] as? Bool, true, verify.transcript)
        XCTAssertEqual((verify.json as? [String: Any])?["events"] as? Int, 206, verify.transcript)
        let stats = try ok(["stats", "--store", store.path, "--json", "--now", "2026-11-03T00:00:00Z"])
        XCTAssertEqual((stats.json as? [String: Any])?["total"] as? Int, 200, stats.transcript)
    }

    /// The library directly: a store opened with a 1 MiB map takes several MB in one write and in many.
    func testGrowthPastTheInitialMapSize() throws {
        let dir = temporaryPath()
        let notes = String(repeating: "n", count: 490)
        func incoming(_ line: String) throws -> IncomingEvent { try EventJSON.decode(try JSONValue.parse(line)) }
        do {
            let setup = try (Self.admin + [Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z")]).map(incoming)
            let big = try (0..<3000).map { try incoming(Ev.scan("g-\($0)", by: "ines", at: "2026-11-02T00:00:00Z", extra: #","notes":"\#(notes)""#)) }
            var seqs: [UInt64] = try XCTUnwrap(Store.create(directory: dir.path, mapSize: 1 << 20) { appender in
                try (setup + big).map { try appender.append($0).seq }
            })
            let store = try Store(directory: dir.path, mapSize: 1 << 20)
            for batch in 0..<150 {
                let events = try (0..<10).map {
                    try incoming(Ev.scan("m-\(batch)-\($0)", by: "ines", at: "2026-11-03T00:00:00Z", extra: #","notes":"\#(notes)""#))
                }
                seqs += try store.write { appender in
                    try events.map { try appender.append($0).seq }
                }
            }
            XCTAssertEqual(seqs, Array(1...4503), "seqs of the appended events")
        }
        let size = (try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("data.mdb").path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(size, 3 << 20, "the store should hold several MB")
        let verify = try ok(["log", "verify", "--store", dir.path, "--json"])
        XCTAssertEqual((verify.json as? [String: Any])?["events"] as? Int, 4503, verify.transcript)
        let history = try ok(["history", "--limit", "1", "--store", dir.path, "--json", "--now", "2026-11-04T00:00:00Z"])
        XCTAssertEqual((history.json as? [String: Any])?["total"] as? Int, 4500, history.transcript)
    }

    /// An import of 1 MiB or more is paged on a companion thread (`LMDB.MapPager`): refused at its last
    /// line it still writes nothing, and accepted it keeps every event, from a file or from a pipe.
    func testLargeImportIsAllOrNothing() throws {
        let notes = String(repeating: "n", count: 300)
        // Every event has an id, so that two imports of the lines make the same chain.
        let setup = Self.admin + [Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z", id: "i-1")]
        let scans = (0..<3000).map {
            Ev.scan("big-\($0)", by: "ines", at: "2026-11-02T00:00:00Z", id: "e-\($0)", extra: #","notes":"\#(notes)""#)
        }
        let good = try ndjsonFile(setup + scans)
        let size = (try FileManager.default.attributesOfItem(atPath: good.path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(size, 1 << 20, "the file must be large enough to be paged")

        let store = temporaryPath()
        let refused = try veritrail(["import", try ndjsonFile(setup + scans + [Ev.scan("big-0", by: "ines", at: "2026-11-03T00:00:00Z")]).path,
                                     "--store", store.path])
        XCTAssertEqual(refused.exit, 65, refused.transcript)
        XCTAssertTrue(refused.stderr.contains("line 3004"), refused.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path), "a refused import creates no store")

        let imported = try importOK(good, into: store)
        XCTAssertEqual((imported.json as? [String: Any])?["appended"] as? Int, 3003, imported.transcript)
        let verify = try ok(["log", "verify", "--store", store.path, "--json"])
        XCTAssertEqual((verify.json as? [String: Any])?["events"] as? Int, 3003, verify.transcript)

        // The same lines through a pipe (of unknown size, so paged too) make the same log.
        let piped = temporaryPath()
        let fromPipe = try veritrail(["import", "-", "--store", piped.path], stdin: try Data(contentsOf: good))
        XCTAssertEqual(fromPipe.exit, 0, fromPipe.transcript)
        XCTAssertEqual(try digest(piped), try digest(store))
    }

    func testVerifyDetectsAChangedByte() throws {
        let store = temporaryPath()
        try importOK(demoEvents, into: store)
        let needle = "could not be verified"
        let exported = try export(store)
        guard let line = exported.first(where: { $0.contains(needle) }), let seq = jsonObject(line)?["seq"] as? Int else {
            return XCTFail("the demo has no event with \"\(needle)\"")
        }
        XCTAssertEqual(exported.filter { $0.contains(needle) }.count, 1)
        let dataFile = store.appendingPathComponent("data.mdb")
        let original = try Data(contentsOf: dataFile)
        let offsets = occurrences(of: Data(needle.utf8), in: original)
        XCTAssertFalse(offsets.isEmpty, "\"\(needle)\" not found in data.mdb")
        var detected = 0
        for offset in offsets {
            var doctored = original
            let at = offset + 6   // the "n" of "not"
            doctored[at] = doctored[at] == UInt8(ascii: "n") ? UInt8(ascii: "m") : UInt8(ascii: "n")
            try doctored.write(to: dataFile)
            let r = try veritrail("log", "verify", "--store", store.path, "--json")
            let json = r.json as? [String: Any]
            if json?["ok"] as? Bool == false {
                detected += 1
                XCTAssertEqual(r.exit, 65, r.transcript)
                XCTAssertEqual(json?["firstBadSeq"] as? Int, seq, r.transcript)
                XCTAssertNotNil(json?["reason"] as? String, r.transcript)
            } else {
                // Only a copy outside the log (a read model) may change without the chain noticing.
                XCTAssertEqual(r.exit, 0, r.transcript)
            }
        }
        XCTAssertGreaterThanOrEqual(detected, 1, "flipping a byte of the stored event went unnoticed")
        try original.write(to: dataFile)
        try ok(["log", "verify", "--store", store.path, "--json"])
    }

    func testVerifyWithDigest() throws {
        let store = temporaryPath()
        try importOK(try ndjsonFile(Self.admin + [Ev.register("ines", role: "inspector", by: "admin", at: "2026-11-01T09:00:00Z")]), into: store)
        let events = try export(store).compactMap(jsonObject)
        let hash2 = events[1]["hash"] as? String ?? ""
        let right = try ok(["log", "verify", "--store", store.path, "--json", "--digest", "2:\(hash2)"])
        XCTAssertEqual((right.json as? [String: Any])?["ok"] as? Bool, true, right.transcript)
        let wrongHash = String(hash2.dropLast()) + (hash2.last == "0" ? "1" : "0")
        let wrong = try veritrail("log", "verify", "--store", store.path, "--json", "--digest", "2:\(wrongHash)")
        XCTAssertEqual(wrong.exit, 65, wrong.transcript)
        XCTAssertEqual((wrong.json as? [String: Any])?["ok"] as? Bool, false, wrong.transcript)
        XCTAssertEqual((wrong.json as? [String: Any])?["firstBadSeq"] as? Int, 2, wrong.transcript)
        // The hash of another seq is wrong for this one; a seq beyond the head is too.
        let other = try veritrail("log", "verify", "--store", store.path, "--json", "--digest", "1:\(hash2)")
        XCTAssertEqual(other.exit, 65, other.transcript)
        let beyond = try veritrail("log", "verify", "--store", store.path, "--json", "--digest", "9:\(hash2)")
        XCTAssertEqual(beyond.exit, 65, beyond.transcript)
        // A malformed digest is a usage error.
        XCTAssertEqual(try veritrail("log", "verify", "--store", store.path, "--digest", "2:XYZ").exit, 64)
        XCTAssertEqual(try veritrail("log", "verify", "--store", store.path, "--digest", "2:" + hash2.uppercased()).exit, 64)
    }

    func testFileModes() throws {
        let parent = temporaryPath("parent")
        let store = parent.appendingPathComponent("nested/store")
        try importOK(try ndjsonFile(Self.admin), into: store)
        func mode(_ url: URL) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
        }
        XCTAssertEqual(mode(store), 0o700, "store directory")
        XCTAssertEqual(mode(store.appendingPathComponent("data.mdb")), 0o600, "data.mdb")
        XCTAssertEqual(mode(store.appendingPathComponent("lock.mdb")), 0o600, "lock.mdb")
        let out = parent.appendingPathComponent("export.ndjson")
        try ok(["export", "--store", store.path, "--output", out.path])
        XCTAssertEqual(mode(out), 0o600, "export --output")
        XCTAssertEqual(try lines(of: out).count, 2)
    }

    private func occurrences(of needle: Data, in haystack: Data) -> [Int] {
        var found: [Int] = []
        var start = haystack.startIndex
        while let range = haystack.range(of: needle, in: start..<haystack.endIndex) {
            found.append(range.lowerBound - haystack.startIndex)
            start = range.upperBound
        }
        return found
    }
}
