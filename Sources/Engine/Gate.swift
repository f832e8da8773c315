public import LMDB
public import Domain
import EventLog
public import Projections

extension Store {
    /// Appends the events `make` builds, in one write transaction, and commits them only when `actor` (when
    /// given) is unlocked at their time *as this same transaction reads it*: a racing process that locks the
    /// account can not let one more write through. Otherwise nothing is written and the refusal says why.
    ///
    /// `make` gets the time the events carry (`clock`, but never before the head's `at`) and the read models
    /// as this transaction sees them. It may run more than once (the map grows), so it must build the same
    /// events each time: draw random ids before calling. The events are checked against every rule first, so
    /// a broken rule (`EventError`) is reported before the gate is looked at, and never asks for a passcode.
    /// An event whose id the log holds already, for the same actor and data, is not written again (a retry
    /// of a write that may have committed); for other data, it is refused.
    ///
    /// With `commit` false, everything is checked and nothing is written (what would be refused, is).
    ///
    /// With `large` (a batch of many events), the write is paged as an import's is (`Store.write(large:)`),
    /// and a refusal of the gate comes before the events are appended (see `appendChecked`); `progress`, when
    /// given, is called with how many events were appended so far, every 1,024 and at the end, so that a
    /// terminal can show a batch's write going on (it starts again when the write runs again).
    ///
    /// When the store groups its commits (`groupCommits`), a write that commits shares its transaction with
    /// the writes of other threads that arrive with it (`GroupCommitter`), checked against the state they leave.
    public func appendGated(actor: String?, clock: () -> Timestamp, commit: Bool = true, large: Bool = false,
                            progress: ((Int) -> Void)? = nil, _ make: (Timestamp, Models) throws -> [IncomingEvent]) throws -> Result<[AppendedEvent], GateRefusal> {
        if let committer, commit, !large {
            return try withoutActuallyEscaping(clock) { clock in
                try withoutActuallyEscaping(make) { make in
                    var appended: [AppendedEvent] = []
                    do {
                        try committer.run { appender in
                            switch try Store.appendChecked(&appender, actor: actor, clock: clock, make) {
                            case .success(let events): appended = events
                            case .failure(let refusal): throw refusal
                            }
                        }
                    } catch let refusal as GateRefusal {
                        return .failure(refusal)
                    }
                    return .success(appended)
                }
            }
        }
        return try write(large: large) { appender in
            let outcome = try Store.appendChecked(&appender, actor: actor, clock: clock, large: large, progress: progress, make)
            if case .failure = outcome { appender.rollBack() }
            if !commit { appender.rollBack() }
            return outcome
        }
    }

    /// The inside of `appendGated`: the events appended to `appender`'s transaction and the gate checked; a
    /// refusal leaves the events appended, for the caller to roll back.
    static func appendChecked(_ appender: inout Appender, actor: String?, clock: () -> Timestamp, large: Bool = false,
                              progress: ((Int) -> Void)? = nil, _ make: (Timestamp, Models) throws -> [IncomingEvent]) throws -> Result<[AppendedEvent], GateRefusal> {
        do {
            let at = Store.stamp(clock(), after: appender.head.at)
            // Read before the events are applied: they may change the actor's own gate (a passcode set).
            let gate = try Store.gate(of: actor, at: at, in: appender.models)
            func refusal() -> GateRefusal? { gate }
            let events = try make(at, appender.models)
            // A large write (a batch) that the gate will refuse is refused before its events are appended, so
            // that one that needs a passcode is not written twice (seconds each): its events were checked against
            // their field rules when they were read; the rules that need history come after the passcode then.
            if large, let first = events.first, try appender.retried(first) == nil, let refusal = refusal() {
                return .failure(refusal)
            }
            var appended: [AppendedEvent] = []
            for event in events {
                if let retried = try appender.retried(event) {
                    appended.append(retried)
                    continue
                }
                let seq = try appender.append(event).seq
                // An event without an id got one from the log: read back only then.
                let id = try event.id ?? appender.writer.reader.event(at: seq)?.event.id ?? ""
                appended.append(AppendedEvent(seq: seq, id: id, type: event.type, isNew: true))
                if let progress, appended.count & 1023 == 0 { progress(appended.count) }
            }
            progress?(appended.count)
            if appended.contains(where: \.isNew), let refusal = refusal() { return .failure(refusal) }
            return .success(appended)
        }
    }

    /// What the gate says to `actor` (nil: nobody) at `at`, as `models` hold its account: nil when it may write.
    static func gate(of actor: String?, at: Timestamp, in models: Models) throws -> GateRefusal? {
        guard let actor else { return nil }
        let lockout = try models.account(actor)?.lockout ?? Lockout()
        return switch lockout.state(at: at) {
        case .unlocked: nil
        case .unset: .unset(actor: actor)
        case .required: .required(actor: actor)
        case .locked:
            .locked(actor: actor, until: lockout.lockedUntil ?? at,
                    seconds: GateRefusal.seconds(until: lockout.lockedUntil ?? at, from: at))
        }
    }

