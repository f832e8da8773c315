import Foundation
import LMDB
import TestSupport
import Testing

/// The page audit (`PageAudit`) on what LMDB itself writes: a store LMDB left sound must pass.
struct PageAuditTests {
    /// A large value rewritten smaller in the transaction that wrote it keeps its overflow pages (LMDB
    /// overwrites a dirty run in place), so a run may hold more pages than its value needs. LMDB's free list
    /// does so while a large commit saves it, and `log verify` called a sound ten-million-event store
    /// damaged ("points at damaged overflow pages", exit 74).
    @Test func aLargeValueRewrittenSmallerInItsTransactionPasses() throws {
        try withTemporaryEnvironment(mapSize: 4 << 20, flags: [.writeMap]) { environment, _ in
            let db = try environment.openDatabase("d", flags: [.create])
            let key = Array("key".utf8), smaller = [UInt8](repeating: 7, count: 9_000)
            try environment.write { txn throws in
                try txn.put(db, key, [UInt8](repeating: 1, count: 20_000))   // 5 overflow pages
                try txn.put(db, key, smaller)                               // 3 would do
            }
            try environment.read { txn throws in
                let value = try #require(try txn.get(db, key))
                #expect(value.bytes == smaller)
                // The run's header, before the value: its page count (`mp_pages`) is still 5.
                let header = UnsafeRawPointer(value.baseAddress!) - 16
                #expect(header.load(fromByteOffset: 12, as: UInt32.self) == 5)
                #expect(try PageAudit.run(txn).isEmpty)
            }
        }
    }
}

/// What a page audit leaves mapped while it walks a store larger than what it holds at a time, and after, in a
/// process that maps more than the audit's budget (`PageAudit.mappedBudget`: here, 176 MiB of shared memory
/// of the test's own, which the measure counts with files' pages). Figures are in what one fault maps here:
/// 64 KiB with fault-around, a whole folio (up to 2 MiB) where the page cache holds the file in large folios,
/// as it did for a ten-million-event `log verify` (290 MB mapped).
struct PageAuditMemoryTests {
    /// Pages read in key order, which lie in a few folios: the audit lets go of them every few pages, and
    /// leaves nothing of the store mapped once done. The keys it compares with after their pages are let go of
    /// are read from copies: read from the map, they were mapped again outside any release (the whole store
    /// stayed mapped), and a release that dropped part of a folio left the rest mapped.
    @Test func anAuditLetsGoOfWhatItReadAndLeavesNothingMapped() throws {
        let audit = try auditWithTheProcessOverBudget(key: { $0 })
        #expect(audit.most <= 5 * audit.oneFault + 20 * 65_536, "\(audit.most) bytes mapped at most, \(audit.oneFault) a fault")
        #expect(audit.after <= audit.oneFault, "\(audit.after) bytes mapped after the audit, \(audit.oneFault) a fault")
    }

    /// Pages read all over the store, each in a folio of its own: what the audit counts (64 KiB a page, 512
    /// pages between releases) would keep the whole store mapped where a fault maps a 2 MiB folio. Measured,
    /// the process's mapping is over budget, and the audit lets go by its 18th page since the last release
    /// (24 faults with the pages above them and the meta page).
    @Test func anAuditOverItsBudgetLetsGoEveryFewPagesWhateverAFaultMaps() throws {
        // An odd multiplier is a bijection of UInt64: every key once, in an order that scatters the leaves.
        let audit = try auditWithTheProcessOverBudget(key: { $0 &* 0x9E37_79B9_7F4A_7C15 })
        #expect(audit.most <= 24 * audit.oneFault, "\(audit.most) bytes mapped at most, \(audit.oneFault) a fault")
        #expect(audit.after <= audit.oneFault, "\(audit.after) bytes mapped after the audit, \(audit.oneFault) a fault")
    }

    /// Writes about 80 MB (40,000 records of 2,000 bytes, two to a leaf, and every 50th of 9,000: 3 overflow
    /// pages) under `key(i)`, maps 176 MiB of shared memory, and audits the store: the most of the store mapped
    /// while the audit checked its records, what one fault maps, and what stays mapped after.
    private func auditWithTheProcessOverBudget(key: (UInt64) -> UInt64) throws -> (most: Int, oneFault: Int, after: Int) {
        try withTemporaryEnvironment(mapSize: 128 << 20, flags: [.writeMap]) { environment, directory in
            let path = directory.appendingPathComponent("data.mdb").path
            let db = try environment.openDatabase("d", flags: [.create])
            try environment.write { txn throws in
                for i in 0..<UInt64(40_000) {
                    let value = [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: i % 50 == 0 ? 9_000 : 2_000)
                    try key(i).withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } }
                }
            }
            let pressure = 176 << 20
            let shared = try #require(mmap(nil, pressure, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0))
            #expect(shared != MAP_FAILED)
            defer { munmap(shared, pressure) }
            for offset in stride(from: 0, to: pressure, by: 4_096) { shared.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
            return try environment.read { txn throws in
                // What one fault maps: the most of eight values' first pages, each read once the map is dropped.
                // The page cache may hold the file in folios of several sizes: in one run of `make test`, the one
                // value measured then mapped 64 KiB, and the audit had 18 MB mapped, as larger folios would.
                var oneFault = 4_096
                for i in stride(from: UInt64(1_001), to: 40_000, by: 4_999) {
                    txn.releaseMappedPages()
                    let first = try #require(try key(i).withBigEndianBytes { try txn.get(db, $0) })[0]
                    #expect(first == UInt8(truncatingIfNeeded: i))
                    oneFault = max(oneFault, try MappedFile.residentBytes(of: path))
                }
                txn.releaseMappedPages()
                var most = 0, records = 0
                let damage = try PageAudit.run(txn) { name in
                    guard name == "d" else { return nil }
                    return { _, _ in
                        records += 1
                        if records % 200 == 0 { most = max(most, (try? MappedFile.residentBytes(of: path)) ?? .max) }
                        return nil
                    }
                }
                #expect(damage.isEmpty)
                #expect(records == 40_000)
                let after = try MappedFile.residentBytes(of: path)
                return (most, oneFault, after)
            }
        }
    }
}
