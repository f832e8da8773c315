import StrictJSON

/// The bytes `CanonicalTranscoder` writes an event's canonical form into: memory grown when a write would not
/// fit, written with plain stores.
///
/// Why not `[UInt8]`: `Array.append` checks the array's uniqueness and capacity at every byte or run, and
/// that was a third of the transcoder's time in `log verify` (docs/VERIFY-SPEED.md); here a run of bytes costs
/// one comparison with the room left, and a string's room is made once for its worst case (every byte
/// escaped). The memory is owned by a `CanonicalBuffer`, which frees it; this is its plain view, copied into
/// the transcoder for one event and back (so that memory grown meanwhile is kept, and freed once).
struct CanonicalBytes {
    private(set) var start: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    var count = 0
    /// The day (days since 1970-01-01) whose `YYYY-MM-DD` is in `dayText`: consecutive events mostly fall on
    /// one day, so its digits are made once.
    private var day = Int.min
    private var dayText: (UInt64, UInt16) = (0, 0)

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Frees the memory (`CanonicalBuffer` does, once).
    func deallocate() { start.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }

    /// Makes room for `n` more bytes.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        if capacity - count < n { grow(n) }
    }

    @inline(never)
    private mutating func grow(_ n: Int) {
        let larger = max(2 * capacity, count + n)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = larger
    }

    /// Appends a byte, after `reserve` made room for it.
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    /// Appends `n` bytes from `bytes`, after `reserve` made room for them.
    ///
    /// Most runs are short (a key, a choice, a code, a word between escapes): up to 16 bytes they are copied
    /// with two loads and two stores that may overlap, inline, instead of a call to `memmove` for each (4% of
    /// a `log verify`). `bytes` never overlaps the buffer (a stored record, or static text).
    @inline(__always)
    mutating func put(_ bytes: UnsafeRawPointer, count n: Int) {
        let to = UnsafeMutableRawPointer(start + count)
        switch n {
        case 8...16:
            let head = bytes.loadUnaligned(as: UInt64.self), tail = bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
        case 4..<8:
            let head = bytes.loadUnaligned(as: UInt32.self), tail = bytes.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
        case 1..<4:
            for i in 0..<n { to.storeBytes(of: bytes.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self) }
        case 0:
            break
        default:
            to.copyMemory(from: bytes, byteCount: n)
        }
        count += n
    }

    /// Appends `bytes`, after `reserve` made room for them.
    @inline(__always)
    mutating func put(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress { put(base, count: bytes.count) }
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        put(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// A JSON string of the UTF-8 bytes `utf8` with only the escapes RFC 8785 requires (as
    /// `CanonicalJSONWriter.appendString`), runs that need none copied whole.
    mutating func appendString(_ utf8: UnsafeRawBufferPointer) {
        // A byte is at most 6 (`\u00xx`), and the quotes.
        reserve(6 * utf8.count + 2)
        put(0x22)
        if let base = utf8.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            var runStart = 0
            var nonASCII = false  // not asked: the stored text is valid UTF-8
            while true {
                let index = indexOfStringSpecialByte(base, from: runStart, to: utf8.count, nonASCII: &nonASCII)
                put(base + runStart, count: index - runStart)
                if index == utf8.count { break }
                putEscape(of: base[index])
                runStart = index + 1
            }
        }
        put(0x22)
    }

    private mutating func putEscape(of byte: UInt8) {
        put(0x5C)
        switch byte {
        case 0x22, 0x5C: put(byte)
        case 0x08: put(UInt8(ascii: "b"))
        case 0x0C: put(UInt8(ascii: "f"))
        case 0x0A: put(UInt8(ascii: "n"))
        case 0x0D: put(UInt8(ascii: "r"))
        case 0x09: put(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            put(UInt8(ascii: "u")); put(UInt8(ascii: "0")); put(UInt8(ascii: "0"))
            put(hex.utf8Start[Int(byte >> 4)])
            put(hex.utf8Start[Int(byte & 0xF)])
        }
    }

    /// An integer in plain decimal.
    mutating func appendInteger(_ value: Int64) {
        reserve(20)
        if value < 0 { put(0x2D) }
        let magnitude = value.magnitude
        var width = 1
        var rest = magnitude / 10
        while rest > 0 { width += 1; rest /= 10 }
        putDigits(magnitude, width: width)
    }

    /// `width` decimal digits of `value` (0 ≤ value < 10^width), after `reserve` made room for them.
    @inline(__always)
    private mutating func putDigits<T: BinaryInteger>(_ value: T, width: Int) {
        var v = value
        var i = width
        while i > 0 {
            i -= 1
            start[count + i] = UInt8(truncatingIfNeeded: v % 10) | 0x30
            v /= 10
        }
        count += width
    }

    /// An instant as a JSON string in the normalised text form of `Timestamp.appendText`
    /// (`YYYY-MM-DDTHH:MM:SS[.fraction]Z`, no trailing zeros in the fraction), the date's digits made once a day.
    mutating func appendInstant(microseconds: Int64, day: Int, date: () -> String) {
        // 2 quotes, the date's 10 bytes, T, 8 of the time, the fraction's 7, Z: 29.
        reserve(29)
        if day != self.day {
            var text = date()
            let made = text.withUTF8 { utf8 -> Bool in
                guard utf8.count == 10 else { return false }
                let raw = UnsafeRawBufferPointer(utf8)
                dayText = (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
                return true
            }
            // A year of more than 4 digits (never in a log, but any value decodes): written as it is.
            guard made else {
                put(0x22)
                reserve(text.utf8.count + 20)
                text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
                appendTime(microseconds: microseconds, day: day)
                return
            }
            self.day = day
        }
        put(0x22)
        withUnsafeBytes(of: dayText.0) { put($0) }
        withUnsafeBytes(of: dayText.1) { put($0) }
        appendTime(microseconds: microseconds, day: day)
    }

    /// `THH:MM:SS[.fraction]Z"` of an instant on `day`, after room for them was made.
    private mutating func appendTime(microseconds: Int64, day: Int) {
        let inDay = microseconds - Int64(day) * 86_400_000_000
        let seconds = Int(inDay / 1_000_000)
        var fraction = Int(inDay % 1_000_000)
        put(0x54)
        putDigits(seconds / 3600, width: 2); put(0x3A)
        putDigits(seconds / 60 % 60, width: 2); put(0x3A)
        putDigits(seconds % 60, width: 2)
        if fraction > 0 {
            var width = 6
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            put(0x2E)
            putDigits(fraction, width: width)
        }
        put(0x5A)
        put(0x22)
    }
}

/// Memory for canonical forms, reused from one event to the next by a caller that makes many (`log verify`'s
/// sweep, a tree's catch-up): it holds the last one made (`bytes`), until the next.
public struct CanonicalBuffer: ~Copyable {
    var storage: CanonicalBytes

    public init(capacity: Int = 4096) { storage = CanonicalBytes(capacity: capacity) }

    deinit { storage.deallocate() }

    /// The last canonical form made, valid until the next is made or the buffer ends.
    public var bytes: UnsafeRawBufferPointer { storage.bytes }
}
