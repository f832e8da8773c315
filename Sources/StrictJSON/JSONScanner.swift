/// A quick reading of one JSON text that is plain enough, for the lines of an import: it notes where each
/// member's key and value lie in the bytes and makes no value, so that a reader makes only the values it
/// asks for, and nothing is allocated once its buffers have grown.
///
/// It reads a text as `JSONValue.parse` would, or not at all. It takes objects (nested at most `maxDepth`
/// deep) of strings without escapes, integers of at most 18 digits, `true` and `false`. Anything else (an
/// escape, a fraction or an exponent, a longer integer, `null`, an array, a byte-order mark, any syntax
/// error) makes `scan` return nil, and the caller parses the text with `JSONValue.parse`, which accepts it
/// or refuses it with its message. So a scanned text is one the parser accepts, and its values are the
/// ones it would make.
public final class JSONScanner {
    /// Deepest nesting of objects taken (events nest 3 deep).
    static let maxDepth = 8

    /// Objects up to this many members are checked for a duplicate key pair by pair; larger ones through a set
    /// of their keys' bytes, so that a line of a megabyte of distinct keys is not a billion comparisons (a probe
    /// held an import's write lock for minutes with one).
    public static let pairwiseKeyCheckLimit = 16

    struct Member {
        var keyStart: Int32
        var keyCount: Int32
        /// For a string, its bytes between the quotes; for an integer, its literal; for an object, its
        /// members' run in `order`.
        var valueStart: Int32
        var valueCount: Int32
        var kind: Kind
    }

    enum Kind: UInt8 {
        case string, integer, `true`, `false`, object
    }

    /// What a scan writes. A scan works on a copy of it in a local variable, and stores it back when done:
    /// the stored properties of a class are checked for exclusive access at run time, at every use.
    fileprivate struct Buffers {
        /// Every member of the text, in the order they end.
        var members = GrowingBuffer<Member>()
        /// Each object's members, as indices into `members`: one run per object, in member order.
        var order = GrowingBuffer<Int32>()
        /// The members of the objects being read, innermost last, until their object ends.
        var open = GrowingBuffer<Int32>()
    }

    private var buffers = Buffers()

    public init() {}

    deinit {
        buffers.members.deallocate()
        buffers.order.deallocate()
        buffers.open.deallocate()
    }

    /// The top-level object of `text`, or nil when the text is not one that `JSONScanner` takes (see the
    /// type's comment). The object reads `text` and this scanner's buffers in place: it is valid while
    /// `text`'s bytes are, until the next scan.
    public func scan(_ text: UnsafeRawBufferPointer) -> ScannedObject? {
        guard let base = text.baseAddress, text.count < Int(Int32.max) else { return nil }
        var buffers = self.buffers
        defer { self.buffers = buffers }
        buffers.members.count = 0
        buffers.order.count = 0
        buffers.open.count = 0
        var reader = Reader(bytes: base.assumingMemoryBound(to: UInt8.self), count: text.count)
        reader.skipWhitespace()
        guard reader.peek == UInt8(ascii: "{"), let root = buffers.readObject(&reader, depth: 1) else { return nil }
        reader.skipWhitespace()
        guard reader.position == reader.count else { return nil }
        return ScannedObject(bytes: reader.bytes, members: buffers.members.base, order: buffers.order.base, run: root)
    }

