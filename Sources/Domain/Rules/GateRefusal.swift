/// Why a write was not let through the passcode gate (cli.md §5, projections.md §3).
public enum GateRefusal: Error, Sendable, Equatable {
    /// The actor has no passcode yet.
    case unset(actor: String)
    /// The actor is locked out after three wrong passcodes until `until`, `seconds` from the write's time
    /// (rounded up).
    case locked(actor: String, until: Timestamp, seconds: Int64)
    /// The actor must enter the passcode first: never unlocked, or the fifteen minutes ran out.
    case required(actor: String)

    /// The lock's remaining whole seconds at `now`, rounded up (projections.md §3 `remainingSeconds`).
    public static func seconds(until: Timestamp, from now: Timestamp) -> Int64 {
        max(0, (until.microseconds - now.microseconds + 999_999) / 1_000_000)
    }
}

/// An account that can not act: unknown, or deleted (cli.md §6: refused input, 65).
public struct InactiveAccount: Error, Sendable, Equatable, CustomStringConvertible {
    public var username: String
    public var deleted: Bool

    public init(username: String, deleted: Bool) {
        self.username = username
        self.deleted = deleted
    }

    public var description: String {
        deleted ? "account \"\(escapedForMessage(username, quotes: true))\" is deleted and can no longer act"
                : "no such account \"\(escapedForMessage(username, quotes: true))\""
    }
}
