import Crypto
import EventLog
import Proofs
import Testing

/// `log verify` hashes with `CSHA256` (the SHA extensions) where the CPU has them: its hashes must be
/// swift-crypto's for every length around the block boundaries, the link and leaf made side by side too, and
/// two leaves side by side (`rebuild`'s check of the tree).
@Suite("SHA-256 of log verify")
struct PrefixedSHA256Tests {
    private func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    private func randomBytes(_ count: Int, _ generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test("prefix and data, 0 to 300 bytes after prefixes of 0, 1, 63, 64, 65 and 130")
    func prefixed() {
        var generator = SystemRandomNumberGenerator()
        for prefixCount in [0, 1, 63, 64, 65, 130] {
            for count in 0...300 {
                let prefix = randomBytes(prefixCount, &generator), data = randomBytes(count, &generator)
                var out = [UInt8](repeating: 0, count: 32)
                prefix.withUnsafeBytes { p in
                    data.withUnsafeBytes { d in out.withUnsafeMutableBytes { PrefixedSHA256.hash(prefix: p, d, into: $0.baseAddress!) } }
                }
                #expect(out == sha256(prefix + data), "prefix \(prefixCount), data \(count)")
            }
        }
    }

    @Test("a chain link and a leaf side by side, canonical forms of 0 to 700 bytes")
    func linkAndLeaf() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...700 {
            let previous = randomBytes(32, &generator), canonical = randomBytes(count, &generator)
            let link = HashChain.next(after: previous, canonical: canonical)
            let leaf = canonical.withUnsafeBytes { c in
                previous.withUnsafeBytes { p in link.withUnsafeBytes { TreeHash.leaf(c, linking: p, to: $0) } }
            }
            #expect(leaf?.bytes == sha256([0x00] + canonical), "canonical form of \(count) bytes")
            // Another stored value is no link: no leaf.
            var wrong = link
            wrong[count % 32] ^= 1
            let refused = canonical.withUnsafeBytes { c in
                previous.withUnsafeBytes { p in wrong.withUnsafeBytes { TreeHash.leaf(c, linking: p, to: $0) } }
            }
            #expect(refused == nil)
            #expect(TreeHash.node(TreeHash(bytes: previous)!, TreeHash(bytes: link)!).bytes == sha256([0x01] + previous + link))
        }
    }

    @Test("two leaves side by side, forms of 0 to 300 bytes against forms of any block count")
    func twoLeaves() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...300 {
            for other in [0, 1, 54, 55, 62, 63, 64, 118, 119, 127, 128, 350, 700] {
                let a = randomBytes(count, &generator), b = randomBytes(other, &generator)
                let (first, second) = a.withUnsafeBytes { a in b.withUnsafeBytes { TreeHash.leaves(a, $0) } }
                #expect(first.bytes == sha256([0x00] + a) && second.bytes == sha256([0x00] + b), "forms of \(count) and \(other) bytes")
            }
        }
    }
}
