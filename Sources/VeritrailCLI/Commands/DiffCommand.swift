import ArgumentParser
import VeritrailKit

/// `diff --from X [--to Y]`: "what changed since my last digest" — the events in between by type and actor,
/// and the projections (scan figures, customers' statuses, passcode gates, goals) where they changed.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "What changed between two points of the log: the events, and the projections side by side.",
        discussion: """
        Each side is what `replay --as-of` answers at that point (its clock included). --to defaults to the head.
        Examples:
          veritrail diff --from 120 --store demo-store
          veritrail diff --from 2026-11-01T00:00:00Z --to 2026-11-08T00:00:00Z \\
            --utc --store demo-store
          veritrail diff --from 120 --to 400 --json --store demo-store
          d=$(veritrail log digest --as-of 120 --store demo-store)
          veritrail diff --from "$d" --store demo-store
        """
    )
    @Option(help: ArgumentHelp("The earlier point: a seq (digits), a time, or a digest SEQ:HASH written down earlier (checked first).",
                               valueName: "seq|time|seq:hash")) var from: String
    @Option(help: ArgumentHelp("The later point (default: the head).", valueName: "seq|time")) var to: String?
    @Flag(help: "Show times as UTC timestamps rather than relative to now.") var utc = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if name == "--from", LogDigest(from) != nil { continue }
            if let value, AsOf(value) == nil {
                throw ValidationError("\(name) must be a seq (digits) or a time (\(Timestamp.typedForms)), got \"\(value)\"")
            }
        }
        try checkEnvironmentNow()
    }

    func run() throws {
        try runReporting {
            let answer: JSONValue
            if let server = try ServerConnection.of(global) {
                answer = try server.authorized("GET", "/v1/diff", [("from", from)] + (to.map { [("to", $0)] } ?? [])).json
            } else if let digest = LogDigest(from) {
                answer = try global.open().diff(fromDigest: digest, to: to.flatMap(AsOf.init), viewer: global.actingUser)
            } else {
                guard let start = AsOf(from) else { throw Failure.usage("--from must be a seq or a time") }
                answer = try global.open().diff(from: start, to: to.flatMap(AsOf.init), viewer: global.actingUser)
            }
            if global.json { Output.json(answer) } else { Pager.page(DiffReport.render(answer, utc: utc)) }
        }
    }
}
