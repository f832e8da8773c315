/// Checking an inclusion proof without the tree: what an auditor's verifier does with a proof it was given.
extension MerkleMath {
    /// RFC 9162 §2.1.3.2: the root that the audit path `path` of the leaf at `index`, whose hash is `leaf`, leads
    /// to in a tree of `size` leaves; nil when the path can not be one of that tree (too short, too long, or
    /// `index` not below `size`). The proof holds when the root is the tree's.
    public static func root(index: UInt64, size: UInt64, leaf: TreeHash, path: [TreeHash]) -> TreeHash? {
        guard index < size else { return nil }
        var fn = index, sn = size - 1, r = leaf
        for p in path {
            guard sn != 0 else { return nil }
            if fn & 1 == 1 || fn == sn {
                r = TreeHash.node(p, r)
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                r = TreeHash.node(r, p)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 ? r : nil
    }
}
