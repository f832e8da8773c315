import StrictJSON
import Testing

@Suite struct CanonicalJSONTests {
    func text(_ writer: CanonicalJSONWriter) -> String {
        String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func streamingWriterPlacesCommas() throws {
        var writer = CanonicalJSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.int(1)
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.null()
        writer.bool(true)
        writer.bool(false)
        try writer.double(48.0)
        try writer.double(-0.0)
        try writer.double(1e-7)
        writer.endArray()
        writer.key("b")
        writer.beginObject()
        writer.key(String("c"))
        writer.string("d")
        writer.key("e")
        writer.int(.min)
        writer.endObject()
        writer.key("f")
        writer.int(.max)
        writer.endObject()
        #expect(text(writer) == #"{"a":[1,{},[],null,true,false,48,0,1e-7],"b":{"c":"d","e":-9223372036854775808},"f":9223372036854775807}"#)

        writer.continueObject()
        writer.key("g")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        #expect(text(writer) == #","g":[]}"#)
    }

    @Test func stringsGetOnlyTheMandatoryEscapes() {
        var writer = CanonicalJSONWriter()
        writer.string("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1}\u{B}\u{1F}\u{7F} é中😀\u{2028}")
        #expect(text(writer) == "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u0001\\u000b\\u001f\u{7F} é中😀\u{2028}\"")

        writer = CanonicalJSONWriter()
        writer.beginObject()
        writer.key(String("quo\"te"))
        writer.int(0)
        writer.key(String("\u{1}é"))
        writer.int(1)
        writer.endObject()
        #expect(text(writer) == #"{"quo\"te":0,"\u0001é":1}"#)
    }

    /// The scanners test eight bytes at a time: put each kind of special byte at every
    /// position of strings around that width, and check against a scalar-by-scalar escape.
    @Test func specialBytesAtEveryPosition() throws {
        func reference(_ scalar: Unicode.Scalar) -> String {
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\u{1}": "\\u0001"
            default: String(scalar)
            }
        }
        for length in 1..<20 {
            for position in 0..<length {
                for special in ["\"", "\\", "\n", "\u{1}", "é", "😀"] {
                    var characters = Array(repeating: "a", count: length)
                    characters[position] = special
                    let string = characters.joined()
                    var writer = CanonicalJSONWriter()
                    writer.string(string)
                    #expect(text(writer) == "\"" + string.unicodeScalars.map(reference).joined() + "\"")
                    #expect(try JSONValue.parse(writer.bytes) == .string(string))
                }
                let control = Array("\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: length)
                #expect(throws: JSONSyntaxError(offset: 1 + position, message: "unescaped control character U+001F in string")) {
                    var bytes = control + Array("\"".utf8)
                    bytes[1 + position] = 0x1F
                    return try JSONValue.parse(bytes)
                }
                #expect(throws: JSONSyntaxError(offset: 1 + position, message: "invalid UTF-8 byte 0xFF in string")) {
                    var bytes = control + Array("\\n\"".utf8)
                    bytes[1 + position] = 0xFF
                    return try JSONValue.parse(bytes)
                }
            }
        }
    }

    @Test func nonFiniteDoublesAreRefused() {
        var writer = CanonicalJSONWriter()
        writer.beginArray()
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: NonFiniteNumberError.self) { try writer.double(value) }
        }
        writer.endArray()
        #expect(text(writer) == "[]")
    }

    @Test func ecmaScriptNumbers() {
        let cases: [(Double, String)] = [
            (48.137154, "48.137154"), (-122.4194, "-122.4194"), (0.1, "0.1"), (1e-7, "1e-7"),
            (1e21, "1e+21"), (1.5e21, "1.5e+21"), (1.2345678901234568e20, "123456789012345680000"),
            (-0.0, "0"), (0, "0"), (.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
            (48.0, "48"), (1e-6, "0.000001"), (1.234e-6, "0.000001234"), (1e16, "10000000000000000"),
            (-1e-7, "-1e-7"), (0.001, "0.001"), (100, "100"), (1.25e-10, "1.25e-10"),
        ]
        for (value, expected) in cases {
            #expect(ecmaScriptNumberString(value) == expected, "\(value)")
        }
        #expect(ecmaScriptNumberString(.nan) == "NaN")
        #expect(ecmaScriptNumberString(.infinity) == "Infinity")
        #expect(ecmaScriptNumberString(-.infinity) == "-Infinity")
    }

    @Test func keysSortByUTF16CodeUnits() throws {
        // U+1F600 is D83D DE00 in UTF-16, so it sorts before U+E000 and U+FFFF, though its
        // code point is larger.
        let value = try JSONValue.parse(#"{"\uffff":1,"\ue000":2,"\ud83d\ude00":3,"\u00e9":4,"z":5,"":6}"#)
        #expect(canonicalJSONString(value) == "{\"\":6,\"z\":5,\"é\":4,\"😀\":3,\"\u{E000}\":2,\"\u{FFFF}\":1}")
    }

    @Test func parsedNumbersKeepTheirCanonicalForm() throws {
        let value = try JSONValue.parse("[1.0,1e2,-0,-0.0,12345678901234567890,1E-7,0.50]")
        #expect(canonicalJSONString(value) == "[1,100,0,0,12345678901234567890,1e-7,0.5]")
    }

    @Test func numbersMadeFromDoubles() throws {
        let fortyEight = try #require(JSONNumber(48.0))
        #expect(fortyEight.text == "48" && fortyEight.isInteger && fortyEight.integerValue == 48)
        let big = try #require(JSONNumber(1e21))
        #expect(big.text == "1e+21" && !big.isInteger && big.integerValue == nil)
        let fraction = try #require(JSONNumber(0.5))
        #expect(fraction.text == "0.5" && !fraction.isInteger)
        #expect(JSONNumber(.nan) == nil)
        #expect(JSONNumber(.infinity) == nil)
        #expect(JSONNumber(Int64(-7)).text == "-7")
    }

    @Test func equalityIsCanonicalEquality() throws {
        #expect(try JSONValue.parse(#"{"a":1,"b":[1.0,"x"]}"#) == JSONValue.parse(#"{"b":[1e0,"x"],"a":1.00}"#))
        #expect(try JSONValue.parse("-0") == JSONValue.parse("0.0"))
        #expect(try JSONValue.parse("100") == JSONValue.parse("1E2"))
        #expect(try JSONValue.parse(#"{"a":1}"#) != JSONValue.parse(#"{"a":1,"b":2}"#))
        #expect(try JSONValue.parse(#"{"a":1,"c":2}"#) != JSONValue.parse(#"{"a":1,"b":2}"#))
        #expect(try JSONValue.parse("[1,2]") != JSONValue.parse("[2,1]"))
        #expect(try JSONValue.parse("1") != JSONValue.parse("\"1\""))
        #expect(try JSONValue.parse("9007199254740993") != JSONValue.parse("9007199254740993.0"))
        #expect(try JSONValue.parse("12345678901234567890") == JSONValue.parse("12345678901234567890"))
        #expect(try JSONValue.parse("12345678901234567890") != JSONValue.parse("12345678901234567891"))
        // Strings compare by scalars, not by Swift's canonical equivalence.
        #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(try JSONValue.parse(#"{"\u00e9":1}"#) != JSONValue.parse("{\"e\u{301}\":1}"))
    }

    @Test func objectEditing() throws {
        var object = try #require(try JSONValue.parse(#"{"seq":1,"hash":"00","id":"x"}"#).object)
        #expect(object.removeValue(forKey: "hash") == .string("00"))
        #expect(object.removeValue(forKey: "hash") == nil)
        #expect(object.updateValue(.number(JSONNumber(2)), forKey: "seq") == .number(JSONNumber(1)))
        #expect(object.updateValue(.null, forKey: "at") == nil)
        #expect(object.keys == ["seq", "id", "at"])
        #expect(canonicalJSONString(.object(object)) == #"{"at":null,"id":"x","seq":2}"#)

        #expect(JSONObject([("a", .null), ("a", .null)]) == nil)
        let built = try #require(JSONObject([("b", .bool(true)), ("a", .array([]))]))
        #expect(canonicalJSONString(.object(built)) == #"{"a":[],"b":true}"#)
        #expect(JSONObject().isEmpty)
    }
}
