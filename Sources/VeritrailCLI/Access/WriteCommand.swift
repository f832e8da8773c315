import Domain
import Engine
import EventLog
import Projections
import StrictJSON

/// What every writing command does (cli.md §3, §5): it builds its events from the current state, checks
/// them against the rules without writing (so a refusal never asks for a passcode), opens the gate, and
/// appends them through the same path as `import`, all or nothing.
struct WriteCommand {
    let global: GlobalOptions
    let passcodeStdin: Bool
    /// The one store of this process: LMDB allows an environment to be opened once per process.
    let store: Store

    init(global: GlobalOptions, passcodeStdin: Bool) throws {
        self.global = global
        self.passcodeStdin = passcodeStdin
        store = try global.openStore()
    }

    var gate: Gate { Gate(store: store, reader: PasscodeReader(fromStdin: passcodeStdin)) }

    /// The acting user (`--as` or `VERITRAIL_USER`), required for writing.
    func actor() throws -> String {
        guard let actor = global.actingUser else {
            throw Failure.usage("who is acting? pass --as USER (or set VERITRAIL_USER)")
        }
        return actor
    }

    /// Builds the events with `make(at, models)`, then checks, unlocks `unlocking` (unless nil) and appends;
    /// with `dryRunOnly`, only checks. Returns what was logged.
    @discardableResult
    func append(unlocking: String?, dryRunOnly: Bool = false,
                _ make: (Timestamp, Models) throws -> [IncomingEvent]) throws -> [LoggedSummary] {
        // A dry run: the events pass every rule against the current state, or the command stops here.
        do {
            try store.write { appender in
                let at = EventBuilder.stamp(after: appender.head.at)
                for event in try make(at, appender.models) { _ = try appender.append(event) }
                throw DryRunFinished()
            }
        } catch is DryRunFinished {
        } catch let e as EventError {
            throw WriteCommand.failure(e)
        }
        if dryRunOnly { return [] }
        if let unlocking { try gate.ensureUnlocked(unlocking) }
        do {
            return try store.write { appender in
                let at = EventBuilder.stamp(after: appender.head.at)
                var logged: [LoggedSummary] = []
                for event in try make(at, appender.models) {
                    let seq = try appender.append(event).seq
                    logged.append(LoggedSummary(seq: seq, type: event.type, id: try appender.writer.reader.event(at: seq)?.event.id ?? ""))
                }
                return logged
            }
        } catch let e as EventError {
            throw WriteCommand.failure(e)
        }
    }

    /// A broken "who may" rule is not allowed (77); any other broken rule is refused input (65), an unknown
    /// or deleted actor included.
    static func failure(_ e: EventError) -> Failure {
        e.isPermission ? .notAllowed(e.description) : .refused(e.description)
    }

    /// Prints what was written: `{"events": [{"seq", "id", "type"}]}` with `--json`, a line per event without.
    func report(_ logged: [LoggedSummary], _ sentence: String) {
        if global.json {
            Output.json(J.object([("events", .array(logged.map { l in
                J.object([("seq", J.int(l.seq)), ("id", J.string(l.id)), ("type", J.string(l.type.rawValue))])
            }))]))
        } else {
            Output.print(sentence + (logged.last.map { " (seq \($0.seq))" } ?? ""))
        }
    }
}

extension WriteCommand {
    /// The whole of a command that appends one event of `type` for the acting user (`--as`), once unlocked:
    /// `data` builds the event's data for the actor and the time, `said` the sentence that reports it.
    static func appendOne(_ type: EventType, global: GlobalOptions, passcodeStdin: Bool,
                          data: (_ actor: String, _ at: Timestamp) -> [(String, JSONValue)],
                          said: (_ actor: String) -> String) throws {
        try runReporting {
            let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin)
            let actor = try writer.actor()
            let logged = try writer.append(unlocking: actor) { at, _ in
                [try EventBuilder.event(type, actor: actor, at: at, data: data(actor, at))]
            }
            writer.report(logged, said(actor))
        }
    }
}

/// One event a command wrote.
struct LoggedSummary {
    var seq: UInt64
    var type: EventType
    var id: String
}

/// Thrown to end a dry run's transaction without committing it.
struct DryRunFinished: Error {}
