import Domain
public import EventLog
public import LMDB

/// The Merkle tree as the store keeps it, in the LMDB database `tree` of the log's environment.
///
/// Key: a leaf's index (8 bytes big-endian, so appends go to the end of the B-tree). Value: the leaf's
/// hash, then the hashes of the complete subtrees that this leaf completes, bottom-up: leaf i completes the
/// subtree of level L at index i >> L whenever the low L bits of i are all ones, so its value holds
/// 32 · (1 + trailing ones of i) bytes, 64 on average. Node (L, k) is then one read: the record of leaf
/// (k + 1) · 2^L − 1, hash number L. The tree's size is its record count, which LMDB keeps without a scan.
public struct StoredTree: NodeSource {
    public let transaction: Transaction
    let database: Database

    public init(transaction: Transaction, database: Database) {
        self.transaction = transaction
        self.database = database
    }

    /// How many leaves the stored tree holds.
    public func size() throws -> UInt64 { UInt64(try transaction.count(database)) }

    public func node(level: Int, index: UInt64) throws -> TreeHash {
        let leaf = ((index + 1) << UInt64(level)) - 1
        let value = try leaf.withBigEndianBytes { key in try transaction.get(database, key) }
        guard let value, value.count >= 32 * (level + 1) else {
            throw StoreError("the store's Merkle tree lacks the node of level \(level) at \(index) (record of leaf \(leaf))")
        }
        return TreeHash(value, at: 32 * level)
    }

    /// The stored record of leaf `index`: its hash and the nodes it completes, or nil when there is none.
    func record(_ index: UInt64) throws -> UnsafeRawBufferPointer? {
        try index.withBigEndianBytes { key in try transaction.get(database, key) }
    }

    /// The frontier of the stored tree at `size` leaves: popcount(size) reads.
    public func frontier(size: UInt64) throws -> TreeFrontier {
        let hashes = try TreeFrontier.subtrees(ofSize: size).map { try node(level: $0.level, index: $0.index) }
        return TreeFrontier(size: size, hashes: hashes)
    }
}

/// Appends leaves to the stored tree inside one write transaction, keeping the frontier in memory so that
/// an append reads nothing: one SHA-256 per completed node (one on average) and one appended record.
public final class TreeWriter {
    public let tree: StoredTree
    /// Only the transaction's thread touches it (LMDB ties a write transaction to one thread).
    @exclusivity(unchecked)
    public private(set) var frontier: TreeFrontier

    /// Starts appending after the stored tree's last leaf.
    public init(tree: StoredTree) throws {
        self.tree = tree
        frontier = try tree.frontier(size: try tree.size())
    }

    /// Appends a leaf whose hash is `leaf` (SHA-256 of 0x00 ‖ its data).
    public func append(_ leaf: TreeHash) throws {
        let index = frontier.size
        let count = 32 * (1 + (~index).trailingZeroBitCount)
        let slot = try index.withBigEndianBytes { key in
            try tree.transaction.reserve(tree.database, key, count: count, flags: [.append])
        }
        var offset = 0
        frontier.append(leaf) { hash in
            hash.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: slot[offset..<offset + 32]).copyMemory(from: $0) }
            offset += 32
        }
    }

    /// Appends the leaves of the log's events from the tree's size through `head`, reading their canonical
    /// forms from the log: a store made before the tree existed, or a `rebuild`.
    public func catchUp(with reader: LogReader, through head: UInt64) throws {
        var canonical = CanonicalBuffer()
        guard frontier.size < head else { return }
        try reader.forEachRecord(from: frontier.size + 1, through: head) { seq, bytes in
            guard seq == frontier.size + 1 else { throw StoreError("event \(frontier.size + 1) is missing from the log") }
            try reader.decodingErrors(seq: seq) { () throws(FieldError) in
                try StoredEvent.canonical(bytes, seq: seq, withHash: false, into: &canonical)
            }
            try append(TreeHash.leaf(canonical.bytes))
            return true
        }
        guard frontier.size == head else { throw StoreError("event \(frontier.size + 1) is missing from the log") }
    }
}
