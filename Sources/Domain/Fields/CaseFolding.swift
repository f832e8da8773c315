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
        text.withUTF8 { utf8 in
            if !utf8.contains(where: { $0 >= 0x80 }) {
                let start = out.count
                out.append(contentsOf: utf8)
                out.withUnsafeMutableBufferPointer { buffer in
                    for i in start..<buffer.count where buffer[i] >= 0x41 && buffer[i] <= 0x5A { buffer[i] |= 0x20 }
                }
                return
            }
            for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
                if scalar.isASCII {
                    let b = UInt8(scalar.value)
                    out.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
                } else {
                    out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
                }
            }
        }
    }
}
