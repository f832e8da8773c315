import Domain
import StrictJSON
import EventLog
import Projections
import ArgumentParser
import Engine

/// `rebuild`: recomputes every read model from the log.
struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Recompute every read model from the log (they are normally kept up to date as events are appended).",
        discussion: "Example: veritrail rebuild --store /tmp/demo"
    )
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            let store = try global.openStore()
            let total = try store.read { reader, _ in try reader.head().seq }
            let progress = Progress(label: "rebuilding", total: Int(total), unit: "events",
                                    enabled: !global.json && Output.stderrIsTerminal)
            let summary = try store.rebuild { progress.tick(Int($0)) }
            progress.finish()
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
