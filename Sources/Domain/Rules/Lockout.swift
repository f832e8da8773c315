/// The passcode gate of one account (projections.md §3): three wrong passcodes lock it for a minute,
/// a right one opens it for fifteen.
///
/// The same value answers `lockout` queries and checks that a `passcode.attempted` agrees with the
/// rules at its `at`, so the engine and the projection can not disagree.
public struct Lockout: Sendable, Equatable {
    public static let maxFailures = 3
    public static let lockSeconds: Int64 = 60
    public static let unlockSeconds: Int64 = 900

    public var hasPasscode = false
    public var failures = 0
    public var lockedUntil: Timestamp?
    public var unlockedUntil: Timestamp?
    public var lastAttemptAt: Timestamp?
    public var lastOutcome: AttemptOutcome?
    public var granted = 0
    public var denied = 0
    public var locked = 0

    public init() {}

    /// Rule 1: a lock that has run out by `t` is cleared, and the failures with it.
    public mutating func expire(at t: Timestamp) {
        if let until = lockedUntil, t >= until {
            lockedUntil = nil
            failures = 0
        }
    }

    /// Rule 2: a new passcode starts from a clean gate.
    public mutating func passcodeSet(at t: Timestamp) {
        expire(at: t)
        hasPasscode = true
        failures = 0
        lockedUntil = nil
        unlockedUntil = nil
    }

    /// Rules 3–5.
    public mutating func attempt(_ outcome: AttemptOutcome, at t: Timestamp) {
        expire(at: t)
        lastAttemptAt = t
        lastOutcome = outcome
        switch outcome {
        case .granted:
            granted += 1
            failures = 0
            unlockedUntil = t.adding(seconds: Lockout.unlockSeconds)
        case .denied:
            denied += 1
            failures += 1
            if failures >= Lockout.maxFailures {
                lockedUntil = t.adding(seconds: Lockout.lockSeconds)
                unlockedUntil = nil
            }
        case .locked:
            locked += 1
        }
    }

    /// Whether the account is locked out at `t` (rule 1 applied first).
    public func isLocked(at t: Timestamp) -> Bool {
        guard let until = lockedUntil else { return false }
        return t < until
    }

    public enum State: String, Sendable { case unset, locked, unlocked, required }

    /// The gate's state at `now`, the first that holds: unset, locked, unlocked, required.
    public func state(at now: Timestamp) -> State {
        var gate = self
        gate.expire(at: now)
        if !gate.hasPasscode { return .unset }
        if gate.isLocked(at: now) { return .locked }
        if let until = gate.unlockedUntil, now < until { return .unlocked }
        return .required
    }
}
