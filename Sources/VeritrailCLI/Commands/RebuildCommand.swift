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
            let progress = Progress(label: "rebuilding", enabled: !global.json && Output.stderrIsTerminal)
            let events = try global.openStore().rebuild { progress.tick(Int($0)) }
            progress.finish()
            if global.json { Output.json(J.object([("events", J.int(events))])) } else { Output.print("rebuilt the read models from \(events) events") }
        }
    }
}
