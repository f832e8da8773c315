import Foundation
@testable import LMDB
import Testing

/// `Environment.write(large:)`: a companion thread faults pages in ahead of the writer and drops written
/// pages from the resident set (`MapPager`). Dropping a written page must lose nothing.
///
/// One test at a time: one of them measures the process's resident set.
@Suite(.serialized)
struct LargeWriteTests {
    /// The value stored under `i`: 3,000 bytes that differ from one key to the next.
    private func value(_ i: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 3_000)
        withUnsafeBytes(of: UInt64(i).bigEndian) { bytes.replaceSubrange(0..<8, with: $0) }
        return bytes
    }

    private func key(_ i: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) } }

    /// The key of the small entry that every tenth value has in `scattered`: out of order.
    private func scatteredKey(_ i: Int) -> [UInt8] { key(i &* 2_654_435_761 % 1_000_003) }

    /// Writes `count` values in key order through `reserve` (as the log appends), and for every tenth one a
    /// small entry in `scattered` under a key out of order (as the id index takes ids).
    private func fill(_ txn: Transaction, _ log: Database, _ scattered: Database, count: Int) throws {
        for i in 0..<count {
            let slot = try key(i).withUnsafeBytes { k throws in try txn.reserve(log, k, count: 3_000, flags: .append) }
            value(i).withUnsafeBytes { slot.copyMemory(from: $0) }
            if i % 10 == 0 { try txn.put(scattered, scatteredKey(i), key(i)) }
        }
    }

    private func expectFilled(_ environment: Environment, _ log: Database, _ scattered: Database, count: Int) throws {
        try environment.read { txn throws in
            #expect(try txn.count(log) == count)
            #expect(try txn.count(scattered) == (count + 9) / 10)
            var wrong: [Int] = []
            for i in 0..<count {
                if try txn.get(log, key(i))?.bytes != value(i) { wrong.append(i) }
                if i % 10 == 0, try txn.get(scattered, scatteredKey(i))?.bytes != key(i) { wrong.append(i) }
            }
            #expect(wrong.isEmpty, "keys read back wrong: \(wrong.prefix(10))")
        }
    }

    /// 24,000 values of 3 KB: about 70 MB, past several of the pager's drops. 140,000, a page each (about
    /// 550 MB): past LMDB's 131,072 dirty pages, where it spills, clearing the dirty flag of the newest
    /// 16,384, which the pager had dropped and drops again while the writer is silent
    /// (`MapPager.rangesWhileSilent`). (Another process reading a store an import wrote is
    /// `LogTests.testLargeImportIsAllOrNothing`; LMDB does not allow one process to open an environment twice.)
    @Test(arguments: [24_000, 140_000])
    func keepsEveryByteItWrote(count: Int) throws {
        try withTemporaryEnvironment(mapSize: 64 << 20, flags: .writeMap) { environment, _ in
            let log = try environment.openDatabase("log", flags: .create)
            let scattered = try environment.openDatabase("scattered", flags: .create)
            try environment.write(large: true) { txn throws in try fill(txn, log, scattered, count: count) }
            try expectFilled(environment, log, scattered, count: count)
        }
    }

    /// While the writer sends no news, the pager drops the pages a spill touches again below it and the
    /// new pages past what it faulted in ahead, and never the pages the writer fills or those faulted in
    /// for it.
    @Test func whileTheWriterIsSilentThePagerDropsWhereItsPagesGo() {
        let page: UInt = 4096, mib: UInt = 1 << 20
        let map: Range<UInt> = 0x7000_0000_0000 ..< 0x7000_0000_0000 + 1024 * mib
        let kept = PageRelease.keptBehindWriter, spilled = MapPager.spilledBehind, ahead = MapPager.ahead
        func ranges(reached: UInt, populated: UInt, firstNew: UInt = map.lowerBound + mib) -> [Range<UInt>] {
            MapPager.rangesWhileSilent(reached: reached, firstNew: firstNew, populated: populated, map: map, pageSize: page)
        }

        // Far into the map, pages faulted in ahead.
        let reached = map.lowerBound + 500 * mib + 123
        let populated = map.lowerBound + 504 * mib
        let dropped = ranges(reached: reached, populated: populated)
        let below = (reached - kept) / page * page
        #expect(dropped == [(below - spilled) ..< below, (reached + ahead) / page * page ..< map.upperBound])
        // Not the writer's pages, nor those faulted in for it.
        let writers = (reached - kept) ..< populated
        #expect(dropped.allSatisfy { !$0.overlaps(writers) })
        #expect(dropped.allSatisfy { $0.lowerBound % page == 0 && $0.upperBound % page == 0 })

        // Near the start of the new pages: nothing below to drop, and never below the map.
        #expect(ranges(reached: map.lowerBound + 3 * mib, populated: map.lowerBound + 5 * mib)
                == [(map.lowerBound + 7 * mib) ..< map.upperBound])
        #expect(ranges(reached: map.lowerBound + 50 * mib, populated: map.lowerBound + 54 * mib, firstNew: map.lowerBound).first
                == map.lowerBound ..< map.lowerBound + 42 * mib)
        // At the end of the map, nothing past it.
        #expect(ranges(reached: map.upperBound - mib, populated: map.upperBound).count == 1)
    }

    /// The drop of every page, while the writer is silent or commits, is made only when the process holds
    /// much: it walks the whole map, and a rebuild's readers would each fault their pages in again.
    @Test func thePagerDropsEveryPageOnlyWhenTheProcessHoldsMuch() {
        #expect(!MapPager.dropsEveryPage(resident: 0))
        #expect(!MapPager.dropsEveryPage(resident: PageRelease.residentWhileWriting - 1))
        #expect(MapPager.dropsEveryPage(resident: PageRelease.residentWhileWriting))
        #expect(MapPager.dropsEveryPage(resident: 1 << 40))
        // `/proc` not read: dropped, as before the measure.
        #expect(MapPager.dropsEveryPage(resident: nil))
    }

    @Test func aWriteThatThrowsLeavesNothing() throws {
        struct Refused: Error {}
        try withTemporaryEnvironment(mapSize: 256 << 20, flags: .writeMap) { environment, _ in
            let log = try environment.openDatabase("log", flags: .create)
            let scattered = try environment.openDatabase("scattered", flags: .create)
            #expect(throws: Refused.self) {
                try environment.write(large: true) { txn throws in
                    try fill(txn, log, scattered, count: 15_000)
                    throw Refused()
                }
            }
            try environment.read { txn throws in
                #expect(try txn.count(log) == 0)
                #expect(try txn.count(scattered) == 0)
            }
            // The pages the refused write used are taken again by the next one.
            try environment.write(large: true) { txn throws in try fill(txn, log, scattered, count: 2_000) }
            try expectFilled(environment, log, scattered, count: 2_000)
        }
    }

    @Test func growsTheMapOnTheWay() throws {
        try withTemporaryEnvironment(mapSize: 1 << 20, flags: .writeMap) { environment, _ in
            let log = try environment.openDatabase("log", flags: .create)
            let scattered = try environment.openDatabase("scattered", flags: .create)
            try environment.write(large: true) { txn throws in try fill(txn, log, scattered, count: 10_000) }
            #expect(environment.mapSize >= 30 << 20)
            try expectFilled(environment, log, scattered, count: 10_000)
        }
    }

    #if os(Linux)
    /// The pages of the map this process has mapped in, in MB (`RssFile` of `/proc/self/status`).
    private func mappedFileMB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("RssFile:") }!
        return Int(line.split(separator: " ")[1])! / 1024
    }

    /// Waits until fewer than `limit` MB of the map are mapped in, and returns how many are.
    ///
    /// Waited for, not timed: the pager drops the pages once the writer has been quiet for a while, and on
    /// a loaded host "a while" is longer, so the test polls (for up to 10 minutes, a bound that only a pager
    /// that never drops reaches) instead of measuring after a fixed sleep.
    private func mappedFileMB(waitingUntilBelow limit: Int) throws -> Int {
        let deadline = ContinuousClock.now + .seconds(600)
        var mapped = try mappedFileMB()
        while mapped >= limit && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            mapped = try mappedFileMB()
        }
        return mapped
    }

    /// What the pager drops while the writer is quiet (as at the end of an import, when it writes the
    /// indexes it kept in memory). How much stays mapped once LMDB's commit has touched every dirty page
    /// again depends on how the two threads were scheduled, so that figure is not asserted here: it is
    /// the import's `RssFile` that `scripts/bench.sh` measures and holds to its memory bar.
    @Test func keepsWrittenPagesOutOfTheResidentSet() throws {
        try withTemporaryEnvironment(mapSize: 256 << 20, flags: .writeMap) { environment, _ in
            let log = try environment.openDatabase("log", flags: .create)
            let scattered = try environment.openDatabase("scattered", flags: .create)
            let before = try mappedFileMB()
            var during = 0
            try environment.write(large: true) { txn throws in
                try fill(txn, log, scattered, count: 24_000)
                during = try mappedFileMB(waitingUntilBelow: before + 40)
            }
            // About 70 MB written; a few megabytes of it may be mapped again by now.
            #expect(during - before < 40, "\(during - before) MB of the write still mapped")
            try expectFilled(environment, log, scattered, count: 24_000)
        }
    }
    #endif
}
