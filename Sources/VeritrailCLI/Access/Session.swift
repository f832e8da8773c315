import VeritrailKit

/// What a command needs to act through the library: the store, who acts, how a passcode is asked, the
/// write's options (`--id`, `--dry-run`), and how what was written is printed.
struct Session {
    let global: GlobalOptions
    /// The one store of this process: LMDB allows an environment to be opened once per process.
    let store: VeritrailStore
    /// Asks the passcode when the gate needs it (terminal, or stdin with `--passcode-stdin`).
    let passcode: PasscodeProvider
    /// `--id` and `--dry-run`.
    let options: WriteOptions

    init(global: GlobalOptions, passcodeStdin: Bool = false, eventID: String? = nil, dryRun: Bool = false) throws {
        self.global = global
        store = try global.open()
        passcode = PasscodeReader(fromStdin: passcodeStdin).provider
        options = WriteOptions(eventID: eventID, dryRun: dryRun)
    }

    /// The acting user (`--as` or `VERITRAIL_USER`), required for writing.
    func actor() throws -> String {
        guard let actor = global.actingUser else {
            throw Failure.usage("who is acting? pass --as USER (or set VERITRAIL_USER)")
        }
        return actor
    }

    /// Prints what was written: `{"events": [{"seq", "id", "type"}]}` with `--json`, else `sentence` with
    /// the last event's seq and the first event's id (the `--id` of a retry).
    ///
    /// A retry (`--id`) whose events were all logged already wrote nothing, and says so, whatever the store
    /// holds since (a later write may have undone it): `"alreadyRecorded": true` beside the events with
    /// `--json`, else `already recorded (seq N, event ID): nothing written`.
    func report(_ appended: [AppendedEvent], _ sentence: String) {
        Session.report(global, appended, sentence)
    }

    /// `placement`, when there is one, is added to the `--json` answer of a write that wrote (`register`'s and
    /// `account update`'s, `Answers.events(_:placement:)`).
    static func report(_ global: GlobalOptions, _ appended: [AppendedEvent], _ sentence: String,
                       placement: () -> JSONValue? = { nil }) {
        let already = Answers.alreadyRecorded(appended)
        if global.json {
            Output.json(Answers.events(appended, placement: placement()))
        } else if already, let last = appended.last {
            Output.print("already recorded (seq \(last.seq), event \(appended[0].id)): nothing written")
        } else {
            Output.print(sentence + (appended.last.map { " (seq \($0.seq), event \(appended[0].id))" } ?? ""))
        }
    }
}

extension Session {
    /// The whole of a command that makes one library write as the acting user: opens the store, finds the
    /// actor, makes the write with refusals in the command's words (`words`), and prints what was written
    /// with the sentence `said` makes for the actor (and `placement`, with `--json`). With `--server`, the same
    /// write is `remote`'s request, and the placement the server's.
    static func write(_ global: GlobalOptions, passcodeStdin: Bool, retry: RetryOptions, words: CommandWords,
                      said: (_ actor: String) -> String, remote: (_ actor: String) -> RemoteWrite,
                      placement: () -> JSONValue? = { nil },
                      _ call: (Session, _ actor: String) throws -> [AppendedEvent]) throws {
        try runReporting {
            if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                let actor = try server.actingAccount()
                let answer = try words.run { try server.written(remote(actor), eventID: retry.id) }
                return report(global, answer.events, said(actor), placement: { answer.placement })
            }
            let session = try Session(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
            let actor = try session.actor()
            let appended = try words.run { try call(session, actor) }
            Session.report(global, appended, said(actor), placement: placement)
        }
    }
}
