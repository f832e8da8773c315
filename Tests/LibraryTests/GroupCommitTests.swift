import Foundation
import Synchronization
import Testing
import VeritrailKit

/// Group commit (server.md §3) through the library's public API: writes from many threads share commits,
/// each is checked against the writes before it, a refused one leaves the others written.
@Suite struct GroupCommitTests {
    @Test func concurrentWritesShareCommitsAndEachIsWrittenOnce() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock("2026-11-20T09:00:00Z")
        let store = try VeritrailStore.withAdmin(in: directory, clock: clock)
        try store.addInspector(unlocked: true)
        let groups = Mutex<[Int]>([])
        store.groupCommits { size, _ in groups.withLock { $0.append(size) } }
        let before = try store.head().seq
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            var scan = NewScan(code: "g-\(i)", productName: "P", category: "Toys", result: .authentic)
            scan.scanId = "s-group-\(i)"
            do {
                try store.scan(scan, as: "ines", options: WriteOptions(eventID: "w-\(i)"))
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try store.head().seq == before + 64)
        #expect(groups.withLock { $0.reduce(0, +) } == 64)
        if case .ok = try store.verify() {} else { Issue.record("the log does not verify") }
        // A retry of one of them writes nothing.
        var again = NewScan(code: "g-3", productName: "P", category: "Toys", result: .authentic)
        again.scanId = "s-group-3"
        let retried = try store.scan(again, as: "ines", options: WriteOptions(eventID: "w-3"))
        #expect(!retried.event.isNew)
        #expect(try store.head().seq == before + 64)
    }

    @Test func aRefusedWriteLeavesTheOthersOfItsGroupWritten() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock("2026-11-20T09:00:00Z")
        let store = try VeritrailStore.withAdmin(in: directory, clock: clock)
        try store.addInspector(unlocked: true)
        store.groupCommits()
        let before = try store.head().seq
        let refused = Mutex(0)
        // Every second write reuses a scan id: within a group, the first to come wins and the other is refused.
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            var scan = NewScan(code: "r-\(i)", productName: "P", category: "Toys", result: .authentic)
            scan.scanId = "s-pair-\(i / 2)"
            do {
                try store.scan(scan, as: "ines")
            } catch {
                refused.withLock { $0 += 1 }
            }
        }
        #expect(refused.withLock { $0 } == 16)
        #expect(try store.head().seq == before + 16)
        if case .ok = try store.verify() {} else { Issue.record("the log does not verify") }
    }
}
