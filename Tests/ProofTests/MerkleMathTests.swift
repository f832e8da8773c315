import Foundation
import Proofs
import Testing

@Suite("RFC 6962 tree hashing")
struct MerkleMathTests {
    /// The eight leaves of RFC 6962's example tree (certificate-transparency's published test vectors).
    static let rfcLeaves: [[UInt8]] = [
        [], [0x00], [0x10], [0x20, 0x21], [0x30, 0x31], [0x40, 0x41, 0x42, 0x43],
        [0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57],
        [0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f],
    ]

    @Test func emptyTreeIsTheHashOfNothing() throws {
        #expect(TreeHash.empty.hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try MerkleMath.root(size: 0, MemoryTree()) == .empty)
        #expect(TreeFrontier().root == .empty)
    }

    @Test func rfcExampleTreeHasThePublishedRoots() throws {
        let tree = MemoryTree(leaves: Self.rfcLeaves)
        #expect(try MerkleMath.root(size: 8, tree).hex == "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328")
        // The other published roots of the same vectors, sizes 1 to 7.
        let published = [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        ]
        for (i, root) in published.enumerated() {
            #expect(try MerkleMath.root(size: UInt64(i + 1), tree).hex == root, "size \(i + 1)")
        }
        #expect(tree.frontier.root.hex == "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328")
    }

    @Test func rfcExampleTreeProofs() throws {
        let tree = MemoryTree(leaves: Self.rfcLeaves)
        // Published audit paths: leaf 0 in the tree of 8, leaf 5 in 8, leaf 2 in 3.
        #expect(try MerkleMath.inclusionPath(index: 0, size: 8, tree).map(\.hex) == [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ])
        #expect(try MerkleMath.inclusionPath(index: 5, size: 8, tree).map(\.hex) == [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ])
        #expect(try MerkleMath.inclusionPath(index: 2, size: 3, tree).map(\.hex) == [
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        ])
        // Published consistency proofs: 1 → 8, 6 → 8, 2 → 5.
        #expect(try MerkleMath.consistencyProof(old: 1, size: 8, tree).map(\.hex) == [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ])
        #expect(try MerkleMath.consistencyProof(old: 6, size: 8, tree).map(\.hex) == [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ])
        #expect(try MerkleMath.consistencyProof(old: 2, size: 5, tree).map(\.hex) == [
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ])
        #expect(try MerkleMath.consistencyProof(old: 0, size: 8, tree).isEmpty)
        #expect(try MerkleMath.consistencyProof(old: 8, size: 8, tree).isEmpty)
    }

    /// Every root, audit path and consistency proof of every size from 0 to 260 (past 256) against
    /// scripts/merkle_oracle.py, written from the RFC's definitions alone.
    @Test func everySizeLeafAndOldSizeMatchesTheOracle() throws {
        let top = 260
        let oracle = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Paths.file("scripts/merkle_oracle.py").path, "\(top)"])
        #expect(oracle.exit == 0, "\(oracle.stderr)")
        let tree = MemoryTree(leaves: (0..<top).map(oracleLeaf))
        var lines = 0, mismatches: [String] = []
        for line in oracle.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            let n = UInt64(parts[1]) ?? 0
            let expected: String, got: String
            switch parts[0] {
            case "root":
                expected = String(parts[2])
                got = try MerkleMath.root(size: n, tree).hex
            case "path":
                expected = String(parts[3])
                got = try MerkleMath.inclusionPath(index: UInt64(parts[2]) ?? 0, size: n, tree).map(\.hex).joined(separator: ",")
            default:
                expected = String(parts[3])
                got = try MerkleMath.consistencyProof(old: UInt64(parts[2]) ?? 0, size: n, tree).map(\.hex).joined(separator: ",")
            }
            if got != expected && mismatches.count < 5 { mismatches.append("\(line) — got \(got)") }
            lines += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // A root per size, a path per leaf of each size, a proof per old size strictly between 0 and the size.
        #expect(lines == (top + 1) + top * (top + 1) / 2 + (top - 1) * top / 2)
    }

    @Test func frontierRootIsTheTreeRootAtEverySize() throws {
        var tree = MemoryTree()
        for i in 0..<300 {
            #expect(tree.frontier.root == (try MerkleMath.root(size: UInt64(i), tree)))
            tree.append(TreeHash.leaf(oracleLeaf(i)))
        }
    }
}
