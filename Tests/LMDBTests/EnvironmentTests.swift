import Foundation
import LMDB
import TestSupport
import Testing

struct EnvironmentTests {
    private let value = [UInt8](repeating: 0xAB, count: 4_000)

    /// Puts `value` under `keys` in one write, calling `each` after every put; how many times the write ran.
    @discardableResult
    private func put(_ keys: Range<UInt32>, _ db: Database, in environment: Environment,
                     each: (Transaction) -> Void = { _ in }) throws -> Int {
        var runs = 0
        try environment.write { txn throws in
            runs += 1
            for i in keys {
                try i.withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } }
                each(txn)
            }
        }
        return runs
    }

    /// Runs `body` with the path of a tmpfs of `megabytes` mounted for it. Root only (CI runs as root), as
    /// the reliability suite's full disks: a test that calls it is enabled for root alone, and shown as
    /// skipped for anyone else; as root, a tmpfs that can not be mounted fails it rather than passing it
    /// unchecked.
    private func withSmallDisk(megabytes: Int, _ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("LMDBTests-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        try #require(try run(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.path]) == 0, "can not mount a tmpfs")
        defer { _ = try? run(["umount", directory.path]) }
        try body(directory.path)
    }

    @Test func mapGrowsInsideOneWrite() throws {
        try withTemporaryEnvironment(mapSize: 64 << 10) { environment, _ in
            let db = try environment.openDatabase(nil)
            #expect(try put(0..<2_000, db, in: environment) > 1)
            #expect(environment.mapSize >= 2_000 * value.count)
            try environment.read { txn throws in
                #expect(try txn.count(db) == 2_000)
                #expect(try UInt32(1_999).withBigEndianBytes { try txn.get(db, $0)?.bytes } == value)
            }
        }
    }

    /// Runs `body` as one write into a map of 64 KiB that grows by steps of 1 MiB (so that a few megabytes
    /// show the steps; a store's is 64 MiB), `put` storing a value of one overflow page of 4 KiB: how many
    /// times the write ran. Whatever that is, the data file stays within 1.25 times its pages in use plus a step.
    private func runsOfAGrowingWrite(_ body: (Transaction, _ put: (UInt32) throws -> Void) throws -> Void) throws -> Int {
        var runs = 0
        try withTemporaryEnvironment(mapSize: 64 << 10, growthStep: 1 << 20) { environment, directory in
            let db = try environment.openDatabase(nil)
            try environment.write { txn throws in
                runs += 1
                try body(txn) { i in try i.withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } } }
            }
            let inUse = try environment.read { txn throws in try txn.count(db) } * 4_096
            let file = try FileManager.default.attributesOfItem(atPath: directory.path + "/data.mdb")[.size] as! Int
            #expect(file <= inUse * 5 / 4 + environment.growthStep)
        }
        return runs
    }

    /// A large write that says how far it got (`Transaction.workDone`, as an import does) runs again once when
    /// it fills the map, the map grown by what the rest needs; growing by fifths alone ran it again at each
    /// step.
    @Test func aWriteThatTellsItsProgressRunsAgainOnce() throws {
        let count = 2_500
        for tells in [true, false] {
            let runs = try runsOfAGrowingWrite { txn, put in
                for i in 0..<UInt32(count) {
                    try put(i)
                    if tells { txn.workDone = Double(i + 1) / Double(count) }
                }
            }
            // Once at the first map (too little done to tell a rate), once at 1 MiB, once to the end; by
            // fifths alone, at every step from 1 MiB to 10.
            if tells { #expect(runs <= 3) } else { #expect(runs >= 6) }
        }
    }

    /// A write that holds part of what it reads and writes it at its end (as an import holds its search sets
    /// and counts of codes) fills the map at a rate that says too little: it ran again near its end. One that
    /// also tells what the rest will take (`Transaction.bytesLeft`) gets room for it at its first fill and
    /// runs again once.
    @Test func aWriteThatTellsWhatIsLeftRunsAgainOnce() throws {
        let count = 2_500
        for tells in [true, false] {
            let runs = try runsOfAGrowingWrite { txn, put in
                var held: [UInt32] = []
                for i in 0..<UInt32(count) {
                    // A third of the values are held until the end.
                    if i % 3 == 0 { held.append(i) } else { try put(i) }
                    txn.workDone = Double(i + 1) / Double(count)
                    // Each value takes a page of 4 KiB, and a little of the tree: an eighth to spare.
                    if tells { txn.bytesLeft = (count - Int(i) - 1 + held.count) * 4_608 }
                }
                for i in held { try put(i) }
            }
            // Once at the first map, then to the end; by the rate alone, near the end as well.
            if tells { #expect(runs == 2) } else { #expect(runs >= 3) }
        }
    }

    /// A growth that the write's rate asks for and the disk has no room for goes on by the least step
    /// (`growMap`), so that the disk is full only when no growth fits: on a 16 MiB tmpfs, a write of 8 MiB
    /// that says at each fill it has done 1/64 of its work asks for hundreds of MiB at its second fill.
    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs: root only"))
    func aGrowthTheDiskHasNoRoomForGoesOnByTheLeastStep() throws {
        try withSmallDisk(megabytes: 16) { path in
            let environment = try Environment(path: path, mapSize: 64 << 10, growthStep: 1 << 20)
            let db = try environment.openDatabase(nil)
            #expect(try put(0..<2_000, db, in: environment) { $0.workDone = 1.0 / 64 } > 2)
            #expect(try environment.read { txn throws in try txn.count(db) } == 2_000)
        }
    }

    /// And a least step the disk has no room for is tried by halves of it (`growMap`), so that a write that
    /// fits goes in: on a 16 MiB tmpfs with steps of 8 MiB, 2,500 values of 4 KB (about 10 MiB) fill the map
    /// at 8 MiB, where another step would take 16; it grows by 4 MiB and the write goes in (the reliability
    /// suite's batch after room was made, on a store cut back to its pages and a step, is this case). Then a
    /// write of 2,000 more, for which the disk has no room however it grows, fails as a full disk and leaves
    /// the first.
    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs: root only"))
    func aStepTheDiskHasNoRoomForIsTriedByLessUntilNoneFits() throws {
        try withSmallDisk(megabytes: 16) { path in
            let environment = try Environment(path: path, mapSize: 64 << 10, growthStep: 8 << 20)
            let db = try environment.openDatabase(nil)
            try put(0..<2_500, db, in: environment)
            #expect(try environment.read { txn throws in try txn.count(db) } == 2_500)
            #expect(environment.mapSize <= 12 << 20 + 1 << 16)
            let error = #expect(throws: LMDBError.self) { try put(2_500..<4_500, db, in: environment) }
            #expect(error?.code == ENOSPC)
            #expect(try environment.read { txn throws in try txn.count(db) } == 2_500)
        }
    }

    /// A write that frees pages as it adds them (a rebuild's read models written anew) and fills the map of a
    /// store cut back to its pages (`trimToPagesInUse`, as a new store is) keeps the data file within 1.25
    /// times its pages in use plus a step: it ends with no more pages in use than it began with, so the
    /// growth alone must keep the bar. A quarter did not (1 MiB steps: the map grew to 11.1 MiB for 7.8 MiB
    /// of values, over the 10.8 MiB bar).
    @Test func aWriteThatRewritesPagesKeepsTheFileWithinTheBar() throws {
        let count = 2_000, rewritten = 400
        try withTemporaryEnvironment(mapSize: 16 << 20, flags: .writeMap, growthStep: 1 << 20) { environment, directory in
            let db = try environment.openDatabase(nil)
            try environment.write { txn throws in
                for i in 0..<UInt32(count) {
                    try i.withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } }
                }
            }
            try environment.trimToPagesInUse()
            let trimmed = environment.mapSize
            let other = [UInt8](repeating: 0xCD, count: value.count)
            var runs = 0
            try environment.write { txn throws in
                runs += 1
                for i in 0..<UInt32(rewritten) {
                    try i.withBigEndianBytes { key in try other.withUnsafeBytes { try txn.put(db, key, $0) } }
                }
            }
            #expect(runs == 2, "the rewrite fills the trimmed map once")
            #expect(environment.mapSize > trimmed)
            // Each value takes one overflow page of 4 KiB: a bound below the pages in use.
            let inUse = try environment.read { txn throws in try txn.count(db) } * 4_096
            let file = try FileManager.default.attributesOfItem(atPath: directory.path + "/data.mdb")[.size] as! Int
            #expect(file <= inUse * 5 / 4 + environment.growthStep)
            #expect(try environment.read { txn throws in try UInt32(0).withBigEndianBytes { try txn.get(db, $0)?.bytes } } == other)
        }
    }

    /// The same rewrite given room ahead for the pages it rewrites (`makeRoom`, as `rebuild` does for the
    /// tables it writes anew) runs once, within the same bar; room asked for again is not made twice, and
    /// room beyond what is in use is made as large as what is in use.
    @Test func aRewriteGivenRoomAheadRunsOnce() throws {
        let count = 2_000, rewritten = 400
        try withTemporaryEnvironment(mapSize: 16 << 20, flags: .writeMap, growthStep: 1 << 20) { environment, directory in
            let db = try environment.openDatabase(nil)
            try put(0..<UInt32(count), db, in: environment)
            try environment.trimToPagesInUse()
            let before = try environment.read { txn throws in try txn.pages(db) } * 4_096
            try environment.makeRoom(pages: rewritten + rewritten / 2)
            let roomy = environment.mapSize
            #expect(roomy >= before + (rewritten + rewritten / 2) * 4_096)
            try environment.makeRoom(pages: rewritten)
            #expect(environment.mapSize == roomy, "the room is there already")
            #expect(try put(0..<UInt32(rewritten), db, in: environment) == 1, "the rewrite fits in the room made")
            let inUse = try environment.read { txn throws in try txn.pages(db) } * 4_096
            let file = try FileManager.default.attributesOfItem(atPath: directory.path + "/data.mdb")[.size] as! Int
            #expect(file <= inUse * 5 / 4 + environment.growthStep)
            // Room asked for beyond the pages in use (a damaged table's header may say anything) is made as
            // large as they are: the map doubles them, where asking the disk for 2⁴⁰ pages would grow nothing.
            try environment.makeRoom(pages: 1 << 40)
            #expect(environment.mapSize >= 2 * inUse && environment.mapSize <= 2 * (inUse + 8 << 20))
        }
    }

    /// Room the disk has not got is not made, and nothing fails: the write then grows the map as it fills.
    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs: root only"))
    func roomTheDiskHasNotGotIsNotMade() throws {
        try withSmallDisk(megabytes: 16) { path in
            let environment = try Environment(path: path, mapSize: 64 << 10, growthStep: 1 << 20)
            let db = try environment.openDatabase(nil)
            // About 9 MiB in use: room for as much again would take 18 MiB.
            try put(0..<2_200, db, in: environment)
            let before = environment.mapSize
            try environment.makeRoom(pages: 2_200)
            #expect(environment.mapSize == before)
            try put(2_200..<2_300, db, in: environment)
            #expect(try environment.read { txn throws in try txn.count(db) } == 2_300)
        }
    }

    @Test func mapGrowsAcrossManyWrites() throws {
        try withTemporaryEnvironment(mapSize: 64 << 10) { environment, _ in
            let db = try environment.openDatabase("many", flags: .create)
            for i in 0..<2_000 as Range<UInt32> {
                try environment.write { txn throws in
                    try i.withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } }
                }
            }
            try environment.read { txn throws in
                #expect(try txn.count(db) == 2_000)
                for i in 0..<2_000 as Range<UInt32> {
                    #expect(try i.withBigEndianBytes { try txn.get(db, $0)?.count } == value.count)
                }
            }
        }
    }

    @Test func mapGrowsEvenWhenTheBodySwallowsMapFull() throws {
        try withTemporaryEnvironment(mapSize: 64 << 10) { environment, _ in
            let db = try environment.openDatabase(nil)
            try environment.write { txn throws in
                for i in 0..<500 as Range<UInt32> {
                    try? i.withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } }
                }
            }
            #expect(try environment.read { try $0.count(db) } == 500)
        }
    }

    @Test func readersKeepWorkingWhileAWriterGrowsTheMap() throws {
        try withTemporaryEnvironment(mapSize: 64 << 10) { environment, _ in
            let db = try environment.openDatabase(nil)
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                do {
                    for i in 0..<300 as Range<UInt32> {
                        if worker == 0 {
                            try environment.write { txn throws in
                                try i.withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } }
                            }
                        } else {
                            try environment.read { txn throws in
                                let cursor = try txn.cursor(db)
                                while let entry = try cursor.next() {
                                    guard entry.value.count == value.count else { throw LMDBError.corrupted }
                                }
                            }
                        }
                    }
                } catch {
                    failures.record(error)
                }
            }
            #expect(failures.errors.isEmpty)
            #expect(try environment.read { try $0.count(db) } == 300)
        }
    }

    /// A map whose reads map only the pages they touch (`mapOnlyTouchedPages`, a userfaultfd registered for
    /// write-protection, where Linux allows it) still takes writes through the map (`writeMap`), and grows
    /// as before (LMDB maps it anew, with fault-around).
    @Test func aMapOfTouchedPagesOnlyReadsAndWritesAsBefore() throws {
        try withTemporaryEnvironment(mapSize: 16 << 20, flags: [.writeMap, .noReadAhead]) { environment, _ in
            let db = try environment.openDatabase(nil)
            func put(_ keys: Range<UInt32>) throws {
                try environment.write { txn throws in
                    for i in keys {
                        try i.withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } }
                    }
                }
            }
            func check(_ count: Int) throws {
                try environment.read { txn throws in
                    #expect(try txn.count(db) == count)
                    for i in [0, count / 2, count - 1].map(UInt32.init) {
                        #expect(try i.withBigEndianBytes { try txn.get(db, $0)?.bytes } == value)
                    }
                }
            }
            try put(0..<500)
            // Linux 6.7 brought what it takes (`UFFD_FEATURE_WP_ASYNC`); before, the map keeps fault-around.
            let took = environment.mapOnlyTouchedPages()
            #expect(took == ProcessInfo.processInfo.isOperatingSystemAtLeast(
                OperatingSystemVersion(majorVersion: 6, minorVersion: 7, patchVersion: 0)))
            #expect(environment.mapOnlyTouchedPages() == took)   // a second call changes nothing
            try check(500)
            try put(500..<2_000)   // within the 16 MiB map
            try check(2_000)
            try put(2_000..<6_000)   // past it: the map grows
            try check(6_000)
            #expect(environment.mapSize >= 6_000 * value.count)
        }
    }

    /// A large write (an import, a batch) maps only the pages it touches while it runs, so that what it reads
    /// at random behind its frontier does not bring the pages around into its resident set; the map has
    /// fault-around again once it ends. Where Linux can not (before 6.7), it keeps fault-around throughout.
    @Test func aLargeWriteMapsOnlyThePagesItTouches() throws {
        try withTemporaryEnvironment(mapSize: 16 << 20, flags: [.writeMap, .noReadAhead]) { environment, directory in
            let db = try environment.openDatabase(nil)
            let path = directory.appendingPathComponent("data.mdb").path
            // 2,000 values of a page each, written through the map: cached, as an import leaves its pages.
            try environment.write { txn throws in
                for i in 0..<UInt32(2_000) {
                    try i.withBigEndianBytes { key in try value.withUnsafeBytes { try txn.put(db, key, $0) } }
                }
            }
            /// The bytes of the map resident after the map is dropped and one value read.
            func residentAfterOneRead(_ txn: Transaction) throws -> Int {
                txn.releaseMappedPages()
                #expect(try UInt32(1_000).withBigEndianBytes { try txn.get(db, $0)?.bytes } == value)
                return try MappedFile.residentBytes(of: path)
            }
            let page = 4_096
            let canTurnItOff = ProcessInfo.processInfo.isOperatingSystemAtLeast(
                OperatingSystemVersion(majorVersion: 6, minorVersion: 7, patchVersion: 0))
            // The root, a leaf and the value's page, and nothing around them. (The pager only ever drops.)
            let during = try environment.write(large: true) { txn in try residentAfterOneRead(txn) }
            if canTurnItOff { #expect(during <= 4 * page, "\(during) bytes") }
            let after = try environment.read { txn in try residentAfterOneRead(txn) }
            #expect(after > 4 * page, "\(after) bytes")
            try environment.read { txn throws in #expect(try txn.count(db) == 2_000) }
        }
    }

    /// `readingMuch` lets the kernel read ahead for its body (the map not advised `MADV_RANDOM`, which
    /// `MDB_NORDAHEAD` sets), and leaves the map as LMDB left it once the last call that overlaps ends,
    /// when the body throws too.
    @Test func readingMuchReadsAheadForItsBodyOnly() throws {
        try withTemporaryEnvironment(mapSize: 16 << 20, flags: [.writeMap, .noReadAhead]) { environment, directory in
            let db = try environment.openDatabase(nil)
            try put(0..<10, db, in: environment)
            let path = directory.appendingPathComponent("data.mdb").path
            func advisedRandom() throws -> [Bool] { try MappedFile.flags(of: path).map { $0.contains("rr") } }
            #expect(try advisedRandom() == [true])
            let during = try environment.readingMuch { () throws -> [Bool] in try advisedRandom() }
            #expect(during == [false])
            // Calls that overlap (threads of one process): the first to end leaves the advice to the other.
            let afterInner = try environment.readingMuch { () throws -> [Bool] in
                try environment.readingMuch { () throws -> Void in }
                return try advisedRandom()
            }
            #expect(afterInner == [false])
            #expect(try advisedRandom() == [true])
            struct Stop: Error {}
            #expect(throws: Stop.self) { try environment.readingMuch { throw Stop() } }
            #expect(try advisedRandom() == [true])
        }
    }

    @Test func filesAreCreatedOwnerOnly() throws {
        try withTemporaryEnvironment { _, directory in
            for name in ["data.mdb", "lock.mdb"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
                let permissions = try #require(attributes[.posixPermissions] as? NSNumber)
                #expect(permissions.intValue == 0o600, "\(name)")
            }
        }
    }

    @Test func openingAMissingDirectoryFails() {
        #expect(throws: LMDBError.self) {
            try Environment(path: "/nonexistent/\(UUID().uuidString)")
        }
    }
}

/// Errors collected from concurrent workers.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [any Error] = []

    func record(_ error: any Error) {
        lock.withLock { collected.append(error) }
    }

    var errors: [any Error] { lock.withLock { collected } }
}
