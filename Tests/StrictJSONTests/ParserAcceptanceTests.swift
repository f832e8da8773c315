import StrictJSON
import Testing

@Suite struct ParserAcceptanceTests {
    func number(_ text: String) throws -> JSONNumber {
        try #require(try JSONValue.parse(text).number)
    }

    @Test func integerAndFractionReadings() throws {
        let oneDotZero = try number("1.0")
        #expect(oneDotZero.text == "1.0")
        #expect(!oneDotZero.isInteger)
        #expect(oneDotZero.integerValue == nil)
        #expect(oneDotZero.doubleValue == 1)

        let hundred = try number("100")
        #expect(hundred.isInteger)
        #expect(hundred.integerValue == 100)
        #expect(hundred.doubleValue == 100)

        let minusZero = try number("-0")
        #expect(minusZero.isInteger)
        #expect(minusZero.integerValue == 0)
        #expect(minusZero.doubleValue == 0 && minusZero.doubleValue.sign == .minus)
        #expect(minusZero.canonicalText == "0")

        let exponent = try number("1e2")
        #expect(!exponent.isInteger)
        #expect(exponent.integerValue == nil)
        #expect(exponent.doubleValue == 100)
        #expect(exponent.canonicalText == "100")

        #expect(try number("9223372036854775807").integerValue == .max)
        #expect(try number("-9223372036854775808").integerValue == .min)
        let beyond = try number("9223372036854775808")
        #expect(beyond.isInteger && beyond.integerValue == nil)
        #expect(beyond.doubleValue == 9_223_372_036_854_775_808)
        #expect(beyond.canonicalText == "9223372036854775808")
        let long = try number("-123456789012345678901234567890")
        #expect(long.isInteger && long.integerValue == nil)
        #expect(long.doubleValue == -1.2345678901234568e29)

        #expect(try number("1E-2").doubleValue == 0.01)
        #expect(try number("2.5e+3").doubleValue == 2500)
        #expect(try number("1e-400").doubleValue == 0)
        #expect(try number("48.137154").doubleValue == 48.137154)
    }

    @Test func surrogatePairsDecodeToTheScalar() throws {
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue.parse(#""\uD83D\uDE00""#) == .string("\u{1F600}"))
        #expect(try JSONValue.parse(#""\udbff\udfff""#) == .string("\u{10FFFF}"))
        #expect(try JSONValue.parse(#""a\u00e9\u4e2d\u0000z""#) == .string("aé中\u{0}z"))
        #expect(try JSONValue.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
    }

    @Test func rawUTF8IsKept() throws {
        #expect(try JSONValue.parse("\"é中😀\u{7F}\"") == .string("é中😀\u{7F}"))
        #expect(try JSONValue.parse("\"é\\n中\"") == .string("é\n中"))
    }

    @Test func objectsKeepOrderAndLookUpByExactKey() throws {
        let object = try #require(try JSONValue.parse(#" {"b":1, "a":[true,false,null],"é":"x"} "#).object)
        #expect(object.keys == ["b", "a", "é"])
        #expect(object["a"] == .array([.bool(true), .bool(false), .null]))
        #expect(object["é"] == .string("x"))
        #expect(object["e\u{301}"] == nil)  // canonically equivalent in Swift, a different key in JSON
        #expect(object["c"] == nil)
    }

    @Test func keysThatDifferOnlyByNormalisationAreDistinct() throws {
        let object = try #require(try JSONValue.parse("{\"\u{E9}\":1,\"e\u{301}\":2}").object)
        #expect(object.count == 2)
        #expect(object["\u{E9}"] == .number(JSONNumber(1)))
        #expect(object["e\u{301}"] == .number(JSONNumber(2)))
    }

    @Test func everyEntryPointAgrees() throws {
        let text = "x{\"a\":[1,2.5,\"s\"]}y"
        let inner = text.dropFirst().dropLast()
        let expected = try JSONValue.parse(String(inner))
        #expect(try JSONValue.parse(inner) == expected)
        #expect(try JSONValue.parse(Array(inner.utf8)) == expected)
        #expect(try JSONValue.parse(Array(text.utf8).dropFirst().dropLast()) == expected)
        #expect(try JSONValue.parse(inner.utf8) == expected)
        let fromRawBytes = try Array(inner.utf8).withUnsafeBytes { try JSONValue.parse($0) }
        #expect(fromRawBytes == expected)
        // Offsets count from the start of what was given.
        #expect(throws: JSONSyntaxError(offset: 3, message: "unexpected character ','")) {
            try JSONValue.parse("x[1,,2]".dropFirst())
        }
    }

    @Test func scalarsAtTopLevel() throws {
        #expect(try JSONValue.parse("true") == .bool(true))
        #expect(try JSONValue.parse(" false\r\n") == .bool(false))
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse("\"\"") == .string(""))
        #expect(try JSONValue.parse("0") == .number(JSONNumber(0)))
    }
}
