import LMDB
@testable import Projections
import Testing

/// `CodeCounts` counts each code as a dictionary of every code would, whatever its limit: codes held, codes
/// written to the table before, codes the filter rules out, and codes the table held before the write.
@Suite struct CodeCountsTests {
    private func digest(_ code: String) -> CodeDigest {
        Array(code.utf8).withUnsafeBytes { CodeDigest(utf8: $0) }
    }

    /// With `largeTable` 500, the held codes are written at `limit` until the table holds 500 codes, and
    /// from then on at `CodeCounts.largeTableLimit` (which these draws never reach): each write in between
    /// takes whatever codes are held.
    @Test(arguments: [(7, 1 << 20), (100, 1 << 20), (1_000, 1 << 20), (100_000, 1 << 20), (7, 500), (100, 500)])
    func countsAsADictionaryOfEveryCodeDoes(limit: Int, largeTable: Int) throws {
        let tables = MemoryTables()
        var generator = SystemRandomNumberGenerator()
        // Codes drawn from a pool, so that most come again; some written by an earlier write.
        let pool = (0..<3_000).map { "code-\($0)" }
        var oracle: [String: UInt32] = [:]
        var earlier = CodeCounts(limit: limit, tableIsEmpty: true)
        for code in pool.prefix(50) {
            oracle[code, default: 0] += 1
            _ = try earlier.countOne(digest(code), in: tables)
        }
        try earlier.write(to: tables, midWrite: false)

        var counts = CodeCounts(limit: limit, largeTable: largeTable)
        var writes = 0
        for _ in 0..<20_000 {
            let code = pool.randomElement(using: &generator)!
            let seen = try counts.countOne(digest(code), in: tables)
            #expect(seen == oracle[code, default: 0], "\(code)")
            oracle[code, default: 0] += 1
            if counts.isFull {
                try counts.write(to: tables, midWrite: true)
                writes += 1
            }
        }
        if largeTable < pool.count {
            // The table is large once 500 of the 3,000 codes are written: at most that many writes before.
            #expect(writes <= 500 / limit + 1, "\(writes) writes")
        }
        try counts.write(to: tables, midWrite: false)
        var stored: [CodeDigest: UInt32] = [:]
        try tables.forEach(.codes, prefix: []) { key, value in
            stored[CodeDigest(storedKey: key)] = UInt32(bigEndianBytes: value)
            return true
        }
        #expect(stored == Dictionary(uniqueKeysWithValues: oracle.map { (digest($0.key), $0.value) }))
    }

    /// `HeldCodes` holds what a dictionary holds, through its growth and after it is emptied: digests
    /// whose low words are the same (one slot for all of them, then the next ones) as well as random ones,
    /// and the digest of all zeros (the words of an empty slot).
    @Test func theHeldCodesAreWhatADictionaryHolds() {
        var generator = SystemRandomNumberGenerator()
        var held = HeldCodes()
        for round in 0..<2 {
            var oracle: [CodeDigest: UInt32] = [:]
            var digests = (0..<20_000).map { _ in CodeDigest(high: generator.next(), low: generator.next()) }
            digests += (0..<300).map { CodeDigest(high: UInt64($0), low: 0x5EED) } + [CodeDigest(high: 0, low: 0)]
            for _ in 0..<60_000 {
                let digest = digests.randomElement(using: &generator)!
                #expect(held[digest] == oracle[digest])
                let value = UInt32.random(in: 1...UInt32.max, using: &generator)
                held.set(digest, to: value)
                oracle[digest] = value
            }
            #expect(held.count == oracle.count, "round \(round)")
            let taken = held.takeSorted()
            #expect(taken.map(\.key) == oracle.keys.sorted { $0 < $1 })
            #expect(taken.allSatisfy { oracle[$0.key] == $0.value })
            #expect(held.isEmpty && held[digests[0]] == nil)
        }
    }
}
