import Testing
import VeritrailKit

/// The queries as a program that renders them asks them (`answer`, with its clock), the diff between two
/// points, and a rebuild's progress. (`exitOnStoreFault` is not called here: it takes over SIGSEGV and
/// SIGBUS for the whole test process; scripts/reliability.sh's flipped bytes run it through the binary.)
@Suite struct QueryAnswerTests {
    let directory: TemporaryDirectory
    let clock = TestClock("2026-11-20T10:00:00Z")
    let store: VeritrailStore

    /// A store with an admin and an unlocked inspector, `ines`, who has not scanned yet.
    init() throws {
        directory = try TemporaryDirectory()
        store = try VeritrailStore.withAdmin(in: directory, clock: clock)
        try store.addInspector(unlocked: true)
    }

    @Test func anAnswerSaysTheClockItWasAnsweredAt() throws {
        let given = try #require(Timestamp("2026-12-01T08:00:00Z"))
        let answer = try store.answer(.stats(by: nil), now: given)
        #expect(answer.now == given)
        #expect(answer.json == (try store.stats(now: given)))
        // Without `now`, the `at` of event N for a seq, the time itself for a time, else the store's clock.
        let first = try store.answer(.accounts, asOf: .seq(1))
        #expect(first.now == Timestamp("2026-11-20T10:00:00Z"))
        #expect(first.json["accounts"]?.arrayValue?.count == 1)
        #expect(try store.answer(.accounts, asOf: .time(given)).now == given)
        clock.advance(seconds: 90)
        #expect(try store.answer(.lockout("ines")).now == clock.now)
    }

    @Test func aHistoryWithoutAWindowSaysTheViewersWindow() throws {
        try store.updateSettings(historyWindow: .sevenDays, as: "ines")
        try store.scan(LibraryTests.serum(), as: "ines")
        let mine = try store.answer(.history(HistoryQuery()), viewer: "ines")
        #expect(mine.viewerWindow == .sevenDays)
        #expect(mine.json == (try store.history(viewer: "ines")))
        var all = HistoryQuery()
        all.window = .all
        #expect(try store.answer(.history(all), viewer: "ines").viewerWindow == nil)
        #expect(try store.answer(.history(HistoryQuery())).viewerWindow == nil)
        // Every query checks its viewer.
        #expect(throws: VeritrailError.self) { try store.answer(.accounts, viewer: "nobody") }
    }

    @Test func aDiffCountsTheEventsBetweenTwoPointsAndTheProjectionsThatChanged() throws {
        let before = try store.head().seq
        clock.advance(seconds: 60)
        try store.scan(LibraryTests.serum(.counterfeit), as: "ines")
        let diff = try store.diff(from: .seq(before), viewer: "ines")
        #expect(diff["from"]?["seq"]?.intValue == Int64(before))
        #expect(diff["to"]?["seq"]?.intValue == Int64(before + 1))
        #expect(diff["events"]?["total"]?.intValue == 1)
        #expect(diff["events"]?["byType"]?["scan.recorded"]?.intValue == 1)
        #expect(diff["events"]?["byActor"]?["ines"]?.intValue == 1)
        #expect(diff["changes"]?["stats"]?["after"]?["counterfeit"]?.intValue == 1)
        #expect(diff["changes"]?["stats"]?["before"]?["counterfeit"]?.intValue == 0)
        // The earlier point first; a viewer that is not there is refused.
        #expect {
            try store.diff(from: .seq(before + 1), to: .seq(before))
        } throws: { error in
            if case .malformed = error as? VeritrailError { return true }
            return false
        }
        #expect {
            try store.diff(from: .seq(before), viewer: "nobody")
        } throws: { error in
            if case .unknown = error as? VeritrailError { return true }
            return false
        }
    }

    @Test func aRebuildSaysHowFarItIsAndWhatItDid() throws {
        try store.scan(LibraryTests.serum(), as: "ines")
        let head = try store.head().seq
        var steps: [RebuildProgress] = []
        let summary = try store.rebuild { steps.append($0) }
        #expect(summary == RebuildSummary(events: head, rewroteScanList: false))
        #expect(steps.last == RebuildProgress(applied: head, total: head))
        #expect(steps.allSatisfy { $0.total == head && $0.applied <= head })
    }
}
