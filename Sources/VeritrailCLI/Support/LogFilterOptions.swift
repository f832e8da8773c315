import ArgumentParser
import VeritrailKit

/// The filters of `export` and `log tail` (cli.md §7): "who did what between two dates".
struct LogFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The first seq to write.", valueName: "seq")) var from: UInt64 = 1
    @Option(help: ArgumentHelp("The last seq to write.", valueName: "seq")) var to: UInt64?
    @Option(help: ArgumentHelp("Only events at or after this time.", valueName: "time")) var since: String?
    @Option(help: ArgumentHelp("Only events at or before this time.", valueName: "time")) var until: String?
    @Option(name: .customLong("actor"), help: ArgumentHelp("Only events by this user (repeatable: any of them).", valueName: "user"), completion: Completions.users)
    var actors: [String] = []
    @Option(name: .customLong("type"), help: ArgumentHelp("Only events of this type, e.g. scan.recorded (repeatable: any of them).", valueName: "type"), completion: Completions.eventTypes)
    var types: [String] = []
    /// Unconditional, so that `-n -1` is told that N must be at least 1, not that a value is missing.
    @Option(name: .short, parsing: .unconditional, help: ArgumentHelp("Only the last N of the events that match.", valueName: "N"))
    var n: Int?

    func validate() throws {
        guard from >= 1 else { throw ValidationError("--from must be at least 1") }
        if let to, to < from { throw ValidationError("--to must not be below --from") }
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, Timestamp(typed: value) == nil {
                throw ValidationError("\(name) must be a time (\(Timestamp.typedForms)), got \"\(value)\"")
            }
        }
        do {
            try ReversedRange.check(sinceTime.map { ("--since", $0) }, untilTime.map { ("--until", $0) })
        } catch {
            throw ValidationError(error.description)
        }
        for type in types where EventType(rawValue: type) == nil {
            throw ValidationError("--type must be an event type (\(EventType.choices.map(\.rawValue).joined(separator: ", "))), got \"\(type)\"")
        }
        if let n, n < 1 { throw ValidationError("-n must be at least 1, got \(n)") }
    }

    var sinceTime: Timestamp? { since.flatMap { Timestamp(typed: $0) } }
    var untilTime: Timestamp? { until.flatMap { Timestamp(typed: $0) } }

    /// The filter, keeping the last `last` matches (`-n`). The library checks its actors (an `--actor`
    /// that never had an account is refused, exit 65) and cuts it at `--as-of`.
    func filter(last: Int?) -> LogFilter {
        LogFilter(from: from, through: to ?? .max, since: sinceTime, until: untilTime,
                  actors: Set(actors), types: Set(types.compactMap { EventType(rawValue: $0) }), last: last)
    }
}
