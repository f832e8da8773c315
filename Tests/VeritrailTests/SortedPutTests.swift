@testable import Engine
import EventLog
import Foundation
import LMDB
@testable import Projections
import XCTest

/// `StoredTables.put(_:sorted:)` merges sorted entries into a table that holds keys before, between and after
/// them (the codes a large write merges into the `codes` table every so many scans), through one cursor: the
/// table ends as one `put` per entry would leave it, whatever leaf each key falls in and however the leaves split.
final class SortedPutTests: XCTestCase {
    /// Every entry of `table`, key and value.
    private func entries(_ store: Store, _ table: ModelTable) throws -> [[UInt8]: [UInt8]] {
        try store.log.environment.read { txn in
            var found: [[UInt8]: [UInt8]] = [:]
            try StoredTables(transaction: txn, databases: store.modelDatabases).forEach(table, prefix: []) { key, value in
                found[Array(key)] = Array(value)
                return true
            }
            return found
        }
    }

    /// Merges `keys` (sorted here), each with the value `value`, into `table` in one write.
    private func merge(_ keys: [[UInt8]], value: UInt32, into table: ModelTable, of store: Store) throws {
        var sorted = SortedEntries(keyWidth: 16, valueWidth: 4, capacity: keys.count)
        for key in keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            sorted.append { bytes in
                bytes += key
                value.appendBigEndianBytes(to: &bytes)
            }
        }
        try store.log.environment.write { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).put(table, sorted: sorted)
        }
    }

    func testSortedEntriesMergeIntoAFilledTableAsPutsDo() throws {
        let directory = temporaryPath()
        try importOK(demoEvents, into: directory)
        let store = try Store(directory: directory.path)
        var generator = SystemRandomNumberGenerator()
        func randomKey() -> [UInt8] { (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) } }

        // Random keys first (the table's leaves split all over), then more between them, some of them the
        // keys already there with another value, and keys after every one (appended).
        let first = (0..<5_000).map { _ in randomKey() }
        try merge(first, value: 1, into: .codes, of: store)
        var expected = try entries(store, .codes)
        let again = (0..<4_000).map { _ in randomKey() } + first.shuffled().prefix(1_000)
        try merge(again, value: 2, into: .codes, of: store)
        for key in again { expected[key] = [0, 0, 0, 2] }
        let after = (0..<500).map { i in [0xFF, 0xFF] + withUnsafeBytes(of: UInt32(i).bigEndian, Array.init) + Array(repeating: 0, count: 10) }
        try merge(after, value: 3, into: .codes, of: store)
        for key in after { expected[key] = [0, 0, 0, 3] }

        XCTAssertEqual(try entries(store, .codes), expected)
        XCTAssertEqual(expected.count, try entries(store, .codes).count)
    }
}
