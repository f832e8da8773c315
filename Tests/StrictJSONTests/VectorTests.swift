import Foundation
import StrictJSON
import Testing

/// The vectors of scripts/jcs_vectors.py, computed by Python independently of this package.
/// They are read with Foundation's decoder, not with the parser under test.
struct Vectors: Decodable {
    struct Canonical: Decodable {
        let name: String
        let input: String
        let canonical: String
        let sha256: String
    }

    struct Number: Decodable {
        let bits: String
        let expected: String
    }

    let canonical: [Canonical]
    let numbers: [Number]

    static let shared: Vectors = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("vectors.json")
        do {
            return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        } catch {
            fatalError("can't read \(url.path): \(error)")
        }
    }()
}

@Suite struct VectorTests {
    @Test(arguments: Vectors.shared.canonical.map(\.name))
    func canonicalFormAndHash(name: String) throws {
        let vector = try #require(Vectors.shared.canonical.first { $0.name == name })
        let value = try JSONValue.parse(vector.input)
        let canonical = canonicalJSON(value)
        #expect(String(decoding: canonical, as: UTF8.self) == vector.canonical)
        #expect(Array(vector.canonical.utf8) == canonical)
        #expect(SHA256.hex(canonical) == vector.sha256)

        // Canonicalising is idempotent, and equality is canonical equality.
        let reparsed = try JSONValue.parse(canonical)
        #expect(canonicalJSON(reparsed) == canonical)
        #expect(reparsed == value)
    }

    @Test func numbersMatchECMAScript() throws {
        #expect(Vectors.shared.numbers.count > 1000)
        for vector in Vectors.shared.numbers {
            let double = Double(bitPattern: try #require(UInt64(vector.bits, radix: 16)))
            #expect(ecmaScriptNumberString(double) == vector.expected, "bits \(vector.bits)")
        }
    }

    @Test func numbersReadBackFromTheirLiteralsAlike() throws {
        for vector in Vectors.shared.numbers {
            let double = Double(bitPattern: try #require(UInt64(vector.bits, radix: 16)))
            let number = try #require(try JSONValue.parse(vector.expected).number)
            #expect(number.doubleValue == double, "\(vector.expected)")
            #expect(number.canonicalText == vector.expected)
        }
    }
}
