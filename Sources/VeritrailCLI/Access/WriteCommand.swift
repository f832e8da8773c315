import LMDB
import Domain
import Engine
import EventLog
import Projections
import StrictJSON

/// What every writing command does (cli.md §3, §5): it builds its events from the current state and has
/// the engine append them through the same path as `import`, all or nothing, in one write transaction that
/// checks the rules first (so a refusal never asks for a passcode) and then the actor's gate.
struct WriteCommand {
    let global: GlobalOptions
    let passcodeStdin: Bool
    /// The one store of this process: LMDB allows an environment to be opened once per process.
    let store: Store
    /// Whether the write is a large one (a batch), paged as an import's is.
    let large: Bool

    /// `eventID` is the `--id` a retry gives back; `mapSize`, the map a large write (a batch) needs, so that
    /// it need not grow, and the write run again, on the way.
    init(global: GlobalOptions, passcodeStdin: Bool, eventID: String? = nil, mapSize: Int? = nil) throws {
        self.global = global
        self.passcodeStdin = passcodeStdin
        store = try mapSize.map { try Store(directory: global.storeDirectory, mapSize: $0) } ?? global.openStore()
        large = mapSize != nil
        if let eventID { self.eventID = eventID }
    }

    var gate: Gate { Gate(store: store, reader: PasscodeReader(fromStdin: passcodeStdin)) }

    /// The acting user (`--as` or `VERITRAIL_USER`), required for writing.
    func actor() throws -> String {
        guard let actor = global.actingUser else {
            throw Failure.usage("who is acting? pass --as USER (or set VERITRAIL_USER)")
        }
        return actor
    }

    /// The id of the first event written; the others get `ID.2`, `ID.3`, … Drawn at random unless given
    /// (`--id`), and printed, so that a command whose commit failed can be retried safely: events whose ids
    /// are in the log already, for the same data, are not written again.
    var eventID = EventID.random()

    /// Builds the events with `make(at, models)` and appends them in one write transaction, where the engine
    /// also checks that `unlocking` (unless nil) is unlocked; when a passcode is needed and can be read, asks
    /// it, records the attempt, and tries once more. With `dryRunOnly`, only checks. Returns what was logged.
    ///
    /// `make` may run more than once: it must build the same events each time (draw random ids first).
    @discardableResult
    func append(unlocking: String?, dryRunOnly: Bool = false,
                _ make: (Timestamp, Models) throws -> [IncomingEvent]) throws -> [LoggedSummary] {
        var asked = false
        while true {
            let outcome: Result<[AppendedEvent], GateRefusal>
            do {
                outcome = try store.appendGated(actor: unlocking, clock: environmentNow, commit: !dryRunOnly, large: large) { at, models in
                    try identified(try make(at, models))
                }
            } catch let e as EventError {
                throw WriteCommand.failure(e)
            } catch let e as CommitFailed {
                throw Failure(code: Failure.storeFailed, message: """
                    \(e.underlying): the write may have been recorded all the same: check with `veritrail log tail`; \
                    to retry it safely, run the same command again with --id \(eventID)
                    """)
            }
            switch outcome {
            case .success(let appended):
                return appended.map { LoggedSummary(seq: $0.seq, type: $0.type, id: $0.id) }
            case .failure(let refusal):
                guard !asked, case .required(let actor) = refusal else { throw Gate.failure(refusal) }
                try gate.askAndAttempt(actor)
                asked = true
            }
        }
    }

    /// `events` with the ids of this command (`eventID`).
    private func identified(_ events: [IncomingEvent]) throws -> [IncomingEvent] {
        try events.enumerated().map { index, event in
            var event = event
            let id = index == 0 ? eventID : "\(eventID).\(index + 1)"
            guard id.utf8.count <= 64 else { throw Failure.usage("--id must leave room for \".\(index + 1)\": at most \(63 - String(index + 1).utf8.count) characters") }
            event.id = id
            return event
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
            Output.print(sentence + (logged.last.map { " (seq \($0.seq), event \(logged[0].id))" } ?? ""))
        }
    }
}

extension WriteCommand {
    /// The whole of a command that appends one event of `type` for the acting user (`--as`), once unlocked:
    /// `data` builds the event's data for the actor and the time, `said` the sentence that reports it.
    static func appendOne(_ type: EventType, global: GlobalOptions, passcodeStdin: Bool, eventID: String? = nil,
                          data: (_ actor: String, _ at: Timestamp) -> [(String, JSONValue)],
                          said: (_ actor: String) -> String) throws {
        try runReporting {
            let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin, eventID: eventID)
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
