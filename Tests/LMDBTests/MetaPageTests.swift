import Foundation
import LMDB
import Testing

/// A data file whose current meta page claims more than the file holds, or holds fields LMDB never writes, is
/// refused before LMDB maps it (issue 18, defect 1: bit 31 of `mm_last_pg` asked for an 8 TiB map, which was
/// then allocated on disk); a copy of the used pages only (as `mdb_copy` makes) still opens.
@Suite struct MetaPageTests {
    /// A store in a new directory with a few committed records, closed; its data file's path.
    func store() throws -> (directory: URL, data: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MetaPageTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        do {
            let environment = try Environment(path: directory.path, mapSize: 1 << 20, flags: [.writeMap])
            let db = try environment.openDatabase("d", flags: [.create])
            for i in 0..<3 {
                try environment.write { txn in try txn.put(db, Array("key \(i)".utf8), Array(repeating: UInt8(i), count: 100)) }
            }
        }
        return (directory, directory.appendingPathComponent("data.mdb"))
    }

    /// XORs the byte at `offset` of the current meta page (the one with the larger txnid) with `mask`.
    func flip(_ data: URL, metaOffset offset: Int, mask: UInt8) throws {
        var bytes = try Data(contentsOf: data)
        func txnid(_ base: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[base + 144 + $1]) << (8 * UInt64($1)) } }
        let base = txnid(0) > txnid(4096) ? 0 : 4096
        bytes[base + offset] ^= mask
        try bytes.write(to: data)
    }

    func opening(_ directory: URL) -> (any Error)? {
        do {
            _ = try Environment(path: directory.path, mapSize: 1 << 20, flags: [.writeMap])
            return nil
        } catch {
            return error
        }
    }

    @Test func aLastPageBeyondTheFileIsDamaged() throws {
        let (directory, data) = try store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let size = try FileManager.default.attributesOfItem(atPath: data.path)[.size] as? Int
        try flip(data, metaOffset: 139, mask: 0x80)   // bit 31 of mm_last_pg
        let error = opening(directory)
        #expect(error is DamagedMetaPage, "\(String(describing: error))")
        #expect("\(error.map { "\($0)" } ?? "")".contains("is damaged: its meta page names page 2147483"))
        #expect(try FileManager.default.attributesOfItem(atPath: data.path)[.size] as? Int == size, "the file did not grow")
    }

    @Test func aFlippedFlagOfTheFreePagesIsDamaged() throws {
        let (directory, data) = try store()
        defer { try? FileManager.default.removeItem(at: directory) }
        try flip(data, metaOffset: 44, mask: 0x04)   // MDB_DUPSORT on the free pages' database
        #expect(opening(directory) is DamagedMetaPage)
    }

    @Test func aCopyOfTheUsedPagesOpens() throws {
        let (directory, data) = try store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try Data(contentsOf: data)
        let lastPage = (0..<8).reduce(0) { $0 | Int(bytes[4096 + 136 + $1]) << (8 * $1) }
        let lastPage0 = (0..<8).reduce(0) { $0 | Int(bytes[136 + $1]) << (8 * $1) }
        try bytes.prefix((max(lastPage, lastPage0) + 1) * 4096).write(to: data)
        #expect(opening(directory).map { "\($0)" } == nil)
    }
}
