import Crypto
import Domain
import EventLog
import LMDB

/// One chunk of the log swept by `CheckpointCheck`: the leaves `2^level · c` up to the next multiple
/// (or the head), each event's canonical form made once, for its chain link (checked against the stored chain
/// value) and its leaf hash (with the nodes it completes, checked against the stored tree's record).
///
/// A chunk starts at a multiple of its size, a power of two, so every node of the tree below the chunk's own
/// root lies in one chunk and is checked there; the nodes above (kept in the record of a chunk's last leaf)
/// join chunks' roots, and `SweepTotal` checks them once every chunk is done. Chunks are independent, so any
/// number of threads can take them in any order.
struct Sweep: Sendable {
    /// log2 of the leaves of a chunk: 32,768 events (about 12 MB of log), small enough that two threads that
    /// take chunks as they finish end together, large enough that a chunk's start (two lookups) is nothing.
    /// Tests give smaller ones, so that small logs have nodes above their chunks.
    static let chunkLevel = 15

    /// The chunk's number.
    var chunk: UInt64
    /// log2 of its leaves when whole.
    var level: Int
    var leaves: UInt64 { UInt64(1) << UInt64(level) }
    /// The chunk's leaves as they end: one root when the chunk is whole, the frontier of a partial last one.
    var frontier = TreeFrontier()
    /// The frontier of the chunk's leaves up to the checkpoint's size, when the size ends inside the chunk.
    var frontierAt: TreeFrontier?
    /// The first leaf (its seq) whose stored record is not what its event gives.
    var firstBadSeq: UInt64?
    /// The stored nodes above the chunk's root, in its last leaf's record, bottom-up: `SweepTotal` checks them.
    var above: [TreeHash] = []
    /// Whether the chain did not hold (a gap, a damaged record, a wrong link, time running backwards):
    /// `LogVerifier` then says where and why.
    var chainBroken = false
    /// The (id, seq) of the chunk's events, to compare with the id index's (`IdIndexFingerprint`).
    var ids = IdIndexFingerprint()

