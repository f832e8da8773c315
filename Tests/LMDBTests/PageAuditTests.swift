import Foundation
import LMDB
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