    /// `appendGated(large: true)` for a write of more events than are worth holding (a batch of millions of
    /// scans): `feed` hands them one at a time to the sink it is given, stamped with the write's time, and
    /// they are appended as they come, in one write transaction, and told back as runs of seqs
    /// (`AppendedRuns`), not one by one. The write is paged (`Store.write(large:)`).
    ///
    /// As in `appendGated(large:)`, a write the gate refuses is refused when its first event comes, before
    /// anything is appended (unless that event is a retry: then after the last, should any be new); what
    /// the sink throws (a broken rule) ends the write with nothing written. `feed` may run more than once
    /// (the map grows): it must hand the same events each time. `feed` may say how far it got
    /// (`Transaction.workDone`, through `appender`'s transaction), so that a full map grows once by what
    /// the rest needs. `progress` is called every 1,024 events and at the end, as `appendGated`'s.
    public func appendGatedStream(actor: String?, clock: () -> Timestamp, commit: Bool = true, progress: ((Int) -> Void)? = nil,
                                  _ feed: (Timestamp, Models, LMDB.Transaction, (IncomingEvent) throws -> Void) throws -> Void) throws -> Result<AppendedRuns, GateRefusal> {
        // The refusal ends `feed` by an error, which `feed` may wrap in its own words: it is kept here too.
        struct Refused: Error {}
        var refused: GateRefusal?
        do {
            return try write(large: true) { appender in
                let at = Store.stamp(clock(), after: appender.head.at)
                let refusal = try Store.gate(of: actor, at: at, in: appender.models)
                var runs = AppendedRuns()
                try feed(at, appender.models, appender.writer.reader.transaction) { event in
                    if let retried = try appender.retried(event) {
                        runs.add(seq: retried.seq, isNew: false)
                    } else {
                        if let refusal, !runs.runs.contains(where: \.isNew) {
                            refused = refusal
                            throw Refused()
                        }
                        runs.add(seq: try appender.append(event).seq, isNew: true)
                    }
                    if let progress, runs.count & 1023 == 0 { progress(runs.count) }
                }
                progress?(runs.count)
                if !commit { appender.rollBack() }
                return .success(runs)
            }
        } catch {
            if let refused { return .failure(refused) }
            throw error
        }
    }

    /// The time an event written now carries: `now`, or the head's `at` when the clock is behind it (time
    /// never runs backwards in the log).
    public static func stamp(_ now: Timestamp, after head: Timestamp?) -> Timestamp {
        guard let head, head > now else { return now }
        return head
    }
}

extension Appender {
    /// Ends the write transaction without committing when its body returns.
    public func rollBack() { writer.reader.transaction.rollBack() }

    /// The event already logged under `event`'s id for the same actor and data (a command retried after a
    /// commit that may have succeeded), or nil when its id is new or absent. Its time is not compared: a
    /// retry is stamped anew. Throws when the id names another event.
    func retried(_ event: IncomingEvent) throws -> AppendedEvent? {
        guard let id = event.id, let seq = try writer.reader.seq(forId: id) else { return nil }
        guard let logged = try writer.reader.event(at: seq) else { throw StoreError("the id index names a missing event") }
        guard logged.event.actor == event.actor, logged.event.payload == event.payload else {
            throw EventError(type: event.type, path: "id",
                             rule: "\"\(escapedForMessage(id, quotes: true))\" is already in the log at seq \(seq), for another event")
        }
        return AppendedEvent(seq: seq, id: id, type: event.type, isNew: false)
    }
}

/// What a passcode attempt recorded, and the gate after it.
public struct PasscodeAttempt: Sendable, Equatable {
    /// `granted`, `denied`, or `locked` (the account was locked out: the passcode was not checked).
    public var outcome: AttemptOutcome
    /// The account's gate after the attempt.
    public var lockout: Lockout
    /// The attempt's time.
    public var at: Timestamp
    /// The seq of the `passcode.attempted` event that records it: a session granted by it (server.md §2)
    /// ends with any later event of the account's that ends access (a new passcode, a lockout, deletion).
    public var seq: UInt64

    /// Whole seconds the account stays locked out after the attempt (0 when it is not).
    public var lockedSeconds: Int64 {
        guard let until = lockout.lockedUntil, lockout.isLocked(at: at) else { return 0 }
        return GateRefusal.seconds(until: until, from: at)
    }
}

extension Store {
    /// The account `username` as it is now, for a command about to act as it: unknown or deleted accounts
    /// are refused (`InactiveAccount`).
    public func activeAccount(_ username: String) throws -> AccountRecord {
        guard let account = try read({ _, models in try models.account(username) }) else {
            throw InactiveAccount(username: username, deleted: false)
        }
        guard !account.deleted else { throw InactiveAccount(username: username, deleted: true) }
        return account
    }

    /// Records an attempt at `username`'s passcode, in a write transaction of its own (cli.md §6: the
    /// attempt stands whatever happens to the command after it), and returns it.
    ///
    /// `matches` checks the passcode against the account's credential: PBKDF2, slow on purpose, so it runs
    /// before the write transaction, and other writers are not held up by it. The outcome is decided inside
    /// the transaction, from the gate as it is then: `locked` (not checked) while locked out, else `granted`
    /// or `denied`. Should the credential change in between (a reset), the check runs again.
    public func attemptPasscode(_ username: String, clock: () -> Timestamp,
                                matches: (Credential) throws -> Bool) throws -> PasscodeAttempt {
        for _ in 0..<3 {
            guard let credential = try activeAccount(username).credential else { throw GateRefusal.unset(actor: username) }
            let matched = try matches(credential)
            let attempt: PasscodeAttempt? = try write { appender in
                guard let account = try appender.models.account(username), account.credential == credential else { return nil }
                let at = Store.stamp(clock(), after: appender.head.at)
                var gate = account.lockout
                gate.expire(at: at)
                let outcome: AttemptOutcome = gate.isLocked(at: at) ? .locked : (matched ? .granted : .denied)
                let event = IncomingEvent(at: at, actor: username,
                                          payload: .passcodeAttempted(PasscodeAttempted(username: username, outcome: outcome)))
                _ = try appender.append(event)
                return PasscodeAttempt(outcome: outcome, lockout: try appender.models.account(username)?.lockout ?? gate, at: at,
                                       seq: appender.head.seq)
            }
            if let attempt { return attempt }
        }
        throw StoreError("the passcode of \(username) kept changing while it was checked; try again")
    }
}
