import Foundation
import Testing

/// Issue #23.8, cli.md §8: a clock behind the log (`VERITRAIL_NOW` left set, or `--now`) that hides events says
/// so on stderr in a human answer; `--json` stays as it was, and `--as-of` alone hides nothing to speak of.
@Suite struct ClockNoteTests {
    let store = ["--store", Stores.demo.path]

    @Test func eventsHiddenByTheClockAreCounted() throws {
        // Events 552… are on or after 2026-11-01 (the demo: 551 events before it).
        let before = try CLI.run(["export", "--until", "2026-10-31T23:59:59.999999Z"] + store).stdout.split(separator: "\n").count
        let r = try CLI.run(["stats"] + store, environment: ["VERITRAIL_NOW": "2026-11-01"])
        #expect(r.exit == 0, "\(r.transcript)")
        #expect(r.stderr.contains("note: \(849 - before) events after VERITRAIL_NOW=2026-11-01T00:00:00Z left out"), "\(r.transcript)")
        #expect(r.stderr.contains("unset VERITRAIL_NOW"), "\(r.transcript)")
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let now = try CLI.run(["history", "--now", "2026-11-20T17:59:50Z"] + store)
        #expect(now.stderr.contains("note: 1 event after --now=2026-11-20T17:59:50Z left out"), "\(now.transcript)")
        let json = try CLI.run(["stats", "--json"] + store, environment: ["VERITRAIL_NOW": "2026-11-01"])
        #expect(json.exit == 0 && json.stderr.isEmpty, "\(json.transcript)")
        #expect(try CLI.run(["stats", "--as-of", "2026-11-01"] + store).stderr.isEmpty)
        #expect(try CLI.run(["stats"] + store).stderr.isEmpty)
    }

    /// `VERITRAIL_NOW=` (empty, left from a script) is no setting: the wall clock, as without it, not a usage error.
    @Test func anEmptyClockVariableIsNoSetting() throws {
        let empty = try CLI.run(["stats", "--json"] + store, environment: ["VERITRAIL_NOW": ""])
        let unset = try CLI.run(["stats", "--json"] + store)
        #expect(empty.exit == 0 && empty.stdout == unset.stdout, "\(empty.transcript)")
        #expect(try CLI.run(["stats"] + store, environment: ["VERITRAIL_NOW": "soon"]).exit == 64)
    }
}
