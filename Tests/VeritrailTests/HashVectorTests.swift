import Foundation
import XCTest

/// Hash-chain values computed independently (Python: json + hashlib, with an RFC 8785 writer and
/// ECMAScript number formatting) for lines with non-ASCII text, escapes, control characters, trimmed
/// white space, normalised times and geo numbers (48.137154, -0.0, 1e-7, 0.000001, 180.0).
final class HashVectorTests: XCTestCase {
    static let input: [String] = [
        #"{"id":"vec-1","type":"account.registered","at":"2026-11-01T08:00:00.250Z","actor":"system","data":{"username":"admin","role":"admin","name":"\u00a0 Zoë Ünal 万\u3000","email":" zoe@vt.example ","geo":{"lng":-0.0,"lat":48.137154},"address":{"street":"Straße 1","city":"München","zipcode":"80331"}}}"#,
        #"{"data":{"credential":{"salt":"AAECAwQFBgcICQoLDA0ODw==","hash":"ayf3tcDVah5kRZWydsw6bJ//4aRAeOWgSOaDtH/B5Lg=","iterations":100000,"scheme":"pbkdf2-sha256"},"username":"admin"},"actor":"system","at":"2026-11-01T08:00:00.25Z","type":"passcode.set","id":"vec-2"}"#,
        #"{"id":"vec-3","type":"scan.recorded","at":"2026-11-01T09:00:00.000001Z","actor":"admin","data":{"scanId":"s:1_a-B.c","code":"  code \t with spaces  ","productName":"Crème \"brûlée\"","category":"Food","result":"counterfeit","mode":"batch","batchId":"b-1","source":"manual","flash":true,"notes":"line1\nline2\u0001\u001f\t\"q\" \\ / end é😀\u2028","location":"\u2028 Zürich \r\n"}}"#,
        #"{"id":"vec-4","type":"account.updated","at":"2026-11-01T09:00:00.100000Z","actor":"admin","data":{"username":"admin","geo":{"lat":1e-7,"lng":0.000001},"company":{"name":"ACME \u00e9","catchPhrase":"  "}}}"#,
        #"{"id":"vec-5","type":"account.registered","at":"2026-11-02T00:00:00Z","actor":"admin","data":{"username":"c.u-s_t","role":"customer","name":"Ω Customer","email":"Ω@vt.example","geo":{"lat":-33.8688,"lng":180.0},"address":{"street":"1 George St","suite":"","city":"Sydney","zipcode":"2000"}}}"#,
    ]

    /// The out form of each line (export), as Python computed it: canonical JSON with `hash`.
    static let expected: [String] = [
        #"{"actor":"system","at":"2026-11-01T08:00:00.25Z","data":{"address":{"city":"München","street":"Straße 1","zipcode":"80331"},"email":"zoe@vt.example","geo":{"lat":48.137154,"lng":0},"name":"Zoë Ünal 万","role":"admin","username":"admin"},"hash":"87cd39152f86c7552f92ae59426ce69d6dbe5389c3e376b12dd20994448c66a2","id":"vec-1","seq":1,"type":"account.registered"}"#,
        #"{"actor":"system","at":"2026-11-01T08:00:00.25Z","data":{"credential":{"hash":"ayf3tcDVah5kRZWydsw6bJ//4aRAeOWgSOaDtH/B5Lg=","iterations":100000,"salt":"AAECAwQFBgcICQoLDA0ODw==","scheme":"pbkdf2-sha256"},"username":"admin"},"hash":"6dcaa770c126f5a27475250d9931db85a72f07fed190935bbf33aef6ea6b898d","id":"vec-2","seq":2,"type":"passcode.set"}"#,
        #"{"actor":"admin","at":"2026-11-01T09:00:00.000001Z","data":{"batchId":"b-1","category":"Food","code":"  code \t with spaces  ","flash":true,"location":"Zürich","mode":"batch","notes":"line1\nline2\u0001\u001f\t\"q\" \\ / end é😀","productName":"Crème \"brûlée\"","result":"counterfeit","scanId":"s:1_a-B.c","source":"manual"},"hash":"d67268616cbe7f9739e52bc3070208cabc8ed21e3c5546123e3759df3f672481","id":"vec-3","seq":3,"type":"scan.recorded"}"#,
        #"{"actor":"admin","at":"2026-11-01T09:00:00.1Z","data":{"company":{"catchPhrase":"","name":"ACME é"},"geo":{"lat":1e-7,"lng":0.000001},"username":"admin"},"hash":"dbcdeff3bdb02f88954c8e27da9ac38c493ff4c8d0fd39979c0bde4102d23e92","id":"vec-4","seq":4,"type":"account.updated"}"#,
        #"{"actor":"admin","at":"2026-11-02T00:00:00Z","data":{"address":{"city":"Sydney","street":"1 George St","suite":"","zipcode":"2000"},"email":"Ω@vt.example","geo":{"lat":-33.8688,"lng":180},"name":"Ω Customer","role":"customer","username":"c.u-s_t"},"hash":"27886946dc777bb702a7d760705e77f575a76ed2990808d4a3b8bcddec269354","id":"vec-5","seq":5,"type":"account.registered"}"#,
    ]

    static let hashes: [String] = [
        "87cd39152f86c7552f92ae59426ce69d6dbe5389c3e376b12dd20994448c66a2",
        "6dcaa770c126f5a27475250d9931db85a72f07fed190935bbf33aef6ea6b898d",
        "d67268616cbe7f9739e52bc3070208cabc8ed21e3c5546123e3759df3f672481",
        "dbcdeff3bdb02f88954c8e27da9ac38c493ff4c8d0fd39979c0bde4102d23e92",
        "27886946dc777bb702a7d760705e77f575a76ed2990808d4a3b8bcddec269354",
    ]

    func testHeadHashAfterEachLine() throws {
        let store = temporaryPath()
        for (i, line) in Self.input.enumerated() {
            try importOK(try ndjsonFile([line]), into: store)
            let status = try status(store).json as? [String: Any]
            let head = status?["head"] as? [String: Any]
            XCTAssertEqual(head?["seq"] as? Int, i + 1)
            XCTAssertEqual(head?["hash"] as? String, Self.hashes[i], "hash(\(i + 1)) after \(line)")
        }
        let verify = try ok(["log", "verify", "--store", store.path, "--json"])
        XCTAssertEqual((verify.json as? [String: Any])?["ok"] as? Bool, true, verify.transcript)
    }

    func testExportIsTheCanonicalForm() throws {
        let store = temporaryPath()
        try importOK(try ndjsonFile(Self.input), into: store)
        let exported = try ok(["export", "--store", store.path]).stdout
        let got = exported.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(got.last, "", "export ends each line with \\n")
        for (i, line) in got.dropLast().enumerated() {
            XCTAssertEqual(line, i < Self.expected.count ? Self.expected[i] : nil, "line \(i + 1)")
        }
        XCTAssertEqual(got.count - 1, Self.expected.count)
        XCTAssertEqual(try ok(["log", "digest", "--store", store.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "5:\(Self.hashes[4])")
    }

    func testTheExpectedOutFormImportsBitForBit() throws {
        let store = temporaryPath()
        let r = try importOK(try ndjsonFile(Self.expected), into: store)
        XCTAssertEqual((r.json as? [String: Any])?["appended"] as? Int, 5, r.transcript)
        XCTAssertEqual(try ok(["export", "--store", store.path]).stdout, Self.expected.map { $0 + "\n" }.joined())
    }
}
