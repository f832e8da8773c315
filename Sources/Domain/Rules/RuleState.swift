/// What the rules of events.md need to know of one account.
public struct AccountFacts: Sendable, Equatable {
    public var role: Role
    public var deleted: Bool
    /// Registered by `system` (the first admin, which `system` may also give its first passcode).
    public var registeredBySystem: Bool
    public var lockout: Lockout
    /// The process status, for customers.
    public var status: CustomerStatus?
    /// Whether a `fitness.updated` was recorded for the account (a calorie goal needs one).
    public var hasFitness: Bool

    public init(role: Role, deleted: Bool = false, registeredBySystem: Bool = false, lockout: Lockout = Lockout(),
                status: CustomerStatus? = nil, hasFitness: Bool = false) {
        self.role = role; self.deleted = deleted; self.registeredBySystem = registeredBySystem
        self.lockout = lockout; self.status = status; self.hasFitness = hasFitness
    }
}

/// The history that the rules of events.md consult, kept up to date as the log grows (never found by
/// rescanning the log). The stored read models and the in-memory replay both provide it.
public protocol RuleState {
    func accountFacts(_ username: String) throws -> AccountFacts?
    /// The username of the account that is not deleted and has this e-mail, compared case-insensitively.
    func emailOwner(_ email: String) throws -> String?
    /// Whether the scan exists (nil when not) and whether it was reported.
    func scanIsReported(_ scanId: String) throws -> Bool?
    func hasSession(username: String, sessionId: String) throws -> Bool
    /// Admins that are not deleted.
    func activeAdminCount() throws -> Int
    /// The `at` of the last event in the log.
    func lastAt() throws -> Timestamp?
}
