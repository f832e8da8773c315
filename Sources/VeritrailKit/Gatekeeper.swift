import Domain
import LMDB
import Engine
import Projections

/// The passcode gate as the library meets it (cli.md §5): the engine decides, inside the write transaction,
/// whether an actor may act (`Store.appendGated`) and what an attempt records (`Store.attemptPasscode`).
enum Gatekeeper {
    /// A credential for a new passcode, peppered with `pepper` (`pbkdf2-sha256-hmac`) and salted for the event
    /// `eventID` when the write has an id; `.badPasscode` unless it is 4–8 digits, checked before the pepper is
    /// asked for (a store of version 1 moves its key out of LMDB to give it).
    static func credential(for passcode: String, pepper: () throws -> [UInt8],
                           eventID: String? = nil) throws(VeritrailError) -> Credential {
        try checkForm(passcode)
        return try VeritrailError.catching { try Passcodes.credential(for: passcode, pepper: try pepper(), eventID: eventID) }
    }

    /// Refuses a new passcode that is not 4–8 digits, the one place every caller's new passcode is checked.
    static func checkForm(_ passcode: String) throws(VeritrailError) {
        guard Passcodes.isWellFormed(passcode) else { throw .badPasscode("a passcode must be 4–8 digits") }
    }

    /// The words for a write the gate did not let through.
    static func message(_ refusal: GateRefusal) -> String {
        switch refusal {
        case .unset(let actor): "\(actor) has no passcode yet"
        case let .locked(actor, _, seconds): lockedMessage(actor, seconds: seconds)
        case .required(let actor): "\(actor) is not unlocked: unlock with the passcode first"
        }
    }

    static func lockedMessage(_ actor: String, seconds: Int64) -> String {
        "\(actor) is locked out after \(Lockout.maxFailures) wrong passcodes: try again in \(seconds) s"
    }
}

extension VeritrailStore {
    /// Checks `passcode` for `actor` and records the attempt in a transaction of its own: `locked` without
    /// checking while locked out, else `granted` or `denied`. Throws `.notAllowed` unless granted (with the
    /// lockout's seconds when the attempt locked the account or found it locked). A credential made with
    /// another store's pepper is not checked and no attempt is recorded (`ForeignCredential`).
    @discardableResult
    func attempt(_ actor: String, passcode: String) throws(VeritrailError) -> Grant {
        let attempt: PasscodeAttempt
        do {
            attempt = try store.attemptPasscode(actor, clock: clock) { credential in
                try Passcodes.matches(passcode, credential,
                                      pepper: credential.scheme == .pbkdf2SHA256HMAC ? try store.pepper() : nil)
            }
        } catch let foreign as ForeignCredential {
            throw .notAllowed("the passcode of \(actor) was set in another store and needs that store's secrets: "
                              + "open this store with them (--secrets FILE), or have an admin reset it here "
                              + "(`veritrail passcode set \(actor) --as ADMIN`)", lockedSeconds: nil, cause: foreign)
        } catch {
            throw VeritrailError.from(error)
        }
        switch attempt.outcome {
        case .granted:
            return Grant(seq: attempt.seq, at: attempt.at)
        case .locked:
            throw .notAllowed(Gatekeeper.lockedMessage(actor, seconds: attempt.lockedSeconds),
                              lockedSeconds: attempt.lockedSeconds, cause: nil)
        case .denied:
            if attempt.lockedSeconds > 0 {
                throw .notAllowed("wrong passcode: \(actor) is now locked out for \(attempt.lockedSeconds) s after \(Lockout.maxFailures) wrong passcodes",
                                  lockedSeconds: attempt.lockedSeconds, cause: nil)
            }
            let left = Lockout.maxFailures - attempt.lockout.failures
            throw .notAllowed("wrong passcode for \(actor) (\(left) attempt\(left == 1 ? "" : "s") left before a one-minute lockout)",
                              lockedSeconds: nil, cause: WrongPasscode())
        }
    }

    /// Builds the events with `make(at, models)` and appends them in one write transaction that checks the
    /// rules, then whether `actor` (unless nil) is unlocked. When the gate asks for the passcode and
    /// `passcode` gives one, the attempt is recorded and the write tried once more. With `options.dryRun`,
    /// everything is checked and nothing written.
    ///
    /// `make` may run more than once (the map grows, or after the passcode): it builds the same events each
    /// time. Their ids are drawn once here (or given, `options.eventID`): `ID`, `ID.2`, `ID.3`, …
    @discardableResult
    func appendGated(as actor: String?, passcode: PasscodeProvider?, options: WriteOptions = WriteOptions(), large: Bool = false,
                     progress: ((Int) -> Void)? = nil, _ make: (Timestamp, Models) throws -> [IncomingEvent]) throws(VeritrailError) -> [AppendedEvent] {
        try gated(as: actor, passcode: passcode, options: options) { eventID in
            try store.appendGated(actor: actor, clock: clock, commit: !options.dryRun, large: large, progress: progress) { at, models in
                try make(at, models).enumerated().map { index, event in
                    var event = event
                    event.id = try Gatekeeper.id(eventID, index)
                    return event
                }
            }
        }.result
    }

