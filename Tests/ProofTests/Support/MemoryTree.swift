import Proofs

/// The stored tree's layout kept in memory: record i holds leaf i's hash and the nodes it completes, as
/// `TreeFrontier.append` gives them; node (L, k) is hash L of record (k + 1) · 2^L − 1.
struct MemoryTree: NodeSource {
    var records: [[TreeHash]] = []
    var frontier = TreeFrontier()

    init(leaves: [[UInt8]] = []) {
        for leaf in leaves { append(TreeHash.leaf(leaf)) }
    }

    mutating func append(_ leaf: TreeHash) {
        var record: [TreeHash] = []
        frontier.append(leaf) { record.append($0) }
        records.append(record)
    }

    func node(level: Int, index: UInt64) throws -> TreeHash {
        records[Int(((index + 1) << UInt64(level)) - 1)][level]
    }
}

/// The leaves of the oracle (scripts/merkle_oracle.py): "leaf 0", "leaf 1", …
func oracleLeaf(_ i: Int) -> [UInt8] { Array("leaf \(i)".utf8) }
