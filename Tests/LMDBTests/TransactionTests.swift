import Foundation
import LMDB
import Testing

struct TransactionTests {
    @Test func putGetDeleteRoundTrip() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try environment.openDatabase("items", flags: .create)
            try environment.write { txn throws in
                try txn.put(db, Array("alpha".utf8), [1, 2, 3])
                try txn.put(db, Array("beta".utf8), [])
            }
            try environment.read { txn throws in
                #expect(try txn.get(db, Array("alpha".utf8))?.bytes == [1, 2, 3])
                #expect(try txn.get(db, Array("beta".utf8))?.bytes == [])
                #expect(try txn.get(db, Array("gamma".utf8)) == nil)
            }
            try environment.write { txn throws in
                #expect(try txn.delete(db, Array("alpha".utf8)))
                #expect(try !txn.delete(db, Array("alpha".utf8)))
            }
            try environment.read { txn throws in
                #expect(try txn.get(db, Array("alpha".utf8)) == nil)
                #expect(try txn.count(db) == 1)
            }
        }
    }

    /// Releasing the pages read, with none read since the last release, does nothing (a rebuild of a long
    /// run of scans releases on a schedule, whether its transaction read or not).
    @Test func releasingReadPagesWithNoneReadDoesNothing() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try environment.openDatabase("items", flags: .create)
            try environment.write { txn throws in try txn.put(db, Array("alpha".utf8), [1, 2, 3]) }
            try environment.read { txn throws in
                txn.releaseReadPages()
                #expect(try txn.get(db, Array("alpha".utf8))?.bytes == [1, 2, 3])
                txn.releaseReadPages()
                txn.releaseReadPages()
                #expect(try txn.get(db, Array("alpha".utf8))?.bytes == [1, 2, 3])
            }
        }
    }

    @Test func noOverwriteThrowsKeyExists() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try environment.openDatabase(nil)
            try environment.write { txn throws in
                try txn.put(db, [1], [1])
                var caught = false
                do {
                    try txn.put(db, [1], [2], flags: .noOverwrite)
                } catch LMDBError.keyExists {
                    caught = true
                }
                #expect(caught)
            }
            // Also through the untyped `throws` of `write`.
            var caught = false
            do {
                try environment.write { txn in try txn.put(db, [1], [3], flags: .noOverwrite) }
            } catch LMDBError.keyExists {
                caught = true
            }
            #expect(caught)
            #expect(try environment.read { try $0.get(db, [1])?.bytes } == [1])
            #expect(LMDBError.keyExists.description.contains("MDB_KEYEXIST"))
        }
    }

    @Test func throwingBodyAborts() throws {
        struct Failure: Error {}
        try withTemporaryEnvironment { environment, _ in
            let db = try environment.openDatabase(nil)
            #expect(throws: Failure.self) {
                try environment.write { txn throws in
                    try txn.put(db, [7], [7])
                    throw Failure()
                }
            }
            #expect(try environment.read { try $0.get(db, [7]) } == nil)
        }
    }

    @Test func dropEmptiesAndCountCounts() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try environment.openDatabase("numbers", flags: .create)
            try environment.write { txn throws in
                for i in 0..<100 as Range<UInt32> {
                    try i.withBigEndianBytes { key in try txn.put(db, key, key) }
                }
                #expect(try txn.count(db) == 100)
            }
            #expect(try environment.read { try $0.count(db) } == 100)
            try environment.write { try $0.drop(db) }
            #expect(try environment.read { try $0.count(db) } == 0)
            // The handle survives the drop.
            try environment.write { try $0.put(db, [1], [1]) }
            #expect(try environment.read { try $0.count(db) } == 1)
        }
    }

    @Test func reserveLetsTheCallerFillTheValue() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try environment.openDatabase(nil)
            try environment.write { txn throws in
                try [UInt8]([9]).withUnsafeBytes { key in
                    let space = try txn.reserve(db, key, count: 4)
                    space.copyBytes(from: [4, 3, 2, 1])
                }
            }
            #expect(try environment.read { try $0.get(db, [9])?.bytes } == [4, 3, 2, 1])
        }
    }

    @Test func missingDatabaseWithoutCreateIsNotFound() throws {
        try withTemporaryEnvironment { environment, _ in
            #expect(throws: LMDBError.notFound) {
                try environment.openDatabase("absent")
            }
            _ = try environment.openDatabase("present", flags: .create)
            _ = try environment.openDatabase("present")
        }
    }

    @Test func transactionUsedAfterItsScopeThrows() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try environment.openDatabase(nil)
            let escaped = try environment.read { $0 }
            #expect(throws: LMDBError.badTransaction) { try escaped.get(db, [1]) }
        }
    }
}
