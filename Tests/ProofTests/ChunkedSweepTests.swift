import Domain
import Engine
@testable import EventLog
import Foundation
import LMDB
@testable import Proofs
import Testing

/// `log verify` sweeps the log in chunks that any thread takes (`Sweep`), puts them together (`SweepTotal`)
/// and compares the id index with the events as a whole (`IdIndexFingerprint`): with chunks of 1 to 16
/// events, a small log has nodes above its chunks, and every check must still find its damage.
@Suite("Chunked sweep of log verify", .serialized)
struct ChunkedSweepTests {
    static let events = 70

    /// A store of the demo's first 70 events, opened in this process.
    private func withStore(_ body: (StoreFixture, Store) throws -> Void) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.importLines(Array(try StoreFixture.demoLines().prefix(Self.events))).exit == 0)
        try body(fixture, try Store(directory: fixture.store))
    }

    /// Every chunk of the log swept in order in one transaction, put together.
    private func total(_ store: Store, level: Int, rootAt size: UInt64?, key: IdIndexFingerprint.Key,
                       chain: Bool = true) throws -> SweepTotal {
        try store.log.read { reader in
            let head = try reader.head().seq
            let tree = store.proofs.tree(reader.transaction)
            let chunks = (head + (UInt64(1) << UInt64(level)) - 1) >> UInt64(level)
            let sweeps = try (0..<chunks).reversed().map { chunk in
                try Sweep.run(reader, tree: tree, chunk: chunk, level: level, head: head, rootAt: size, chain: chain,
                              ids: chain ? key : nil)
            }
            return SweepTotal(sweeps, rootAt: size)
        }
    }

    @Test func theRootAtEverySizeIsTheStoredTreesWhateverTheChunks() throws {
        try withStore { _, store in
            let key = IdIndexFingerprint.Key()
            let index = try store.log.read { try $0.idIndexFingerprint(key) }
            for level in 0...4 {
                for size in 0...UInt64(Self.events) {
                    let total = try total(store, level: level, rootAt: size, key: key)
                    let stored = try store.log.read { reader in try MerkleMath.root(size: size, store.proofs.tree(reader.transaction)) }
                    #expect(total.rootAt == stored, "chunks of 2^\(level), size \(size)")
                    #expect(total.firstBadSeq == nil && !total.chainBroken)
                    #expect(total.ids == index && total.ids.count == Self.events)
                    // The tree alone (`rebuild`'s check), its leaves made two at a time: chunks of an odd
                    // number of events (1, and the last of 70) leave one to be made alone.
                    let tree = try self.total(store, level: level, rootAt: size, key: key, chain: false)
                    #expect(tree.rootAt == stored && tree.firstBadSeq == nil && !tree.chainBroken, "the tree alone, chunks of 2^\(level), size \(size)")
                }
            }
        }
    }

    /// Flips one byte of the stored node of `level` in the record of leaf `leaf`.
    private func flipNode(_ store: Store, leaf: UInt64, level: Int) throws {
        try store.log.environment.write { txn in
            let key = leaf.bigEndianBytes
            var value = Array(try #require(try txn.get(store.proofs.treeDatabase, key)))
            value[32 * level + 5] ^= 0x01
            try txn.put(store.proofs.treeDatabase, key, value)
        }
    }

    @Test(arguments: [(leaf: UInt64(63), level: 5), (leaf: 63, level: 2), (leaf: 43, level: 1), (leaf: 31, level: 4), (leaf: 7, level: 3)])
    func aDamagedNodeIsFoundInsideOrAboveTheChunks(damage: (leaf: UInt64, level: Int)) throws {
        try withStore { _, store in
            try flipNode(store, leaf: damage.leaf, level: damage.level)
            let seq = damage.leaf + 1
            for level in [0, 2, 3, Sweep.chunkLevel] {
                let outcome = try CheckpointCheck.verify(store.log, proofs: store.proofs, digest: nil, chunkLevel: level)
                #expect(outcome == .broken(firstBadSeq: seq, reason: "the stored Merkle tree disagrees with event \(seq)"),
                        "chunks of 2^\(level)")
                // The tree alone finds the same leaf, whichever of a pair it is.
                let tree = try total(store, level: level, rootAt: nil, key: IdIndexFingerprint.Key(), chain: false)
                #expect(tree.firstBadSeq == seq && !tree.chainBroken, "the tree alone, chunks of 2^\(level)")
            }
        }
    }

    @Test func aLogWhoseChunksAllHoldIsOkWhateverTheChunks() throws {
        try withStore { _, store in
            for level in [0, 1, 4, 6, 7, Sweep.chunkLevel] {
                let outcome = try CheckpointCheck.verify(store.log, proofs: store.proofs, digest: nil, chunkLevel: level)
                guard case .ok(let events, _) = outcome else {
                    Issue.record("chunks of 2^\(level): \(outcome)")
                    continue
                }
                #expect(events == UInt64(Self.events))
            }
        }
    }

    /// `log verify`'s page audit runs as the sweep's first job: once, whatever the chunks, in a read
    /// transaction of its own, and the sweep's answer is the same.
    @Test func theWorkBesideTheSweepRunsOnce() throws {
        try withStore { _, store in
            for level in [0, 3, Sweep.chunkLevel] {
                let seen = BesideRuns()
                let outcome = try CheckpointCheck.verify(store.log, proofs: store.proofs, digest: nil, chunkLevel: level) {
                    // A read transaction of its own, as the page audit opens.
                    seen.add(try? store.log.read { try $0.head().seq })
                }
                guard case .ok(let events, _) = outcome else {
                    Issue.record("chunks of 2^\(level): \(outcome)")
                    continue
                }
                #expect(events == UInt64(Self.events))
                #expect(seen.heads == [UInt64(Self.events)], "chunks of 2^\(level)")
            }
        }
    }

    /// Two ids that lead to each other's events: the index holds as many entries as the log has events, each
    /// id once, so only comparing the entries themselves finds it.
    @Test func anIndexWhoseIdsLeadToEachOthersEventsIsFound() throws {
        try withStore { _, store in
            func id(_ seq: UInt64) throws -> [UInt8] {
                try store.log.read { reader in
                    let record = try #require(try reader.transaction.get(store.log.events, seq.bigEndianBytes))
                    return Array(try #require(StoredEvent.id(in: record)))
                }
            }
            let first = try id(10), second = try id(50)
            try store.log.environment.write { txn in
                try txn.put(store.log.ids, first, UInt64(50).bigEndianBytes)
                try txn.put(store.log.ids, second, UInt64(10).bigEndianBytes)
            }
            for level in [2, Sweep.chunkLevel] {
                let outcome = try CheckpointCheck.verify(store.log, proofs: store.proofs, digest: nil, chunkLevel: level)
                #expect(outcome == .broken(firstBadSeq: 10, reason: "the id index does not lead to this event by its id"))
            }
        }
    }

    /// Whether `rebuild`'s check finds the stored tree to be the log's (`ProofStore.treeMatches`), in chunks
    /// of 2^`level` leaves.
    private func treeMatches(_ store: Store, level: Int) throws -> Bool {
        try store.log.read { reader in try store.proofs.treeMatches(reader, through: try reader.head().seq, chunkLevel: level) }
    }

    /// Chunk sizes for `rebuild`'s check: with the checkpoint at 70 events, chunks of up to 64 leaves are
    /// checked from their stored leaves (at 64, the first only), chunks of 128 and more from the events.
    private static let treeCheckLevels = [0, 1, 2, 3, 6, 7, Sweep.chunkLevel]

    /// `rebuild`'s check of the tree reads the leaves that the signed checkpoint covers from the stored
    /// tree and proves them by the signed root: a damaged node is found at any level, a leaf included, whatever
    /// the chunks; and without the checkpoint, from the events.
    @Test(arguments: [(leaf: UInt64(63), level: 5), (leaf: 63, level: 2), (leaf: 43, level: 1), (leaf: 31, level: 4),
                      (leaf: 7, level: 3), (leaf: 5, level: 0), (leaf: 68, level: 0), (leaf: 69, level: 1)])
    func theTreeCheckFindsADamagedNodeTheSignedRootCovers(damage: (leaf: UInt64, level: Int)) throws {
        try withStore { fixture, store in
            for level in Self.treeCheckLevels { #expect(try treeMatches(store, level: level), "chunks of 2^\(level)") }
            try flipNode(store, leaf: damage.leaf, level: damage.level)
            for level in Self.treeCheckLevels { #expect(try !treeMatches(store, level: level), "chunks of 2^\(level)") }
            try FileManager.default.removeItem(atPath: fixture.store + "/checkpoint")
            for level in Self.treeCheckLevels { #expect(try !treeMatches(store, level: level), "no checkpoint, chunks of 2^\(level)") }
        }
    }

    /// The last leaf of a log of 71 events has no parent stored: only the root at the checkpoint's size, the
    /// signed one, covers it.
    @Test func aLeafWithoutAParentIsProvedByTheSignedRoot() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.importLines(Array(try StoreFixture.demoLines().prefix(71))).exit == 0)
        let store = try Store(directory: fixture.store)
        for level in Self.treeCheckLevels { #expect(try treeMatches(store, level: level), "chunks of 2^\(level)") }
        try flipNode(store, leaf: 70, level: 0)
        for level in Self.treeCheckLevels { #expect(try !treeMatches(store, level: level), "chunks of 2^\(level)") }
    }

    /// The tree of another log of as many events (one event's id is another), sound in itself, put in the
    /// store's place: each node is what the leaves below it give, but the root is not the signed one.
    @Test func aTreeOfAnotherLogIsNotTheLogs() throws {
        try withStore { _, store in
            let other = try StoreFixture()
            defer { other.remove() }
            var lines = Array(try StoreFixture.demoLines().prefix(Self.events))
            lines[40] = Substring(lines[40].replacingOccurrences(of: "\"id\":\"demo-", with: "\"id\":\"other-"))
            #expect(try other.importLines(lines).exit == 0)
            let otherStore = try Store(directory: other.store)
            let records = try otherStore.log.read { reader in
                var records: [([UInt8], [UInt8])] = []
                let cursor = try reader.transaction.cursor(otherStore.proofs.treeDatabase)
                var entry = try cursor.first()
                while let (key, value) = entry {
                    records.append((Array(key), Array(value)))
                    entry = try cursor.next()
                }
                return records
            }
            #expect(records.count == Self.events)
            try store.log.environment.write { txn in
                for (key, value) in records { try txn.put(store.proofs.treeDatabase, key, value) }
            }
            for level in Self.treeCheckLevels { #expect(try !treeMatches(store, level: level), "chunks of 2^\(level)") }
        }
    }

    /// An event damaged after the checkpoint that covers it was signed leaves the signed tree kept where its
    /// chunk's leaves are the stored ones: the tree proves the events that were signed, and `log verify`
    /// names the event. Past the checkpoint's size, and in a chunk that runs past it, leaves are made from the
    /// events, and the same damage is found.
    @Test func anEventDamagedAfterItWasSignedLeavesTheSignedTree() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = Array(try StoreFixture.demoLines().prefix(Self.events))
        #expect(try fixture.importLines(Array(lines.prefix(60))).exit == 0)
        let signedAt60 = try Data(contentsOf: URL(fileURLWithPath: fixture.store + "/checkpoint"))
        #expect(try fixture.importLines(Array(lines.suffix(10))).exit == 0)
        try signedAt60.write(to: URL(fileURLWithPath: fixture.store + "/checkpoint"))
        let store = try Store(directory: fixture.store)
        for level in Self.treeCheckLevels { #expect(try treeMatches(store, level: level), "chunks of 2^\(level)") }
        /// Flips the last byte of the stored record of event `seq`.
        func damage(_ seq: UInt64) throws {
            try store.log.environment.write { txn in
                var value = Array(try #require(try txn.get(store.log.events, seq.bigEndianBytes)))
                value[value.count - 1] ^= 0x01
                try txn.put(store.log.events, seq.bigEndianBytes, value)
            }
        }
        try damage(10)
        // Chunks of up to 32 leaves hold event 10 inside the checkpoint's 60; chunks of 64 run past it.
        for level in [0, 1, 2, 3, 5] { #expect(try treeMatches(store, level: level), "chunks of 2^\(level)") }
        for level in [6, 7, Sweep.chunkLevel] { #expect(try !treeMatches(store, level: level), "chunks of 2^\(level)") }
        let verified = try CheckpointCheck.verify(store.log, proofs: store.proofs, digest: nil, chunkLevel: 2)
        guard case .broken(let seq, _) = verified else {
            Issue.record("log verify: \(verified)")
            return
        }
        #expect(seq == 10)
        try damage(10)
        try damage(65)
        for level in Self.treeCheckLevels { #expect(try !treeMatches(store, level: level), "chunks of 2^\(level)") }
    }

    @Test func theFingerprintIsOfTheEntriesNotTheirOrder() {
        let key = IdIndexFingerprint.Key()
        let entries: [(String, UInt64)] = (1...200).map { ("id-\($0 * 7919 % 1000)", UInt64($0)) }
        func fingerprint(_ entries: [(String, UInt64)]) -> IdIndexFingerprint {
            var f = IdIndexFingerprint()
            for (id, seq) in entries { Array(id.utf8).withUnsafeBytes { f.add(id: $0, seq: seq, key: key) } }
            return f
        }
        let whole = fingerprint(entries)
        #expect(fingerprint(entries.reversed()) == whole)
        var halves = fingerprint(Array(entries.prefix(77)))
        halves.merge(fingerprint(Array(entries.dropFirst(77))))
        #expect(halves == whole)
        // One seq, one byte of an id, one entry twice and another missing, an id one byte longer.
        var changed = entries
        changed[3].1 += 1
        #expect(fingerprint(changed) != whole)
        changed = entries
        changed[150].0 = "iD" + changed[150].0.dropFirst(2)
        #expect(fingerprint(changed) != whole)
        changed = entries
        changed[20] = changed[21]
        #expect(fingerprint(changed) != whole && fingerprint(changed).count == whole.count)
        changed = entries
        changed[0].0 += "\0"
        #expect(fingerprint(changed) != whole)
        // A value of the index that is not 8 bytes.
        var short = IdIndexFingerprint()
        Array("id-1".utf8).withUnsafeBytes { id in [UInt8](repeating: 0, count: 7).withUnsafeBytes { short.add(id: id, seqBytes: $0, key: key) } }
        var eight = IdIndexFingerprint()
        Array("id-1".utf8).withUnsafeBytes { eight.add(id: $0, seq: 0, key: key) }
        #expect(short != eight)
    }
}

/// What the work beside a sweep saw, each time it ran.
private final class BesideRuns: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var heads: [UInt64?] = []

    func add(_ head: UInt64?) {
        lock.lock()
        heads.append(head)
        lock.unlock()
    }
}
