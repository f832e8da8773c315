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

    /// Text that is not ASCII is read from its bytes, and a scalar that `changesWhenLowercased` says lower-casing
    /// leaves alone is copied: that must be so for every scalar there is, between ASCII and beside another
    /// scalar that is not ASCII.
    func testEveryScalarLowerCasesAsTheSpecSays() {
        var differing: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "Ab" + String(Character(scalar)) + "é"
            if CaseFolding.lowercasedUTF8(text) != reference(text) { differing.append(String(value, radix: 16)) }
        }
        XCTAssertEqual(differing, [], "scalars lower-cased otherwise than the spec says")
    }

    /// Bytes that are not valid UTF-8 (never a stored string) are read as `String` reads them, each bad
    /// sequence a U+FFFD: stray continuation bytes, sequences cut short, overlong forms, surrogates, bytes
    /// past U+10FFFF.
    func testBytesThatAreNotUTF8AreReadAsAStringReadsThem() {
        let bad: [[UInt8]] = [[0x80], [0xC3], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                              [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE4, 0xB8], [0xC3, 0xA9, 0xFF], [0xE4, 0x41, 0x42]]
        var generator = SystemRandomNumberGenerator()
        var inputs = bad.map { Array("AbÉ".utf8) + $0 + Array("Zü".utf8) }
        let pieces: [[UInt8]] = [[0x41], [0x7A], Array("É".utf8), Array("海".utf8), Array("📦".utf8), [0x80], [0xBF], [0xC3], [0xE4],
                                 [0xF0], [0xFF], [0xED, 0xA0]]
        for _ in 0..<2000 {
            inputs.append((0..<Int.random(in: 1...12, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! })
        }
        for bytes in inputs {
            var out: [UInt8] = []
            bytes.withUnsafeBytes { CaseFolding.appendLowercased(utf8: $0, to: &out) }
            XCTAssertEqual(out, reference(String(decoding: bytes, as: UTF8.self)), "\(bytes)")
        }
    }
}