    /// Sweeps chunk `chunk` of a log of `head` events; `size` is the checkpoint's. Without `chain`, the chain
    /// links and the ids are not checked (the tree alone is). With `storedLeaves` (the tree alone, in a chunk
    /// that a signed checkpoint covers whole: `ProofStore.treeMatches`), the leaves are the stored ones, not
    /// made from the events: every node above them is made again and compared, and the root at the
    /// checkpoint's size, compared with the signed one, proves the leaves.
    static func run(_ reader: LogReader, tree: StoredTree, chunk: UInt64, level: Int = chunkLevel, head: UInt64,
                    rootAt size: UInt64?, chain: Bool = true, storedLeaves: Bool = false,
                    ids key: IdIndexFingerprint.Key? = nil) throws -> Sweep {
        var sweep = Sweep(chunk: chunk, level: level)
        let start = chunk << UInt64(level)
        let end = min(start + sweep.leaves, head)
        guard start < end else { return sweep }
        let cursor = try reader.transaction.cursor(tree.database)
        var record = try start.withBigEndianBytes { key in try cursor.seek(atLeast: key) }
        // Checks leaf `seq`'s hash against its stored record, and appends it to the chunk's frontier.
        func place(_ leaf: TreeHash, seq: UInt64) throws {
            guard sweep.firstBadSeq == nil else { return }
            let index = seq - 1
            guard let entry = record, UInt64(bigEndianBytes: entry.key) == index else {
                sweep.firstBadSeq = seq
                return
            }
            let expected = 32 * (1 + (~index).trailingZeroBitCount)
            var offset = 0, same = entry.value.count == expected
            sweep.frontier.append(leaf) { hash in
                if same { same = TreeHash(entry.value, at: offset) == hash }
                offset += 32
            }
            // The last leaf of a whole chunk keeps the nodes above the chunk's root too.
            if same && offset < expected && seq == start + sweep.leaves {
                while offset < expected {
                    sweep.above.append(TreeHash(entry.value, at: offset))
                    offset += 32
                }
            }
            if !same || offset != expected { sweep.firstBadSeq = seq }
            if seq == size { sweep.frontierAt = sweep.frontier }
            record = try cursor.next()
        }
        if storedLeaves {
            for seq in start + 1...end {
                guard let entry = record, entry.value.count >= 32 else {
                    sweep.firstBadSeq = seq
                    break
                }
                try place(TreeHash(entry.value, at: 0), seq: seq)
                if sweep.firstBadSeq != nil { break }
            }
            reader.transaction.releaseReadPages()
            return sweep
        }
        // The chain value before the chunk, then each event's stored one once its link is checked: a link
        // that holds makes the stored value the chain's, read in place.
        let before = start > 0 ? try reader.storedHash(at: start) : HashChain.genesis
        guard let before else { return Sweep(chunk: chunk, level: level, chainBroken: true) }
        var lastAt = start > 0 ? try reader.storedAt(at: start) : nil
        var canonical = CanonicalBuffer()
        // Without the chain, leaves are made two at a time (`TreeHash.leaves`): an event's canonical form
        // waits in `held` for the next one's.
        var held = CanonicalBuffer()
        var heldSeq: UInt64?
        var expectedSeq = start + 1
        try before.withUnsafeBytes { before in
        var previous = before
        try reader.forEachRecord(from: start + 1, through: end) { seq, bytes in
            let holding = !chain && heldSeq == nil
            guard seq == expectedSeq, let stored = StoredEvent.hash(in: bytes),
                  (try? holding ? StoredEvent.canonical(bytes, seq: seq, withHash: false, into: &held)
                       : StoredEvent.canonical(bytes, seq: seq, withHash: false, into: &canonical)) != nil
            else {
                sweep.chainBroken = true
                return false
            }
            expectedSeq += 1
            if holding {
                heldSeq = seq
                return true
            }
            if let first = heldSeq {
                let (leafA, leafB) = TreeHash.leaves(held.bytes, canonical.bytes)
                heldSeq = nil
                try place(leafA, seq: first)
                try place(leafB, seq: seq)
                return true
            }
            // With the chain, the leaf is made beside the link (`HashChain.linkAndLeaf`).
            let at = StoredEvent.at(in: bytes)
            let backwards = lastAt.map { last in at.map { $0 < last } ?? false } ?? false
            guard let leaf = TreeHash.leaf(canonical.bytes, linking: previous, to: stored), !backwards,
                  let id = StoredEvent.id(in: bytes)
            else {
                sweep.chainBroken = true
                return false
            }
            if let key { sweep.ids.add(id: id, seq: seq, key: key) }
            previous = stored
            lastAt = at
            try place(leaf, seq: seq)
            return true
        }
        }
        if let last = heldSeq { try place(TreeHash.leaf(held.bytes), seq: last) }
        if expectedSeq != end + 1 { sweep.chainBroken = true }
        // A chunk is shorter than the log's read between releases (`PageRelease.logRecords`).
        reader.transaction.releaseReadPages()
        return sweep
    }
}

/// The chunks of one sweep put together, in order: the nodes above the chunks' roots checked against the
/// stored ones, the first bad leaf, and the root at the checkpoint's size.
struct SweepTotal {
    var firstBadSeq: UInt64?
    var chainBroken = false
    var rootAt: TreeHash?
    var ids = IdIndexFingerprint()

    /// `sweeps` are every chunk of the log, in any order; `size` is the checkpoint's.
    init(_ sweeps: [Sweep], rootAt size: UInt64?) {
        guard let level = sweeps.first?.level else {
            rootAt = size == 0 ? .empty : nil
            return
        }
        let leaves = UInt64(1) << UInt64(level)
        if size == 0 { rootAt = .empty }
        // The tree whose leaves are the whole chunks' roots: appending one completes the nodes above it.
        var chunks = TreeFrontier()
        for sweep in sweeps.sorted(by: { $0.chunk < $1.chunk }) {
            chainBroken = chainBroken || sweep.chainBroken
            ids.merge(sweep.ids)
            if firstBadSeq == nil { firstBadSeq = sweep.firstBadSeq }
            guard firstBadSeq == nil, !chainBroken else { continue }
            let start = sweep.chunk << UInt64(level)
            let whole = sweep.frontier.size == leaves
            if let at = sweep.frontierAt, let size, !(whole && size == start + leaves) {
                rootAt = TreeFrontier(size: size, hashes: chunks.hashes + at.hashes).root
            }
            // The partial last chunk: nothing above it is stored.
            guard whole else { continue }
            var above = sweep.above.makeIterator()
            var same = true, first = true
            chunks.append(sweep.frontier.hashes[0]) { hash in
                // The first is the chunk's root, checked in the chunk.
                if first { first = false } else if same { same = above.next() == hash }
            }
            if !same || above.next() != nil { firstBadSeq = start + leaves }
            if let size, size == start + leaves { rootAt = chunks.root }
        }
    }
}
