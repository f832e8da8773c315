import Domain
import EventLog
import Projections
import TestSupport
import Testing

/// A replay of a prefix of the log (`--as-of`, a `--now` before the head) through the same projectors, its
/// scan list borrowed from the kept models (`BorrowedScanList`): it answers as models kept through the
/// prefix alone would.
@Suite("Replay of a prefix over the borrowed scan list")
struct ReplayTests {
    let lines = [
        Ev.register("ada", role: "admin", by: "system", at: "2026-11-01T09:00:00Z"),
        Ev.register("ines", role: "inspector", by: "ada", at: "2026-11-01T09:01:00Z"),
        Ev.scan("s1", by: "ines", at: "2026-11-01T10:00:00Z", code: "C1", result: "counterfeit"),
        Ev.scan("s2", by: "ada", at: "2026-11-01T10:00:01Z", code: "C1", category: "Food"),
        Ev.report("s1", reason: "label", by: "ada", at: "2026-11-01T10:00:02Z", extra: #","message":"Torn""#),
        Ev.scan("s3", by: "ines", at: "2026-11-02T10:00:00Z", code: "C2"),
    ]

    @Test("every prefix answers as the models kept through it alone", arguments: 1...6)
    func prefix(_ count: Int) throws {
        let full = MemoryLog()
        try full.append(lines)
        try full.models.flush()
        let kept = MemoryLog()
        try kept.append(Array(lines.prefix(count)))

        let replay = Models.replaying(over: full.tables, log: full.scans)
        for event in full.events.prefix(count) { try replay.apply(event) }

        #expect(try replay.totals() == (try kept.models.totals()))
        #expect(try replay.allAccounts(history: .whole) == (try kept.models.allAccounts(history: .whole)))
        #expect(try replay.stats(.all) == (try kept.models.stats(.all)))
        #expect(try replay.stats(.actor("ines")) == (try kept.models.stats(.actor("ines"))))
        for scanId in ["s1", "s2", "s3"] {
            #expect(try replay.scanIsReported(scanId) == (try kept.models.scanIsReported(scanId)), "\(scanId)")
        }
        for ordinal in UInt32(1)..<(try kept.models.scanCount() + 1) {
            #expect(try replay.scanRow(ordinal) == (try kept.models.scanRow(ordinal)))
        }
    }

    @Test("a scan replayed by its counts alone counts as the whole event does")
    func countedScans() throws {
        let full = MemoryLog()
        try full.append(lines)
        try full.models.flush()
        let replay = Models.replaying(over: full.tables, log: full.scans)
        for event in full.events {
            if case .scanRecorded(let p) = event.event.payload {
                let e = event.event
                try replay.apply(counted: CountedScan(at: e.at, actor: e.actor, category: p.category,
                                                      isCounterfeit: p.result == .counterfeit), seq: event.seq)
            } else {
                try replay.apply(event)
            }
        }
        #expect(try replay.totals() == (try full.models.totals()))
        #expect(try replay.stats(.all) == (try full.models.stats(.all)))
        #expect(try replay.userMonth("ines", Month(year: 2026, month: 11)) == (try full.models.userMonth("ines", Month(year: 2026, month: 11))))
    }
}
