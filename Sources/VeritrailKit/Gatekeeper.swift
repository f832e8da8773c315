import Domain
import Engine
import Projections

/// The passcode gate as the library meets it (cli.md §5): the engine decides, inside the write transaction,
/// whether an actor may act (`Store.appendGated`) and what an attempt records (`Store.attemptPasscode`).
enum Gatekeeper {
    /// A credential for a new passcode; `.malformed` unless it is 4–8 digits.
    static func credential(for passcode: String) throws(VeritrailError) -> Credential {
        guard Passcodes.isWellFormed(passcode) else { throw .malformed("a passcode is 4–8 digits", line: nil) }
        return try VeritrailError.catching { try Passcodes.credential(for: passcode) }
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
    /// lockout's seconds when the attempt locked the account or found it locked).
    func attempt(_ actor: String, passcode: String) throws(VeritrailError) {
        let attempt = try VeritrailError.catching {
            try store.attemptPasscode(actor, clock: clock) { credential in try Passcodes.matches(passcode, credential) }
        }
        switch attempt.outcome {
        case .granted:
            return
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
                              lockedSeconds: nil, cause: nil)
        }
    }

    /// Builds the events with `make(at, models)` and appends them in one write transaction that checks the
    /// rules, then whether `actor` (unless nil) is unlocked. When the gate asks for the passcode and
    /// `passcode` gives one, the attempt is recorded and the write tried once more.
    ///
    /// `make` may run more than once (the map grows, or after the passcode): it builds the same events each
    /// time. Their ids are drawn once here: `ID`, `ID.2`, `ID.3`, …
    @discardableResult
    func appendGated(as actor: String?, passcode: PasscodeProvider?,
                     _ make: (Timestamp, Models) throws -> [IncomingEvent]) throws(VeritrailError) -> [AppendedEvent] {
        let eventID = EventID.random()
        var asked = false
        while true {
            let outcome = try VeritrailError.catching {
                try store.appendGated(actor: actor, clock: clock) { at, models in
                    try make(at, models).enumerated().map { index, event in
                        var event = event
                        event.id = index == 0 ? eventID : "\(eventID).\(index + 1)"
                        return event
                    }
                }
            }
            switch outcome {
            case .success(let appended):
                return appended
            case .failure(let refusal):
                guard !asked, case .required(let who) = refusal, let passcode,
                      let given = try VeritrailError.catching({ try passcode(who) }) else { throw VeritrailError.from(refusal) }
                try attempt(who, passcode: given)
                asked = true
            }
        }
    }
}
