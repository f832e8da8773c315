import StrictJSON
import Testing

/// A text the parser must refuse, with where and why.
struct Refusal: CustomTestStringConvertible, Sendable {
    let bytes: [UInt8]
    let offset: Int
    let message: String

    init(_ text: String, at offset: Int, _ message: String) {
        self.init(bytes: Array(text.utf8), at: offset, message)
    }

    init(bytes: [UInt8], at offset: Int, _ message: String) {
        self.bytes = bytes
        self.offset = offset
        self.message = message
    }

    var testDescription: String { "\(bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "<\($0)>" }.joined())" }
}

@Suite struct ParserRefusalTests {
    static let refusals: [Refusal] = [
        // What the spec names.
        Refusal(bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8), at: 0, "byte-order mark (U+FEFF) is not allowed"),
        Refusal(#"{"at":1,"at":2}"#, at: 8, #"duplicate key "at""#),
        Refusal(#"{"data":{"a":1,"b":2,"a":3}}"#, at: 21, #"duplicate key "a""#),
        Refusal(#"[{"x":{"y":[{"k":1,"k":1}]}}]"#, at: 19, #"duplicate key "k""#),
        Refusal(#"{"\u0061":1,"a":2}"#, at: 12, #"duplicate key "a""#),
        Refusal(#"{"new\nline":1,"new\u000aline":2}"#, at: 15, #"duplicate key "new\nline""#),
        Refusal(#""\ud800""#, at: 1, #"lone high surrogate \ud800 not followed by a low surrogate"#),
        Refusal(#""x\udbff\u0041""#, at: 2, #"lone high surrogate \udbff not followed by a low surrogate"#),
        Refusal(#""\ud800\ud800""#, at: 1, #"lone high surrogate \ud800 not followed by a low surrogate"#),
        Refusal(#""\ud800x""#, at: 1, #"lone high surrogate \ud800 not followed by a low surrogate"#),
        Refusal(#""\udc00""#, at: 1, #"lone low surrogate \udc00"#),
        Refusal(#""\uDFFF\uD800""#, at: 1, #"lone low surrogate \udfff"#),
        // UTF-8.
        Refusal(bytes: Array(#""a"#.utf8) + [0xFF] + Array(#"b""#.utf8), at: 2, "invalid UTF-8 byte 0xFF in string"),
        Refusal(bytes: [0x22, 0xC0, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xC0 in string"),
        Refusal(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xED in string"),
        Refusal(bytes: [0x22, 0xE4, 0xB8, 0x22], at: 1, "invalid UTF-8 byte 0xE4 in string"),
        Refusal(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xF4 in string"),
        Refusal(bytes: [0x22, 0x5C, 0x6E, 0x80, 0x22], at: 3, "invalid UTF-8 byte 0x80 in string"),
        Refusal(bytes: [0x22, 0xC3, 0xA9, 0xF5, 0x22], at: 3, "invalid UTF-8 byte 0xF5 in string"),
        Refusal(bytes: [0xC3, 0xA9], at: 0, "unexpected byte 0xC3"),
        // Control characters must be escaped, tab and newline included.
        Refusal("\"a\u{01}\"", at: 2, "unescaped control character U+0001 in string"),
        Refusal("\"a\tb\"", at: 2, "unescaped control character U+0009 in string"),
        Refusal("{\"a\nb\":1}", at: 3, "unescaped control character U+000A in string"),
        Refusal("\"\\n\u{1F}\"", at: 3, "unescaped control character U+001F in string"),
        // Numbers.
        Refusal("01", at: 0, "leading zeros are not allowed in numbers"),
        Refusal("[-01]", at: 1, "leading zeros are not allowed in numbers"),
        Refusal("00", at: 0, "leading zeros are not allowed in numbers"),
        Refusal("1.", at: 2, "expected a digit after '.'"),
        Refusal("1.e5", at: 2, "expected a digit after '.'"),
        Refusal(".5", at: 0, "unexpected character '.'"),
        Refusal("+1", at: 0, "unexpected character '+'"),
        Refusal("-", at: 1, "expected a digit after '-'"),
        Refusal("- 1", at: 1, "expected a digit after '-'"),
        Refusal("1e", at: 2, "expected a digit after the exponent mark"),
        Refusal("1E+", at: 3, "expected a digit after the exponent mark"),
        Refusal("0x10", at: 1, "unexpected character 'x' after the value"),
        Refusal("1e400", at: 0, "number 1e400 is out of the range of a double"),
        Refusal("[-1E+309]", at: 1, "number -1E+309 is out of the range of a double"),
        Refusal("NaN", at: 0, "unexpected character 'N'"),
        Refusal("Infinity", at: 0, "unexpected character 'I'"),
        Refusal("-Infinity", at: 1, "expected a digit after '-'"),
        // Structure.
        Refusal("[1,2,]", at: 5, "trailing comma in array"),
        Refusal(#"{"a":1,}"#, at: 7, "trailing comma in object"),
        Refusal("[,1]", at: 1, "unexpected character ','"),
        Refusal("{,}", at: 1, "expected '\"' to begin an object key"),
        Refusal("{} x", at: 3, "unexpected character 'x' after the value"),
        Refusal("{}{}", at: 2, "unexpected character '{' after the value"),
        Refusal("1 2", at: 2, "unexpected character '2' after the value"),
        Refusal("{}\u{0}", at: 2, "unexpected byte 0x00 after the value"),
        Refusal("", at: 0, "unexpected end of input"),
        Refusal(" \n\t\r", at: 4, "unexpected end of input"),
        Refusal("[1", at: 2, "expected ',' or ']' after array element"),
        Refusal("[1 2]", at: 3, "expected ',' or ']' after array element"),
        Refusal(#"{"a":1 "b":2}"#, at: 7, "expected ',' or '}' after object member"),
        Refusal(#"{"a" 1}"#, at: 5, "expected ':' after object key"),
        Refusal(#"{"a":}"#, at: 5, "unexpected character '}'"),
        Refusal("{1:2}", at: 1, "expected '\"' to begin an object key"),
        Refusal("{a:1}", at: 1, "expected '\"' to begin an object key"),
        Refusal("{'a':1}", at: 1, "expected '\"' to begin an object key"),
        Refusal("[1] // comment", at: 4, "unexpected character '/' after the value"),
        Refusal("tru", at: 0, "invalid literal, expected 'true'"),
        Refusal("nul", at: 0, "invalid literal, expected 'null'"),
        Refusal("True", at: 0, "unexpected character 'T'"),
        Refusal("[falsey]", at: 6, "expected ',' or ']' after array element"),
        // Only space, tab, LF and CR are white space.
        Refusal("\u{0C}{}", at: 0, "unexpected byte 0x0C"),
        Refusal("{}\u{0B}", at: 2, "unexpected byte 0x0B after the value"),
        Refusal("\u{A0}1", at: 0, "unexpected byte 0xC2"),
        // Strings and escapes.
        Refusal(#""abc"#, at: 0, "unterminated string"),
        Refusal(#""ab\"#, at: 3, "unterminated string"),
        Refusal(#""a\"b"#, at: 0, "unterminated string"),
        Refusal(#""\x""#, at: 1, #"invalid escape '\x'"#),
        Refusal(#""\U0041""#, at: 1, #"invalid escape '\U'"#),
        Refusal(#""\u12""#, at: 1, #"expected 4 hex digits after '\u'"#),
        Refusal(#""\u12G4""#, at: 1, #"expected 4 hex digits after '\u'"#),
        Refusal(#""\ud83d\u12""#, at: 7, #"expected 4 hex digits after '\u'"#),
    ]

    @Test(arguments: refusals)
    func refused(_ refusal: Refusal) {
        #expect(throws: JSONSyntaxError(offset: refusal.offset, message: refusal.message)) {
            try JSONValue.parse(refusal.bytes)
        }
    }

    @Test func nestingDeeperThan64IsRefused() throws {
        let depth = JSONValue.maxDepth
        #expect(depth == 64)
        _ = try JSONValue.parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        _ = try JSONValue.parse(String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth))
        #expect(throws: JSONSyntaxError(offset: depth, message: "nesting deeper than 64 levels")) {
            try JSONValue.parse(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1))
        }
        // Deep input fails fast at the limit rather than exhausting the stack.
        #expect(throws: JSONSyntaxError(offset: depth, message: "nesting deeper than 64 levels")) {
            try JSONValue.parse(String(repeating: "[", count: 1_000_000))
        }
    }

    @Test func duplicateKeysInLargeObjectsAreFound() {
        let members = (0..<40).map { #""k\#($0)":\#($0)"# }
        let text = "{" + members.joined(separator: ",") + #","k33":0}"#
        let offset = text.utf8.count - #""k33":0}"#.utf8.count
        #expect(throws: JSONSyntaxError(offset: offset, message: #"duplicate key "k33""#)) {
            try JSONValue.parse(text)
        }
    }

    @Test func errorDescriptionNamesTheOffset() {
        #expect(JSONSyntaxError(offset: 8, message: #"duplicate key "at""#).description == #"byte 8: duplicate key "at""#)
    }
}
