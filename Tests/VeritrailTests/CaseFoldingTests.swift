import Domain
import XCTest

/// `CaseFolding` lower-cases ASCII eight bytes at a time; it must agree with the spec's scalar-by-scalar
/// lower-casing at every length and alignment, and fall back for text that is not ASCII.
final class CaseFoldingTests: XCTestCase {
    /// The spec's reading, scalar by scalar.
    private func reference(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                out.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
            } else {
                out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
        return out
    }

    func testEveryASCIIByteAtEveryAlignment() {
        let all = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for start in 0..<16 {
            for length in [0, 1, 7, 8, 9, 15, 16, 17, 64, 128 - start] where start + length <= 128 {
                let text = String(all.utf8.dropFirst(start).prefix(length))!
                XCTAssertEqual(CaseFolding.lowercasedUTF8(text), reference(text), "bytes \(start)..<\(start + length)")
            }
        }
    }

    func testTextThatIsNotASCIIFallsBackWhereverItsFirstNonASCIIByteIs() {
        for text in ["ÀBCDEFGHIJ", "ABCDEFGHÉ", "ABCDEFGHIJKLMNOPΣ", "Ünïcödé ΣΑΣ İstanbul", "ABC👜DEFGHIJKLMNOP", "ẞTRASSE"] {
            XCTAssertEqual(CaseFolding.lowercasedUTF8(text), reference(text), text)
            var out: [UInt8] = [0x41]
            CaseFolding.appendLowercased(text, to: &out)
            XCTAssertEqual(out, [0x41] + reference(text), "appended after other bytes: \(text)")
        }
    }
}
