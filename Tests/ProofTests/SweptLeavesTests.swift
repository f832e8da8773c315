import Domain
import Engine
@testable import EventLog
import Foundation
@testable import LMDB
@testable import Proofs
import Testing

/// `log verify` audits the leaf pages of the log and of the Merkle tree in the sweep that reads them
/// (`SweptLeaves`), and the page audit the rest: on a sound store the two add up, with any chunks; a damaged
/// leaf page of either table makes them not add up, and verify then says what the whole audit says, word for word.
@Suite("The sweep's audit of the log's leaf pages", .serialized)
struct SweptLeavesTests {
    /// A store of the demo's 849 events (about 80 leaf pages of events and 15 of the tree, under branch pages).
    private func withStore(_ body: (StoreFixture, Store) throws -> Void) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.importLines(try StoreFixture.demoLines()).exit == 0)
        try body(fixture, try Store(directory: fixture.store))
    }

    /// Sweeps the log in chunks of 2^`level` with the leaves left to it, and says whether the audit completes.
    private func sweptAuditCompletes(_ store: Store, level: Int) throws -> Bool {
        let swept = SweptLeaves(tables: [EventLog.eventsTable, ProofStore.treeTable])
        let partial = try store.auditPages(leavingLeavesTo: swept)
        let outcome = try CheckpointCheck.verify(store.log, proofs: store.proofs, digest: nil, chunkLevel: level, leaves: swept)
        guard case .ok(_, _) = outcome else {
            Issue.record("chunks of 2^\(level): \(outcome)")
            return false
        }
        return partial?.complete(with: swept) == true
    }

    @Test func aSoundStoresLeavesAreAllAuditedBySweepsOfAnyChunks() throws {
        try withStore { _, store in
            #expect(try store.auditPages() == nil)
            for level in [0, 1, 3, 5, 8, Sweep.chunkLevel] {
                let completes = try sweptAuditCompletes(store, level: level)
                #expect(completes, "chunks of 2^\(level)")
            }
        }
    }

    /// The page that holds the record of `key` in `table`, and the page size.
    private func page(of key: UInt64, in table: Database, _ store: Store) throws -> (page: Int, size: Int) {
        try store.log.read { reader in
            let txn = reader.transaction
            let record = try #require(try txn.cursor(table).seek(atLeast: key.bigEndianBytes))
            let (map, pageSize, _) = try #require(txn.environment.mapping(try txn.live))
            return ((record.key.baseAddress! - map.baseAddress!) / pageSize, pageSize)
        }
    }

    /// XORs byte `offset` of page `page` of the store's data file with `mask`.
    private func flip(_ fixture: StoreFixture, page: Int, size: Int, offset: Int, mask: UInt8) throws {
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: fixture.store + "/data.mdb"))
        defer { try? file.close() }
        try file.seek(toOffset: UInt64(page * size + offset))
        let byte = try #require(try file.read(upToCount: 1)?.first)
        try file.seek(toOffset: UInt64(page * size + offset))
        try file.write(contentsOf: [byte ^ mask])
    }

    /// A leaf page of the events or the tree whose header carries another page number, or whose upper bound
    /// lies past its first node: LMDB reads its records as before, the sweep's audit does not complete, and
    /// `log verify` says what the whole audit says.
    @Test(arguments: [(table: "events", key: UInt64(400), offset: 0), ("events", 3, 14), ("tree", 600, 0), ("tree", 1, 14)])
    func aDamagedLeafPageIsFoundAndNamedAsTheWholeAuditNamesIt(damage: (table: String, key: UInt64, offset: Int)) throws {
        try withStore { fixture, store in
            let table = damage.table == "events" ? store.log.events : store.proofs.treeDatabase
            let (page, size) = try page(of: damage.key, in: table, store)
            // The lowest bit of the page number (offset 0) or of the upper bound (offset 14).
            try flip(fixture, page: page, size: size, offset: damage.offset, mask: 0x01)
            let whole = try #require(try store.auditPages())
            #expect(whole.damage.map(\.database) == [damage.table])
            #expect(whole.damage.first?.page == UInt64(page))
            for level in [2, Sweep.chunkLevel] {
                let completes = try sweptAuditCompletes(store, level: level)
                #expect(!completes, "chunks of 2^\(level)")
            }
            let run = try fixture.veritrail(["log", "verify"])
            #expect(run.exit == 74)
            #expect(run.stderr.contains(whole.description), "\(run.stderr)")
        }
    }
}
