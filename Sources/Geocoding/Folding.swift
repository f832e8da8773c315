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
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for u in s.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            switch u.properties.generalCategory {
            case .nonspacingMark:
                continue
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation,
                 .control, .spaceSeparator, .lineSeparator, .paragraphSeparator:
                pendingSpace = !out.isEmpty
                continue
            default:
                if u.properties.isWhitespace {
                    pendingSpace = !out.isEmpty
                    continue
                }
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
}
