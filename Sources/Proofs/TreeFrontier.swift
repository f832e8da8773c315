/// The right edge of a growing tree: the hashes of the complete subtrees its leaves form so far, one per
/// set bit of its size, largest first. Appending a leaf merges equal-sized subtrees; the merged hashes
/// are exactly the nodes that leaf completes, which the stored tree keeps in the leaf's record.
public struct TreeFrontier: Sendable {
    /// The leaves so far.
    public private(set) var size: UInt64
    /// The complete subtrees, largest (leftmost) first.
    public private(set) var hashes: [TreeHash]

    public init() {
        size = 0
        hashes = []
        hashes.reserveCapacity(64)
    }

    /// The frontier of a tree of `size` leaves whose complete subtrees (largest first) are `hashes`.
    public init(size: UInt64, hashes: [TreeHash]) {
        precondition(hashes.count == size.nonzeroBitCount, "a frontier has one hash per set bit of its size")
        self.size = size
        self.hashes = hashes
        self.hashes.reserveCapacity(64)
    }

    /// The complete subtrees of a tree of `size` leaves as (level, index), largest first: what `init` needs.
    public static func subtrees(ofSize size: UInt64) -> [(level: Int, index: UInt64)] {
        var out: [(level: Int, index: UInt64)] = []
        var start: UInt64 = 0
        for level in stride(from: 63, through: 0, by: -1) where size & (UInt64(1) << UInt64(level)) != 0 {
            out.append((level, start >> UInt64(level)))
            start += UInt64(1) << UInt64(level)
        }
        return out
    }

    /// Appends the leaf `leaf`; `completed` is called with it, then with each node it completes, bottom-up
    /// (the record the stored tree keeps for this leaf).
    @inline(__always)
    public mutating func append(_ leaf: TreeHash, _ completed: (TreeHash) throws -> Void) rethrows {
        var top = leaf
        try completed(top)
        var index = size
        while index & 1 == 1 {
            top = TreeHash.node(hashes.removeLast(), top)
            try completed(top)
            index >>= 1
        }
        hashes.append(top)
        size += 1
    }

    /// The root of the tree so far: the complete subtrees folded from the right (RFC 6962's split).
    public var root: TreeHash {
        guard var root = hashes.last else { return .empty }
        for hash in hashes.dropLast().reversed() { root = TreeHash.node(hash, root) }
        return root
    }
}