    /// `appendGated(large: true)` for a write whose events are too many to hold (a batch of scans): `feed`
    /// hands them one at a time to the sink it is given (`Store.appendGatedStream`), with the write's time,
    /// its transaction (to say how far it got: `Transaction.workDone`) and the id of its event `index`
    /// (`ID`, `ID.2`, …). Returns the write's id and its events as runs of seqs.
    func appendGatedStream(as actor: String?, passcode: PasscodeProvider?, options: WriteOptions, progress: ((Int) -> Void)?,
                           _ feed: (Timestamp, LMDB.Transaction, (Int) throws(VeritrailError) -> String, (IncomingEvent) throws -> Void) throws -> Void)
        throws(VeritrailError) -> (eventID: String, runs: AppendedRuns) {
        let (eventID, runs) = try gated(as: actor, passcode: passcode, options: options) { eventID in
            try store.appendGatedStream(actor: actor, clock: clock, commit: !options.dryRun, progress: progress) { at, _, transaction, sink in
                try withoutActuallyEscaping(sink) { sink in
                    try feed(at, transaction, { index throws(VeritrailError) in try Gatekeeper.id(eventID, index) }, sink)
                }
            }
        }
        return (eventID, runs)
    }

    /// The passcode gate around a write: `write` runs under the write's id (`options.eventID`, or one drawn
    /// here); when the gate asks for the passcode and `passcode` gives one, the attempt is recorded and the
    /// write tried once more. Returns the write's id and what it wrote.
    private func gated<T>(as actor: String?, passcode: PasscodeProvider?, options: WriteOptions,
                          _ write: (String) throws -> Result<T, GateRefusal>) throws(VeritrailError) -> (eventID: String, result: T) {
        let eventID = options.eventID ?? EventID.random()
        var asked = false
        while true {
            let outcome = try VeritrailError.catching {
                do {
                    return try write(eventID)
                } catch let e as CommitFailed {
                    throw VeritrailError.storeFailure(underlying: UncertainCommit(eventID: eventID, underlying: e))
                } catch let e as CheckpointNotKept {
                    throw VeritrailError.storeFailure(underlying: UnkeptCheckpoint(eventID: eventID, size: e.size, reason: e.reason))
                }
            }
            switch outcome {
            case .success(let written):
                return (eventID, written)
            case .failure(let refusal):
                guard !asked, case .required(let who) = refusal, let passcode, let given = try ask(passcode, who) else {
                    throw VeritrailError.from(refusal)
                }
                try attempt(who, passcode: given)
                asked = true
            }
        }
    }
}

extension VeritrailStore {
    /// `actor`'s passcode from `provider`; what it throws refuses the write as not allowed, with the
    /// provider's error as the cause (a command line that can not ask says why in its own words).
    private func ask(_ provider: PasscodeProvider, _ actor: String) throws(VeritrailError) -> String? {
        do {
            return try provider(actor)
        } catch {
            throw .notAllowed("\(error)", lockedSeconds: nil, cause: error)
        }
    }
}

extension Gatekeeper {
    /// The id of a write's event `index` (from 0): `eventID`, then `eventID.2`, `eventID.3`, … within the
    /// 64 bytes of an id (events.md §1).
    static func id(_ eventID: String, _ index: Int) throws(VeritrailError) -> String {
        let id = index == 0 ? eventID : "\(eventID).\(index + 1)"
        guard id.utf8.count <= 64 else {
            throw .malformed("--id must leave room for \".\(index + 1)\": at most \(63 - String(index + 1).utf8.count) characters", line: nil)
        }
        return id
    }
}

/// A granted passcode attempt: the `passcode.attempted` event that opened access for fifteen minutes.
public struct Grant: Sendable, Equatable {
    /// The seq of the granted attempt in the log.
    public var seq: UInt64
    /// Its time: access stays open until 900 s after it, unless a later event of the account ends it.
    public var at: Timestamp
}

extension VeritrailStore {
    /// Whether `passcode` has the form a passcode must have (4–8 ASCII digits, cli.md §4): a caller that asks
    /// for a new one can ask again before anything is hashed or written.
    public static func isWellFormedPasscode(_ passcode: String) -> Bool { Passcodes.isWellFormed(passcode) }
}

/// The cause of a refusal for a wrong passcode that did not lock the account: the server answers it 401
/// (server.md §7, "a wrong passcode"), where an act the account may not do is 403.
public struct WrongPasscode: Error, Sendable {}
