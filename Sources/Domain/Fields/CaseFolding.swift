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
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                out.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
            } else {
                out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
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
            if b >= 0x41 && b <= 0x5A { bytes[i] = b | 0x20 }
            i += 1
        }
        return true
    }
}
