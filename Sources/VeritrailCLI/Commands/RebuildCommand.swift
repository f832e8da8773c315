import ArgumentParser
import VeritrailKit

/// `rebuild`: recomputes every read model from the log.
struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Recompute every read model from the log (they are normally kept up to date as events are appended).",
        discussion: "Example: veritrail rebuild --store demo-store"
    )
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            let store = try global.open()
            // The bar is made at the first step, which says how many events there are.
            var progress: Progress?
            let summary = try store.rebuild { step in
                let bar = progress ?? Progress(label: "rebuilding", total: Int(step.total), unit: "events",
                                               enabled: !global.json && Output.stderrIsTerminal)
                progress = bar
                bar.tick(Int(step.applied))
            }
            progress?.finish()
            if global.json {
                Output.json(J.object([("events", J.int(summary.events)), ("scanListRewritten", .bool(summary.rewroteScanList))]))
            } else {
                let scanList = summary.rewroteScanList ? "the stored scan list was stale and was written again"
                                                       : "the stored scan list was already what the log gives"
                Output.print("rebuilt the read models from \(summary.events) events; \(scanList)")
            }
        }
    }
}
