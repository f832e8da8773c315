public import Crypto
import Domain
import EventLog

/// One 32-byte SHA-256 value of the Merkle tree (a leaf, an inner node or a root), held inline: the append
/// path makes one or two per event, so they must not allocate.
public struct TreeHash: Hashable, Sendable, CustomStringConvertible {
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The root of the empty tree: SHA-256 of nothing (proofs.md §1).
    public static let empty = TreeHash(SHA256.hash(data: [UInt8]()))

    public init(_ digest: SHA256Digest) {
        words = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { out in digest.withUnsafeBytes { out.copyMemory(from: $0) } }
    }

    /// The hash whose bytes are `bytes`, nil unless exactly 32.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        words = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { out in out.copyBytes(from: bytes) }
    }

    /// The hash stored at `offset` of `buffer` (which must hold 32 bytes there).
    init(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
        words = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { out in out.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + 32])) }
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: words, body)
    }

    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
    public var hex: String { Hex.encode(bytes) }
    public var base64: String { Base64.encode(bytes) }
    public var description: String { hex }

    public static func == (a: TreeHash, b: TreeHash) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0); hasher.combine(words.1); hasher.combine(words.2); hasher.combine(words.3)
    }

    /// RFC 6962 §2.1: the hash of a leaf, `SHA-256(0x00 ‖ data)`.
    public static func leaf(_ data: [UInt8]) -> TreeHash {
        data.withUnsafeBytes { leaf($0) }
    }

    /// The same, of bytes in place (a canonical form in a `CanonicalBuffer`).
    public static func leaf(_ data: UnsafeRawBufferPointer) -> TreeHash {
        var hash = TreeHash.zero
        Swift.withUnsafeBytes(of: UInt8(0x00)) { prefix in
            Swift.withUnsafeMutableBytes(of: &hash.words) { out in
                if let out = out.baseAddress { PrefixedSHA256.hash(prefix: prefix, data, into: out) }
            }
        }
        return hash
    }

    /// The leaf hashes of two canonical forms, made side by side (`PrefixedSHA256.twoLeaves`): a sweep of
    /// the tree alone makes its leaves two at a time.
    public static func leaves(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> (TreeHash, TreeHash) {
        var first = TreeHash.zero, second = TreeHash.zero
        Swift.withUnsafeMutableBytes(of: &first.words) { leafA in
            Swift.withUnsafeMutableBytes(of: &second.words) { leafB in
                if let leafA = leafA.baseAddress, let leafB = leafB.baseAddress {
                    PrefixedSHA256.twoLeaves(a, b, leafA: leafA, leafB: leafB)
                }
            }
        }
        return (first, second)
    }

    /// The leaf hash of `canonical`, made together with the chain's link after `previous` for the same
    /// canonical form (`HashChain.linkAndLeaf`); nil when `stored` is not that link.
    public static func leaf(_ canonical: UnsafeRawBufferPointer, linking previous: UnsafeRawBufferPointer,
                            to stored: UnsafeRawBufferPointer) -> TreeHash? {
        var hash = TreeHash.zero
        let holds = Swift.withUnsafeMutableBytes(of: &hash.words) { out in
            HashChain.linkAndLeaf(after: previous, canonical: canonical, is: stored, leaf: out)
        }
        return holds ? hash : nil
    }

    private static let zero = TreeHash(words: (0, 0, 0, 0))

    private init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

    /// RFC 6962 §2.1: an inner node, `SHA-256(0x01 ‖ left ‖ right)`.
    public static func node(_ left: TreeHash, _ right: TreeHash) -> TreeHash {
        var pair = (left.words, right.words)
        var hash = TreeHash.zero
        Swift.withUnsafeBytes(of: UInt8(0x01)) { prefix in
            Swift.withUnsafeBytes(of: &pair) { children in
                Swift.withUnsafeMutableBytes(of: &hash.words) { out in
                    if let out = out.baseAddress { PrefixedSHA256.hash(prefix: prefix, children, into: out) }
                }
            }
        }
        return hash
    }
}
