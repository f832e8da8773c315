import Crypto
import Domain

/// The hash chain of events.md §2: `hash(n) = SHA-256(hex(hash(n-1)) ++ "\n" ++ canonical(event n))`,
/// starting from 32 zero bytes.
public enum HashChain {
    public static let genesis = [UInt8](repeating: 0, count: 32)

    /// The chain value after an event whose canonical form (without `hash`) is `canonical`, followed by
    /// `rest` when given in two parts.
    public static func next(after previous: some Sequence<UInt8>, canonical: [UInt8], _ rest: [UInt8] = []) -> [UInt8] {
        var hasher = SHA256()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65) { hex in
            var i = 0
            for b in previous {
                hex[i] = hexDigits[Int(b >> 4)]
                hex[i + 1] = hexDigits[Int(b & 0x0F)]
                i += 2
            }
            hex[64] = 0x0A
            hasher.update(bufferPointer: UnsafeRawBufferPointer(hex))
        }
        canonical.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        if !rest.isEmpty { rest.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

extension HashChain {
    /// Whether `stored` is the chain value after `previous` for an event whose canonical form is `canonical`:
    /// `next` without an array made for the value, for `log verify`, which asks it of every event.
    public static func link(after previous: UnsafeRawBufferPointer, canonical: UnsafeRawBufferPointer,
                            is stored: UnsafeRawBufferPointer) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { leaf in
            linkAndLeaf(after: previous, canonical: canonical, is: stored, leaf: leaf, makingLeaf: false)
        }
    }

    /// `link(after:canonical:is:)`, and the Merkle leaf hash of the same canonical form (`SHA-256(0x00 ‖
    /// canonical)`, proofs.md §1) written to `leaf` (32 bytes): `log verify` needs both of every event, and
    /// they are made side by side (`PrefixedSHA256.linkAndLeaf`).
    public static func linkAndLeaf(after previous: UnsafeRawBufferPointer, canonical: UnsafeRawBufferPointer,
                                   is stored: UnsafeRawBufferPointer, leaf: UnsafeMutableRawBufferPointer) -> Bool {
        linkAndLeaf(after: previous, canonical: canonical, is: stored, leaf: leaf, makingLeaf: true)
    }

    private static func linkAndLeaf(after previous: UnsafeRawBufferPointer, canonical: UnsafeRawBufferPointer,
                                    is stored: UnsafeRawBufferPointer, leaf: UnsafeMutableRawBufferPointer,
                                    makingLeaf: Bool) -> Bool {
        guard previous.count == 32, stored.count == 32, leaf.count == 32, let leafStart = leaf.baseAddress else { return false }
        return withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { digest in
            guard let link = digest.baseAddress else { return false }
            withLine(after: previous) { line in
                if makingLeaf {
                    PrefixedSHA256.linkAndLeaf(line: line, canonical, link: link, leaf: leafStart)
                } else {
                    PrefixedSHA256.hash(prefix: line, canonical, into: link)
                }
            }
            return (0..<4).allSatisfy {
                link.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self) == stored.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)
            }
        }
    }

    /// The chain link after `previous` (32 bytes) of an event whose canonical form is `canonical`, and that
    /// form's Merkle leaf hash, written to the 32 bytes at `link` and at `leaf`: an append makes both of
    /// every event, side by side (`PrefixedSHA256.linkAndLeaf`).
    public static func linkAndLeaf(after previous: UnsafeRawBufferPointer, canonical: UnsafeRawBufferPointer,
                                   link: UnsafeMutableRawPointer, leaf: UnsafeMutableRawPointer) {
        precondition(previous.count == 32, "a chain link is 32 bytes")
        withLine(after: previous) { line in PrefixedSHA256.linkAndLeaf(line: line, canonical, link: link, leaf: leaf) }
    }

    /// Calls `body` with the first part of a link's input: `previous` (32 bytes) in hex and a newline.
    private static func withLine(after previous: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: 65, alignment: 8) { line in
            for i in 0..<32 {
                let b = previous[i]
                line[2 * i] = hexDigits[Int(b >> 4)]
                line[2 * i + 1] = hexDigits[Int(b & 0x0F)]
            }
            line[64] = 0x0A
            body(UnsafeRawBufferPointer(line))
        }
    }
}
