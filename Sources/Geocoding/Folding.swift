import Foundation

extension Gazetteer {
    /// Letters with no Unicode decomposition that are commonly written without their stroke or ligature.
    /// scripts/gen_gazetteer.py carries the same table (SPECIAL): keep them in step.
    static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l",
        "þ": "th", "ħ": "h", "ı": "i", "ς": "σ",
    ]

    /// The matching key of a name, the same function as `fold` in scripts/gen_gazetteer.py:
    /// compatibility decomposition (NFKD), lower-casing, removal of nonspacing marks (accents and other
    /// diacritics), the `special` letters, and punctuation and white space as single spaces, trimmed.
    /// "São Paulo", "SAO PAULO" and "sao-paulo" all fold to "sao paulo"; "München" to "munchen".
    public static func fold(_ s: String) -> String {
        if let ascii = foldASCII(s) { return ascii }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for u in s.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            if u.properties.generalCategory == .nonspacingMark { continue }
            if isSeparator(u) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            if let rep = special[u] {
                out.append(contentsOf: rep.unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    /// Punctuation, controls and white space: each run becomes one space.
    static func isSeparator(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .control, .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return u.properties.isWhitespace
        }
    }

    /// What `fold` does to each ASCII byte, derived from the general rules above (ASCII is its own NFKD and
    /// has no marks): 0 for a separator, else the lower-case byte.
    private static let asciiFold: [UInt8] = (0..<128).map { b in
        let u = Unicode.Scalar(UInt8(b))
        if isSeparator(u) { return 0 }
        return UInt8(ascii: Unicode.Scalar(String(u).lowercased())!)
    }

    /// The fast path of `fold` for pure ASCII text; nil for anything else.
    private static func foldASCII(_ s: String) -> String? {
        var s = s
        return s.withUTF8 { bytes -> String? in
            var out = [UInt8]()
            out.reserveCapacity(bytes.count)
            var pendingSpace = false
            for b in bytes {
                guard b < 0x80 else { return nil }
                let f = asciiFold[Int(b)]
                if f == 0 {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if pendingSpace {
                    out.append(0x20)
                    pendingSpace = false
                }
                out.append(f)
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
