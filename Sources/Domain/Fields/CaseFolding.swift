/// "Case-insensitively" as events.md defines it: full Unicode lower-casing of each scalar on its own,
/// without context rules (`Σ` always becomes `σ`) and without normalisation.
///
/// Swift's `String.lowercased()` is not used because the spec fixes the scalar-by-scalar reading; the
/// ASCII fast path keeps searches over a million scans cheap.
public enum CaseFolding {
    /// The lower-cased UTF-8 bytes of `text`.
    public static func lowercasedUTF8(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        appendLowercased(text, to: &out)
        return out
    }

    public static func lowercased(_ text: String) -> String {
        String(decoding: lowercasedUTF8(text), as: UTF8.self)
    }

    public static func appendLowercased(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendLowercased(utf8: UnsafeRawBufferPointer($0), to: &out) }
    }

    /// The same for text given as its UTF-8 bytes (valid UTF-8, as every stored string is).
    public static func appendLowercased(utf8: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: utf8)
        let ascii = out.withUnsafeMutableBytes { lowercaseASCII(UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
        if ascii { return }
        out.removeLast(out.count - start)
        if appendLowercasedScalars(utf8, to: &out) { return }
        // Not valid UTF-8 (never a stored string): read as `String` reads it, each bad sequence a U+FFFD.
        out.removeLast(out.count - start)
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                out.append(lowered(b))
            } else {
                out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
    }

    /// Text with a scalar that is not ASCII, scalar by scalar from its bytes: a scalar that lower-casing
    /// leaves as it is (`changesWhenLowercased` false: é, ü, every CJK ideograph, emoji) is copied as its
    /// bytes, and only the others are mapped, a `String` made for each. Decoding the whole text as a `String`
    /// and mapping every scalar was a sixth of a 10M rebuild's decoding thread, where a third of the events
    /// hold such text (docs/BULK.md). False, with `out` partly written, at bytes that are not valid UTF-8.
    private static func appendLowercasedScalars(_ utf8: UnsafeRawBufferPointer, to out: inout [UInt8]) -> Bool {
        guard let bytes = utf8.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        let n = utf8.count
        out.reserveCapacity(out.count + n)
        var i = 0
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                out.append(lowered(b0))
                i += 1
                continue
            }
            guard let (scalar, length) = scalar(at: i, in: bytes, count: n) else { return false }
            if changesWhenLowercased(scalar) {
                out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            } else {
                out.append(contentsOf: UnsafeBufferPointer(start: bytes + i, count: length))
            }
            i += length
        }
        return true
    }

    /// `scalar.properties.changesWhenLowercased`, which searches the standard library's tables (a third of
    /// the time of the text that is not ASCII), read from a table of the scalars of two bytes (most European
    /// letters) and known for the CJK ideographs, which have no case.
    @inline(__always)
    private static func changesWhenLowercased(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80..<0x800:
            let bit = Int(scalar.value) - 0x80
            return twoByteScalarsThatChange[bit >> 6] & (1 << UInt64(bit & 63)) != 0
        case 0x4E00...0x9FFF:
            return false
        default:
            return scalar.properties.changesWhenLowercased
        }
    }

    /// Bit n: whether lower-casing changes U+0080 + n, for the 1,920 scalars up to U+07FF.
    private static let twoByteScalarsThatChange: [UInt64] = (0..<30).map { word in
        (0..<64).reduce(UInt64(0)) { bits, bit in
            let changes = Unicode.Scalar(UInt32(0x80 + 64 * word + bit))?.properties.changesWhenLowercased ?? false
            return changes ? bits | 1 << UInt64(bit) : bits
        }
    }

    /// An ASCII byte lower-cased (A–Z to a–z).
    @inline(__always)
    private static func lowered(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    /// The scalar whose UTF-8 sequence starts at `bytes[i]`, a byte that is not ASCII, and the sequence's
    /// length; nil when the bytes there are not a valid sequence (a stray continuation byte, a sequence cut
    /// short, an overlong form, a surrogate, past U+10FFFF).
    @inline(__always)
    private static func scalar(at i: Int, in bytes: UnsafePointer<UInt8>, count n: Int) -> (Unicode.Scalar, Int)? {
        let b0 = UInt32(bytes[i])
        let length: Int, least: UInt32
        var value: UInt32
        switch b0 {
        case 0xC2...0xDF: length = 2; least = 0x80; value = b0 & 0x1F
        case 0xE0...0xEF: length = 3; least = 0x800; value = b0 & 0x0F
        case 0xF0...0xF4: length = 4; least = 0x10000; value = b0 & 0x07
        default: return nil
        }
        guard n - i >= length else { return nil }
        for k in 1..<length {
            let b = UInt32(bytes[i + k])
            guard b & 0xC0 == 0x80 else { return nil }
            value = value << 6 | b & 0x3F
        }
        guard value >= least, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// Lower-cases ASCII text in place, eight bytes at a time; false (with `bytes` partly changed) when it
    /// holds a byte that is not ASCII. A byte `b` ≤ 0x7F is in A–Z when `b + 0x3F` reaches 0x80 and
    /// `b + 0x25` does not; neither sum carries into the next byte.
    private static func lowercaseASCII(_ bytes: UnsafeMutableRawBufferPointer) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i + 8 <= bytes.count {
            let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if w & high != 0 { return false }
            let upper = (w &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(w &+ 0x2525_2525_2525_2525) & high
            bytes.storeBytes(of: w | upper >> 2, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x80 { return false }
            bytes[i] = lowered(b)
            i += 1
        }
        return true
    }
}
