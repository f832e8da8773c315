import Domain
import Engine
import Projections

/// The passcode gate in front of every writing command (cli.md §5): an actor acts only while unlocked;
/// otherwise the passcode is asked (when it can be read) and the attempt is recorded in its own
/// transaction, whatever happens to the command after it.
struct Gate {
    let store: Store
    let reader: PasscodeReader

    /// Makes sure `actor` is unlocked at `now`, asking for the passcode when needed.
    func ensureUnlocked(_ actor: String) throws {
        let account = try Gate.activeAccount(actor, in: store)
        let now = try stamp()
        switch account.lockout.state(at: now) {
        case .unlocked:
            return
        case .unset:
            throw Failure.notAllowed("\(actor) has no passcode yet: set one with `veritrail passcode set --as \(actor)`")
        case .locked:
            throw Failure.notAllowed(Gate.lockedMessage(account.lockout, actor: actor, now: now))
        case .required:
            guard reader.canRead else {
                throw Failure.notAllowed("\(actor) is not unlocked: run `veritrail unlock --as \(actor)` or pass --passcode-stdin")
            }
            guard let passcode = try reader.read("Passcode for \(actor): ") else {
                throw Failure.notAllowed("no passcode given for \(actor)")
            }
            try attempt(actor, passcode: passcode)
        }
    }

    /// Checks `passcode` for `actor` and records the attempt: `locked` without checking while locked out,
    /// else `granted` or `denied`. Throws exit 77 unless granted.
    func attempt(_ actor: String, passcode: String) throws {
        let account = try Gate.activeAccount(actor, in: store)
        guard let credential = account.credential else {
            throw Failure.notAllowed("\(actor) has no passcode yet: set one with `veritrail passcode set --as \(actor)`")
        }
        // The hash is computed outside the write transaction, so other writers are not held up by PBKDF2.
        let matches = try Passcodes.matches(passcode, credential)
        let after: Lockout = try store.write { appender in
            let now = EventBuilder.stamp(after: appender.head.at)
            var gate = try appender.models.account(actor)?.lockout ?? Lockout()
            gate.expire(at: now)
            let outcome: AttemptOutcome = gate.isLocked(at: now) ? .locked : (matches ? .granted : .denied)
            _ = try appender.append(try EventBuilder.event(.passcodeAttempted, actor: actor, at: now, data: [
                ("username", J.string(actor)), ("outcome", J.string(outcome.rawValue)),
            ]))
            return try appender.models.account(actor)?.lockout ?? Lockout()
        }
        let now = try stamp()
        switch after.lastOutcome {
        case .granted?: return
        case .locked?: throw Failure.notAllowed(Gate.lockedMessage(after, actor: actor, now: now))
        default:
            if after.isLocked(at: now) {
                throw Failure.notAllowed("wrong passcode; \(actor) is now locked out: \(Gate.lockedMessage(after, actor: actor, now: now))")
            }
            let left = Lockout.maxFailures - after.failures
            throw Failure.notAllowed("wrong passcode for \(actor) (\(left) attempt\(left == 1 ? "" : "s") left before a one-minute lockout)")
        }
    }

    /// The account that is to act: unknown or deleted accounts are refused input (65), not "not allowed".
    static func activeAccount(_ username: String, in store: Store) throws -> AccountRecord {
        guard let account = try store.read({ _, models in try models.account(username) }) else {
            throw Failure.refused("no such account \"\(username)\"")
        }
        guard !account.deleted else { throw Failure.refused("account \"\(username)\" is deleted and can no longer act") }
        return account
    }

    static func lockedMessage(_ lockout: Lockout, actor: String, now: Timestamp) -> String {
        let micros = (lockout.lockedUntil?.microseconds ?? now.microseconds) - now.microseconds
        let seconds = max(0, (micros + 999_999) / 1_000_000)
        return "\(actor) is locked out after 3 wrong passcodes: try again in \(seconds) s"
    }

    /// The time the next event would carry.
    func stamp() throws -> Timestamp {
        try store.read { reader, _ in EventBuilder.stamp(after: try reader.head().at) }
    }
}