    /// A position in the text, and the reading of its tokens.
    fileprivate struct Reader {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var position = 0

        init(bytes: UnsafePointer<UInt8>, count: Int) {
            self.bytes = bytes
            self.count = count
        }

        /// The byte at the position, or 0 at the end (0 is never a token's first byte).
        var peek: UInt8 { position < count ? bytes[position] : 0 }

        /// White space as the parser takes it: space, tab, LF and CR.
        mutating func skipWhitespace() {
            while position < count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// The contents of the string whose `"` is at the position, when it has no escape and is valid UTF-8.
        mutating func plainString() -> (start: Int32, count: Int32)? {
            let start = position + 1
            var nonASCII = false
            let end = indexOfStringSpecialByte(bytes, from: start, to: count, nonASCII: &nonASCII)
            guard end < count, bytes[end] == UInt8(ascii: "\"") else { return nil }
            if nonASCII, firstInvalidUTF8(bytes, from: start, to: end) != nil { return nil }
            position = end + 1
            return (Int32(start), Int32(end - start))
        }

        /// The literal of the integer at the position: `-? (0 | [1-9][0-9]*)`, in `Int64`'s range, and not
        /// followed by a fraction or an exponent.
        mutating func integer() -> (start: Int32, count: Int32)? {
            let start = position
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            let digitsStart = position
            while position < count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            let digits = position - digitsStart
            // 18 digits always fit in Int64; the parser reads longer ones, and the rare fraction, exponent
            // or leading zero (which it refuses) is left to it.
            guard digits >= 1, digits <= 18, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
            switch peek {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: return (Int32(start), Int32(position - start))
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard count - position >= length, bytesEqual(bytes + position, word.utf8Start, count: length) else { return false }
            position += length
            return true
        }
    }
}

/// A buffer of plain values that grows and is reused: the scanner's, which must not allocate per line.
struct GrowingBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many elements are in use; setting it lower drops the rest (the elements are plain values).
    var count = 0

    init() {
        capacity = 32
        base = .allocate(capacity: capacity)
    }

    mutating func append(_ element: Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    func deallocate() { base.deallocate() }
}

/// An object of a scanned text (`JSONScanner`): its members in text order, each value made when asked for.
/// It reads the text and the scanner's buffers in place, so it is valid while the text's bytes are, until
/// the scanner's next scan.
public struct ScannedObject {
    private let bytes: UnsafePointer<UInt8>
    private let members: UnsafePointer<JSONScanner.Member>
    private let order: UnsafePointer<Int32>
    private let start: Int
    public let count: Int

    init(bytes: UnsafePointer<UInt8>, members: UnsafePointer<JSONScanner.Member>, order: UnsafePointer<Int32>,
         run: (start: Int32, count: Int32)) {
        self.bytes = bytes
        self.members = members
        self.order = order
        start = Int(run.start)
        count = Int(run.count)
    }

    private func member(_ i: Int) -> JSONScanner.Member {
        precondition(i >= 0 && i < count, "a member index within the object")
        return members[Int(order[start + i])]
    }

    /// The key of member `i`, as bytes of the text.
    public func keyBytes(at i: Int) -> UnsafeRawBufferPointer {
        let m = member(i)
        return UnsafeRawBufferPointer(start: bytes + Int(m.keyStart), count: Int(m.keyCount))
    }

    /// The value of member `i` when it is not an object, as the parser would make it; nil for an object
    /// (see `object(at:)`).
    public func value(at i: Int) -> JSONValue? {
        let m = member(i)
        let value = UnsafeBufferPointer(start: bytes + Int(m.valueStart), count: Int(m.valueCount))
        switch m.kind {
        case .string: return .string(String(decoding: value, as: UTF8.self))
        case .integer: return .number(JSONNumber(integerLiteral: value))
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .object: return nil
        }
    }

    /// Calls `body` with the bytes of member `i`'s value when it is a string (nil when it is not): the
    /// string's UTF-8, as the scanner takes only strings without escapes.
    public func withString<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        let m = member(i)
        guard m.kind == .string else { return nil }
        return body(UnsafeRawBufferPointer(start: bytes + Int(m.valueStart), count: Int(m.valueCount)))
    }

    /// The value of member `i` when it is an object.
    public func object(at i: Int) -> ScannedObject? {
        let m = member(i)
        guard m.kind == .object else { return nil }
        return ScannedObject(bytes: bytes, members: members, order: order, run: (m.valueStart, m.valueCount))
    }
}

extension JSONScanner.Buffers {
    /// Reads the object whose `{` is at the reader's position; returns its members' run in `order`.
    mutating func readObject(_ reader: inout JSONScanner.Reader, depth: Int) -> (start: Int32, count: Int32)? {
        guard depth <= JSONScanner.maxDepth else { return nil }
        reader.position += 1
        reader.skipWhitespace()
        let firstOpen = open.count
        if reader.peek == UInt8(ascii: "}") {
            reader.position += 1
        } else {
            while true {
                guard reader.peek == UInt8(ascii: "\""), let key = reader.plainString() else { return nil }
                reader.skipWhitespace()
                guard reader.peek == UInt8(ascii: ":") else { return nil }
                reader.position += 1
                reader.skipWhitespace()
                var member = JSONScanner.Member(keyStart: key.start, keyCount: key.count, valueStart: 0, valueCount: 0, kind: .string)
                switch reader.peek {
                case UInt8(ascii: "\""):
                    guard let value = reader.plainString() else { return nil }
                    (member.valueStart, member.valueCount) = value
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let literal = reader.integer() else { return nil }
                    (member.valueStart, member.valueCount) = literal
                    member.kind = .integer
                case UInt8(ascii: "t"):
                    guard reader.literal("true") else { return nil }
                    member.kind = .true
                case UInt8(ascii: "f"):
                    guard reader.literal("false") else { return nil }
                    member.kind = .false
                case UInt8(ascii: "{"):
                    guard let run = readObject(&reader, depth: depth + 1) else { return nil }
                    (member.valueStart, member.valueCount) = run
                    member.kind = .object
                default:
                    return nil
                }
                open.append(Int32(members.count))
                members.append(member)
                reader.skipWhitespace()
                if reader.peek == UInt8(ascii: ",") {
                    reader.position += 1
                    reader.skipWhitespace()
                } else if reader.peek == UInt8(ascii: "}") {
                    reader.position += 1
                    break
                } else {
                    return nil
                }
            }
        }
        let run = (start: Int32(order.count), count: Int32(open.count - firstOpen))
        for i in firstOpen..<open.count { order.append(open.base[i]) }
        open.count = firstOpen
        guard !hasDuplicateKey(run, reader.bytes) else { return nil }
        return run
    }

    func hasDuplicateKey(_ run: (start: Int32, count: Int32), _ bytes: UnsafePointer<UInt8>) -> Bool {
        let indices = order.base + Int(run.start)
        if Int(run.count) > JSONScanner.pairwiseKeyCheckLimit {
            var seen = Set<KeyBytes>(minimumCapacity: Int(run.count))
            for i in 0..<Int(run.count) {
                let m = members.base[Int(indices[i])]
                guard seen.insert(KeyBytes(start: bytes + Int(m.keyStart), count: Int(m.keyCount))).inserted else { return true }
            }
            return false
        }
        for i in 0..<Int(run.count) {
            let a = members.base[Int(indices[i])]
            for j in (i + 1)..<max(i + 1, Int(run.count)) {
                let b = members.base[Int(indices[j])]
                if a.keyCount == b.keyCount && bytesEqual(bytes + Int(a.keyStart), bytes + Int(b.keyStart), count: Int(a.keyCount)) {
                    return true
                }
            }
        }
        return false
    }
}

/// A key's bytes in the scanned text (keys the scanner takes have no escape: equal bytes are equal keys).
private struct KeyBytes: Hashable {
    let start: UnsafePointer<UInt8>
    let count: Int

    func hash(into hasher: inout Hasher) { hasher.combine(bytes: UnsafeRawBufferPointer(start: start, count: count)) }

    static func == (a: KeyBytes, b: KeyBytes) -> Bool { a.count == b.count && bytesEqual(a.start, b.start, count: a.count) }
}
