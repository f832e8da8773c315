import CSHA256
import Crypto

/// SHA-256 of a short prefix and then bytes in place: the three kinds of hash `log verify` makes of every
/// event (its chain link, `hex(previous) ‖ "\n" ‖ canonical`; its leaf, `0x00 ‖ canonical`; a node,
/// `0x01 ‖ left ‖ right`).
///
/// Why not swift-crypto's `SHA256` alone: each hasher it makes allocates and frees a context object and checks
/// exclusive access on every update, which cost about a third as much again as the compression itself in a
/// verify (docs/VERIFY-SPEED.md). With the x86-64 SHA extensions, `CSHA256` hashes straight from the
/// caller's memory into 32 bytes on the stack; on any other CPU swift-crypto does, with the same result.
public enum PrefixedSHA256 {
    /// Whether the CPU has the SHA extensions (asked once).
    static let hardware = veritrail_sha256_ni_available() != 0

    /// SHA-256 of `prefix ‖ data`, written to the 32 bytes at `out`.
    @inline(__always)
    public static func hash(prefix: UnsafeRawBufferPointer, _ data: UnsafeRawBufferPointer,
                            into out: UnsafeMutableRawPointer) {
        if hardware {
            veritrail_sha256_prefixed(prefix.baseAddress?.assumingMemoryBound(to: UInt8.self), prefix.count,
                                      data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count,
                                      out.assumingMemoryBound(to: UInt8.self))
        } else {
            var hasher = SHA256()
            hasher.update(bufferPointer: prefix)
            hasher.update(bufferPointer: data)
            hasher.finalize().withUnsafeBytes { UnsafeMutableRawBufferPointer(start: out, count: 32).copyMemory(from: $0) }
        }
    }

    /// The chain link `SHA-256(line ‖ canonical)` and the leaf `SHA-256(0x00 ‖ canonical)` of one event, into
    /// the 32 bytes at `link` and at `leaf`; `line` is the previous link in hex and a newline (65 bytes). With
    /// the SHA extensions the two run side by side, sharing the schedule of their common blocks.
    @inline(__always)
    public static func linkAndLeaf(line: UnsafeRawBufferPointer, _ canonical: UnsafeRawBufferPointer,
                                   link: UnsafeMutableRawPointer, leaf: UnsafeMutableRawPointer) {
        if hardware, line.count == 65, line[64] == 0x0A {
            veritrail_sha256_link_and_leaf(line.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                           canonical.baseAddress?.assumingMemoryBound(to: UInt8.self), canonical.count,
                                           link.assumingMemoryBound(to: UInt8.self), leaf.assumingMemoryBound(to: UInt8.self))
        } else {
            hash(prefix: line, canonical, into: link)
            withUnsafeBytes(of: UInt8(0x00)) { hash(prefix: $0, canonical, into: leaf) }
        }
    }

    /// The leaves `SHA-256(0x00 ‖ a)` and `SHA-256(0x00 ‖ b)` of two canonical forms, into the 32 bytes at
    /// `leafA` and at `leafB`. With the SHA extensions the two run side by side.
    @inline(__always)
    public static func twoLeaves(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer,
                                 leafA: UnsafeMutableRawPointer, leafB: UnsafeMutableRawPointer) {
        if hardware {
            veritrail_sha256_two_leaves(a.baseAddress?.assumingMemoryBound(to: UInt8.self), a.count,
                                        b.baseAddress?.assumingMemoryBound(to: UInt8.self), b.count,
                                        leafA.assumingMemoryBound(to: UInt8.self), leafB.assumingMemoryBound(to: UInt8.self))
        } else {
            withUnsafeBytes(of: UInt8(0x00)) { zero in
                hash(prefix: zero, a, into: leafA)
                hash(prefix: zero, b, into: leafB)
            }
        }
    }
}
