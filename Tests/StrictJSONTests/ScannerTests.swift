import StrictJSON
import Testing

/// `JSONScanner` reads a text as the parser would, or not at all: whatever it takes, the parser accepts,
/// with the same values in the same order; whatever the parser refuses, it does not take.
@Suite struct ScannerTests {
    /// The scanned object as a `JSONValue`, every member made, in text order.
    static func value(of object: ScannedObject) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        for i in 0..<object.count {
            let key = String(decoding: object.keyBytes(at: i), as: UTF8.self)
            members.append((key, object.value(at: i) ?? value(of: object.object(at: i)!)))
        }
        return .object(JSONObject(members)!)
    }

    /// Whether the scanner takes `text`, after checking that what it reads is what the parser reads.
    @discardableResult
    static func scansAsParsed(_ text: String) throws -> Bool {
        let scanner = JSONScanner()
        let bytes = Array(text.utf8)
        let scanned = bytes.withUnsafeBytes { scanner.scan($0).map(value(of:)) }
        let parsed = try? JSONValue.parse(text)
        guard let scanned else { return false }
        let expected = try #require(parsed, "the scanner took a text the parser refuses: \(text)")
        #expect(scanned == expected, "\(text)")
        #expect(canonicalJSON(scanned) == canonicalJSON(expected), "\(text)")
        // Member order and number spelling too, which canonical equality does not see.
        if case .object(let s) = scanned, case .object(let p) = expected {
            #expect(s.keys == p.keys, "\(text)")
        }
        return true
    }

    /// An object of many keys is checked for a duplicate through a set of its keys (past
    /// `pairwiseKeyCheckLimit`), not pair by pair: a line of a megabyte of keys took minutes of an import's
    /// write lock. A duplicate anywhere among them is still found, and the parser then refuses the text.
    @Test func manyKeysAreCheckedForADuplicateWhereverItIs() throws {
        let keys = (0..<20_000).map { "k\($0)" }
        let distinct = "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        #expect(try Self.scansAsParsed(distinct))
        for at in [0, 17, 19_999] {
            let twice = "{" + (keys + [keys[at]]).map { "\"\($0)\":1" }.joined(separator: ",") + "}"
            #expect(try !Self.scansAsParsed(twice), "the key at \(at) given twice was taken")
            #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(twice) }
        }
        // At the limit and one past it, both ways of checking.
        for count in [JSONScanner.pairwiseKeyCheckLimit, JSONScanner.pairwiseKeyCheckLimit + 1] {
            let some = Array(keys.prefix(count))
            #expect(try Self.scansAsParsed("{" + some.map { "\"\($0)\":1" }.joined(separator: ",") + "}"))
            #expect(try !Self.scansAsParsed("{" + (some + [some[count - 1]]).map { "\"\($0)\":1" }.joined(separator: ",") + "}"))
        }
    }

    @Test func takesPlainLines() throws {
        let taken = [
            #"{"id":"e-1","type":"scan.recorded","at":"2026-08-23T13:05:42Z","actor":"paula","data":{"scanId":"s-1","flash":false,"n":-12,"z":0,"m":-0,"big":999999999999999999}}"#,
            #"{}"#,
            #" { "a" : { "b" : { "c" : true } } , "d":"Zürich 万 😀" } "#,
            "{\t\"a\"\r\n:\n1}",
            #"{"":"","é":"é"}"#,
        ]
        for text in taken { #expect(try Self.scansAsParsed(text), "\(text)") }
    }

    @Test func leavesEverythingElseToTheParser() throws {
        let left = [
            #"{"a":"x\"y"}"#,  // an escape
            #"{"a\u0062":1}"#,  // an escape in a key
            #"{"a":1.5}"#, #"{"a":1e2}"#, #"{"a":1E2}"#, #"{"a":-0.0}"#,  // fractions and exponents
            #"{"a":1234567890123456789}"#,  // more than 18 digits
            #"{"a":01}"#, #"{"a":-}"#, #"{"a":-x}"#,  // malformed numbers
            #"{"a":null}"#, #"{"a":[1]}"#, #"{"a":nul}"#, #"{"a":tru}"#,
            #"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":1}}"#,  // duplicate keys
            #"{"a":1,}"#, #"{,}"#, #"{"a" 1}"#, #"{"a":1"#, #"{"a":"x}"#, #"{"a":1}x"#, #"{"a":1}}"#,
            "\u{FEFF}{\"a\":1}",  // a byte-order mark
            "{\"a\":\"tab\there\"}",  // a control character
            #"[1]"#, #""a""#, #"1"#, "", " ",
            "{\"a\":" + String(repeating: "{\"a\":", count: 9) + "1" + String(repeating: "}", count: 10) + "}",  // too deep
        ]
        for text in left { #expect(try !Self.scansAsParsed(text), "\(text)") }
    }

    @Test func invalidUTF8IsLeftToTheParser() throws {
        let scanner = JSONScanner()
        for bad: [UInt8] in [[0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xE2, 0x82]] {
            let text = Array(#"{"a":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(text.withUnsafeBytes { scanner.scan($0) } == nil)
            #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
        }
    }

    /// Lines with one byte changed, dropped or doubled, at every place: the scanner never takes one the
    /// parser refuses, and reads the same values from those it takes.
    @Test func everyDamagedLineReadsAsParsedOrIsLeft() throws {
        let line = #"{"id":"e-1","type":"x","at":"t","n":-12,"data":{"s":"Zürich","f":true,"g":false,"o":{"k":0}}}"#
        let bytes = Array(line.utf8)
        let replacements: [UInt8] = Array(#"{}[]":,\-0123456789.eEtfnul "#.utf8) + [0x00, 0x09, 0x0A, 0x80, 0xC3, 0xFF]
        var taken = 0, total = 0
        for i in bytes.indices {
            var variants: [[UInt8]] = [Array(bytes[..<i] + bytes[(i + 1)...]), Array(bytes[...i] + bytes[i...])]
            for r in replacements {
                var changed = bytes
                changed[i] = r
                variants.append(changed)
            }
            for variant in variants {
                total += 1
                let scanner = JSONScanner()
                guard let scanned = variant.withUnsafeBytes({ scanner.scan($0).map(Self.value(of:)) }) else { continue }
                taken += 1
                let parsed = try #require(try? JSONValue.parse(variant), "taken but refused: \(String(decoding: variant, as: UTF8.self))")
                #expect(scanned == parsed)
            }
        }
        #expect(taken > 0 && taken < total)
    }
}
