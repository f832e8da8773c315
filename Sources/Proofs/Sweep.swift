import Crypto
import Domain
import EventLog
import LMDB

/// One range of the log swept by `CheckpointCheck`: each event's canonical form made once, for its chain
/// link (checked against the stored chain value) and its leaf hash (with the nodes it completes, checked
/// against the stored tree's record).
struct Sweep: Sendable {
    var frontier = TreeFrontier()
    /// The root of the range's leaves up to the checkpoint's size, when the size falls in the range.
    var rootAt: TreeHash?
    /// The first leaf whose stored record is not what its event gives.
    var firstBadSeq: UInt64?
    /// A stored node above the range's own subtrees (see `CheckpointCheck`), checked by the caller.
    var deferredTop: TreeHash?
    /// Whether the chain did not hold (a gap, a damaged record, a wrong link, time running backwards):
    /// `LogVerifier` then says where and why.
    var chainBroken = false

    /// Sweeps the leaves `range` (indices: seqs range.lowerBound + 1 … range.upperBound); without `chain`,
    /// the chain links are not computed (the tree alone is checked).
    static func run(_ reader: LogReader, tree: StoredTree, _ range: Range<UInt64>, rootAt size: UInt64?,
                    chain: Bool = true) throws -> Sweep {
        var sweep = Sweep()
        if size == 0 && range.lowerBound == 0 { sweep.rootAt = .empty }
        var previous = HashChain.genesis
        var lastAt: Timestamp?
        if range.lowerBound > 0 {
            guard let hash = try reader.storedHash(at: range.lowerBound) else { return Sweep(chainBroken: true) }
            previous = hash
            lastAt = try reader.storedAt(at: range.lowerBound)
        }
        var canonical: [UInt8] = []
        canonical.reserveCapacity(2048)
        let cursor = try reader.transaction.cursor(tree.database)
        var record = try range.lowerBound.withBigEndianBytes { key in try cursor.seek(atLeast: key) }
        var expectedSeq = range.lowerBound + 1
        try reader.forEachRecord(from: range.lowerBound + 1, through: range.upperBound) { seq, bytes in
            guard seq == expectedSeq, (try? StoredEvent.canonical(bytes, seq: seq, withHash: false, into: &canonical)) != nil,
                  let stored = StoredEvent.hash(in: bytes)
            else {
                sweep.chainBroken = true
                return false
            }
            if chain {
                let link = HashChain.next(after: previous, canonical: canonical)
                let at = StoredEvent.at(in: bytes)
                let backwards = lastAt.map { last in at.map { $0 < last } ?? false } ?? false
                // The id index must lead back to the event (LogVerifier says which way it does not).
                let indexed = try StoredEvent.id(in: bytes).map { try reader.seq(forIdBytes: $0) }
                guard link.elementsEqual(stored), !backwards, indexed == seq else {
                    sweep.chainBroken = true
                    return false
                }
                previous = link
                lastAt = at
            }
            expectedSeq += 1
            guard sweep.firstBadSeq == nil else { return true }
            let index = seq - 1
            guard let entry = record, UInt64(bigEndianBytes: entry.key) == index else {
                sweep.firstBadSeq = seq
                return true
            }
            let expected = 32 * (1 + (~index).trailingZeroBitCount)
            var offset = 0, same = entry.value.count == expected
            sweep.frontier.append(TreeHash.leaf(canonical)) { hash in
                if same { same = TreeHash(entry.value, at: offset) == hash }
                offset += 32
            }
            if same && offset < expected {
                sweep.deferredTop = TreeHash(entry.value, at: offset)
                offset += 32
            }
            if !same || offset != expected { sweep.firstBadSeq = seq }
            if seq == size { sweep.rootAt = sweep.frontier.root }
            record = try cursor.next()
            return true
        }
        if expectedSeq != range.upperBound + 1 { sweep.chainBroken = true }
        return sweep
    }
}
