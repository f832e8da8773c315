/// Refuses, as it streams in, input that can not be NDJSON events, before it is kept anywhere: a NUL byte,
/// bytes that are not UTF-8, a line longer than the largest event there can be, or a line that is not a
/// JSON object (its first and last bytes other than white space are not `{` and `}`).
///
/// `import -` keeps a pipe's input in a temporary file before reading line 1 (a write may run twice), so
/// without this check `import /dev/zero` would copy gigabytes before refusing anything.
struct InputCheck {
    /// The longest line accepted, in bytes: far above the largest event the catalogue allows (its text
    /// fields hold a few thousand characters even written as `\u` escapes), far below what would strain
    /// memory or disk.
    static let maxLineBytes = 1 << 20

    /// Whether every line must be a JSON object (NDJSON events); the records of a scan batch may be CSV rows.
    var linesAreObjects = true

    /// The line being read (1-based), and how many bytes of it were seen.
    private(set) var line = 1
    private var length = 0
    /// The first and last bytes of the line that are not JSON white space, 0 while there are none.
    private var first: UInt8 = 0
    private var last: UInt8 = 0
    /// UTF-8: continuation bytes still expected, and the range the next one must be in (which rules out
    /// overlong forms, surrogates and code points above U+10FFFF).
    private var pending = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Checks the next bytes of the input.
    mutating func check(_ bytes: UnsafeRawBufferPointer) throws(VeritrailError) {
        for byte in bytes {
            if pending > 0 {
                guard byte >= lower && byte <= upper else { throw refusal("is not UTF-8") }
                pending -= 1
                lower = 0x80
                upper = 0xBF
            } else if byte == 0x0A {
                try endLine()
                continue
            } else if byte >= 0x80 {
                try startSequence(byte)
            } else if byte == 0 {
                throw refusal("holds a NUL byte, which no event can")
            }
            length += 1
            if length > InputCheck.maxLineBytes {
                throw refusal("is longer than \(InputCheck.maxLineBytes >> 20) MiB, far more than any event")
            }
            if byte != 0x20 && byte != 0x09 && byte != 0x0D {
                if first == 0 { first = byte }
                last = byte
            }
        }
    }

    /// Checks the end of the input.
    mutating func finish() throws(VeritrailError) {
        guard pending == 0 else { throw refusal("is not UTF-8 (it ends inside a character)") }
        try endLine()
    }

    private mutating func startSequence(_ byte: UInt8) throws(VeritrailError) {
        switch byte {
        case 0xC2...0xDF: pending = 1
        case 0xE0: pending = 2; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: pending = 2
        case 0xED: pending = 2; upper = 0x9F
        case 0xF0: pending = 3; lower = 0x90
        case 0xF1...0xF3: pending = 3
        case 0xF4: pending = 3; upper = 0x8F
        default: throw refusal("is not UTF-8")
        }
    }

    private mutating func endLine() throws(VeritrailError) {
        if linesAreObjects && first != 0 && (first != UInt8(ascii: "{") || last != UInt8(ascii: "}")) {
            throw refusal("is not a JSON object (an event is one JSON object per line)")
        }
        line += 1
        length = 0
        first = 0
        last = 0
    }

    private func refusal(_ what: String) -> VeritrailError {
        .malformed("the line \(what); nothing was \(linesAreObjects ? "imported" : "recorded")", line: line)
    }
}
