import Foundation
import LMDB
import Testing

/// A data file another program cuts shorter while a transaction runs: the first access past the new end faulted
/// (SIGBUS) and ended the process, a server with every request it was answering. Now the transaction fails with
/// `MapPageLost`, having kept nothing, as does every later one of the environment, and the process goes on.
@Suite struct MapPageLostTests {
    /// 8,000 bytes: each value on overflow pages of its own, so that values lie all along the file.
    static let value = [UInt8](repeating: 7, count: 8000)

    /// A new environment in a temporary directory holding `count` values, with room for as many again; the
    /// directory and the data file's path.
    func store(count: Int) throws -> (directory: URL, data: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MapPageLostTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let environment = try Environment(path: directory.path, mapSize: 32 << 20, flags: [.writeMap])
        let db = try environment.openDatabase("d", flags: [.create])
        try environment.write { txn in
            for i in 0..<count { try txn.put(db, Array("key \(i)".utf8), MapPageLostTests.value) }
        }
        return (directory, directory.appendingPathComponent("data.mdb").path)
    }

    func size(_ path: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1 }

    @Test func aFileCutUnderAReadFailsItAndEveryLaterTransaction() throws {
        let (directory, data) = try store(count: 1000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = try Environment(path: directory.path, mapSize: 32 << 20, flags: [.writeMap])
        let db = try environment.openDatabase("d")
        var read = 0
        let error = #expect(throws: MapPageLost.self) {
            try environment.read { txn in
                // The file holds every page when the transaction begins; then 64 KiB of it are left.
                #expect(truncate(data, 64 << 10) == 0)
                for i in 0..<1000 {
                    if let value = try txn.get(db, Array("key \(i)".utf8)) { read += Int(value[4000]) }
                }
            }
        }
        #expect("\(String(describing: error))".contains("the file was cut while the store was open"))
        #expect(read < 7 * 1000, "the values past the cut were not the file's")
        // Every later transaction is refused as well, and nothing is written: the file is as it was cut.
        #expect(throws: MapPageLost.self) { try environment.read { txn in try txn.get(db, Array("key 0".utf8)) } }
        #expect(throws: MapPageLost.self) { try environment.write { txn in try txn.put(db, Array("new".utf8), MapPageLostTests.value) } }
        #expect(try size(data) == 64 << 10)
    }

    @Test func aCursorThatWalksIntoTheCutFailsInsteadOfLMDBAborting() throws {
        // Small values: thousands of leaf pages, which a cursor walks from one to the next.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MapPageLostTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = try Environment(path: directory.path, mapSize: 32 << 20, flags: [.writeMap])
        let db = try environment.openDatabase("d", flags: [.create])
        try environment.write { txn in
            for i in 0..<100_000 { try txn.put(db, Array(String(format: "key %08d", i).utf8), Array(repeating: 1, count: 40)) }
        }
        var walked = 0
        #expect(throws: MapPageLost.self) {
            try environment.read { txn in
                let cursor = try txn.cursor(db)
                var entry = try cursor.first()
                // Cut once the walk is under way: the leaf it stands on and those after it are gone. A zeroed
                // leaf fails LMDB's check that it is one (`mdb_cassert`), which would abort the process.
                #expect(truncate(directory.appendingPathComponent("data.mdb").path, 64 << 10) == 0)
                while entry != nil {
                    walked += 1
                    entry = try cursor.next()
                }
            }
        }
        #expect(walked < 100_000)
    }

    @Test func aFileCutUnderAWriteCommitsNothing() throws {
        let (directory, data) = try store(count: 1000)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let environment = try Environment(path: directory.path, mapSize: 32 << 20, flags: [.writeMap])
            let db = try environment.openDatabase("d")
            // The pages in use (about 8 MiB) stay whole; the file's room past them, where the write's new pages
            // go, is cut away while it writes.
            #expect(throws: MapPageLost.self) {
                try environment.write { txn in
                    #expect(truncate(data, 12 << 20) == 0)
                    for i in 1000..<2000 { try txn.put(db, Array("key \(i)".utf8), MapPageLostTests.value) }
                }
            }
            #expect(throws: MapPageLost.self) { try environment.read { _ in } }
        }
        // Opened again, the store holds what it held before the write, and none of it.
        let environment = try Environment(path: directory.path, mapSize: 32 << 20, flags: [.writeMap])
        let db = try environment.openDatabase("d")
        let (count, last, past) = try environment.read { txn in
            (try txn.count(db), try txn.get(db, Array("key 999".utf8)).map { Array($0) }, try txn.get(db, Array("key 1000".utf8)))
        }
        #expect(count == 1000)
        #expect(last == MapPageLostTests.value)
        #expect(past == nil)
    }
}
