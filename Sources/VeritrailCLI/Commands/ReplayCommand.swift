import ArgumentParser
import VeritrailKit

/// `replay` (projections.md §7): the auditor's view, every projection at once as of a seq or a time;
/// without `--json`, a report that sums up each section (`ReplayReport`).
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "The auditor's view: every projection at once, as of a seq or a time.",
        discussion: """
        Examples:
          veritrail replay --as-of 2026-11-01T00:00:00Z --store demo-store
          veritrail replay --as-of 120 --utc --store demo-store
          veritrail replay --as-of 2026-11-01T00:00:00Z --store demo-store --json
        """)
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try answer(global, clock, .replay) { ReplayReport.render($0.json, style: TimeStyle(now: $0.now, utc: clock.utc)) }
    }
}
