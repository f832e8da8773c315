import Domain
import EventLog
import LMDB
import Proofs

/// The log as C2SP tlog-tiles (server.md §6): hash tiles read from the stored Merkle tree, entry bundles
/// from the log, so that a standard tlog client proves inclusion and consistency itself.
extension Store {
    /// The tiles' height: 256 hashes a tile (tlog-tiles fixes it at 8).
    public static let tileHeight = 8

    /// The hash tile at `level`, `index`, with `width` hashes (1–256): the hashes of the complete subtrees
    /// of `2^(8·level)` leaves numbered `index·256` to `index·256 + width − 1`, 32 bytes each. Nil when the
    /// log does not hold that many complete subtrees yet.
    public func hashTile(level: Int, index: UInt64, width: Int) throws -> [UInt8]? {
        try withProofs { _ in () }
        return try log.read { reader in
            let tree = proofs.tree(reader.transaction)
            let size = try tree.size()
            let treeLevel = level * Store.tileHeight
            guard treeLevel < 64 else { return nil }
            let available = size >> UInt64(treeLevel)
            let (first, overflow) = index.multipliedReportingOverflow(by: 256)
            guard !overflow, first <= available, UInt64(width) <= available - first else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32 * width)
            for i in 0..<UInt64(width) { bytes += try tree.node(level: treeLevel, index: first + i).bytes }
            return bytes
        }
    }

    /// The entry bundle `index` with `width` entries (1–256): the leaf data of events `index·256 + 1` to
    /// `index·256 + width` (their canonical form, proofs.md §1), each after its length as 2 bytes big-endian.
    /// Nil when the log does not hold them all.
    public func entryBundle(index: UInt64, width: Int) throws -> [UInt8]? {
        try log.read { reader in
            let (first, overflow) = index.multipliedReportingOverflow(by: 256)
            let head = try reader.head().seq
            guard !overflow, first <= head, UInt64(width) <= head - first else { return nil }
            var bytes: [UInt8] = []
            try reader.forEachRecord(from: first + 1, through: first + UInt64(width)) { seq, record in
                let data = try StoredEvent.canonical(record, seq: seq, withHash: false)
                guard data.count <= 0xFFFF else { throw StoreError("the event at seq \(seq) is too long for an entry bundle") }
                bytes += [UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
                return true
            }
            return bytes
        }
    }
}
