/// Where the math of RFC 6962 finds the hash of a complete subtree: the one of `2^level` leaves starting at
/// leaf `index · 2^level`. The stored tree answers from LMDB in one read; tests answer from memory.
public protocol NodeSource {
    func node(level: Int, index: UInt64) throws -> TreeHash
}

/// RFC 6962 §2.1 (RFC 9162 §2.1): the Merkle Tree Hash of a prefix, the audit path of a leaf and the
/// consistency proof between two sizes, all computed from complete subtrees (`NodeSource`), never from the
/// leaves themselves: every answer needs O(log N) (an audit path O(log² N) at worst) lookups.
public enum MerkleMath {
    /// The largest power of two strictly below `n` (n ≥ 2): where RFC 6962 splits a range of n leaves.
    @inline(__always)
    static func split(_ n: UInt64) -> UInt64 {
        UInt64(1) << (63 - (n - 1).leadingZeroBitCount)
    }

    /// MTH(D[lo:hi]) for a range RFC 6962's recursion reaches (lo a multiple of the largest power of two
    /// that fits the range), from `source`'s complete subtrees.
    public static func hash(_ lo: UInt64, _ hi: UInt64, _ source: some NodeSource) throws -> TreeHash {
        let n = hi - lo
        if n == 0 { return .empty }
        if n & (n - 1) == 0 {
            let level = n.trailingZeroBitCount
            return try source.node(level: level, index: lo >> UInt64(level))
        }
        let k = split(n)
        return TreeHash.node(try hash(lo, lo + k, source), try hash(lo + k, hi, source))
    }

    /// The root of the tree of the first `size` leaves.
    public static func root(size: UInt64, _ source: some NodeSource) throws -> TreeHash {
        try hash(0, size, source)
    }

    /// RFC 6962 §2.1.1 PATH(m, D[0:size]): the audit path of leaf `index`, from its sibling up.
    public static func inclusionPath(index: UInt64, size: UInt64, _ source: some NodeSource) throws -> [TreeHash] {
        precondition(index < size, "inclusionPath needs index < size")
        var path: [TreeHash] = []
        var lo: UInt64 = 0, hi = size
        // Walk down from the root, noting the side not taken; the path lists them bottom-up.
        while hi - lo > 1 {
            let k = split(hi - lo)
            if index < lo + k {
                path.append(try hash(lo + k, hi, source))
                hi = lo + k
            } else {
                path.append(try hash(lo, lo + k, source))
                lo += k
            }
        }
        return path.reversed()
    }

    /// RFC 6962 §2.1.2 PROOF(old, D[0:size]): the consistency proof from the tree of `old` leaves to the tree
    /// of `size` leaves; empty when old is 0 or equals size.
    public static func consistencyProof(old: UInt64, size: UInt64, _ source: some NodeSource) throws -> [TreeHash] {
        precondition(old <= size, "consistencyProof needs old ≤ size")
        guard old > 0, old < size else { return [] }
        var proof: [TreeHash] = []
        try subproof(old, 0, size, true, source, &proof)
        return proof
    }

    /// SUBPROOF(m, D[lo:hi], b) of RFC 6962 §2.1.2, appending to `proof` in the RFC's order.
    private static func subproof(_ m: UInt64, _ lo: UInt64, _ hi: UInt64, _ b: Bool,
                                 _ source: some NodeSource, _ proof: inout [TreeHash]) throws {
        let n = hi - lo
        if m == n {
            if !b { proof.append(try hash(lo, hi, source)) }
            return
        }
        let k = split(n)
        if m <= k {
            try subproof(m, lo, lo + k, b, source, &proof)
            proof.append(try hash(lo + k, hi, source))
        } else {
            try subproof(m - k, lo + k, hi, false, source, &proof)
            proof.append(try hash(lo, lo + k, source))
        }
    }
}
