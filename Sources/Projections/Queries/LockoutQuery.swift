import Domain
public import StrictJSON

/// `lockout [USER]` (projections.md §3): the passcode gate of one account, or of every account.
public func lockout(_ username: String?, _ context: QueryContext) throws -> JSONValue {
    if let username { return lockoutJSON(try context.activeAccount(username), now: context.now) }
    let accounts = try context.models.allAccounts(history: .last).filter { !$0.deleted }
    return J.object(["accounts": J.array(accounts.map { lockoutJSON($0, now: context.now) })])
}

func lockoutJSON(_ account: AccountRecord, now: Timestamp) -> JSONValue {
    var gate = account.lockout
    gate.expire(at: now)
    let state = gate.state(at: now)
    let lockedUntil = state == .locked ? gate.lockedUntil : nil
    let unlockedUntil = gate.unlockedUntil.flatMap { now < $0 ? $0 : nil }
    var remaining: Int64 = 0
    if let lockedUntil {
        let micros = lockedUntil.microseconds - now.microseconds
        remaining = (micros + Timestamp.microsecondsPerSecond - 1) / Timestamp.microsecondsPerSecond
    }
    return J.object([
        "username": J.string(account.username), "state": J.string(state.rawValue), "failures": J.int(gate.failures),
        "attemptsLeft": J.int(Lockout.maxFailures - gate.failures), "lockedUntil": J.timeOrNull(lockedUntil),
        "remainingSeconds": J.int(remaining), "unlockedUntil": J.timeOrNull(unlockedUntil),
        "lastAttemptAt": J.timeOrNull(gate.lastAttemptAt),
        "lastOutcome": gate.lastOutcome.map { J.string($0.rawValue) } ?? .null,
        "totals": J.object(["granted": J.int(gate.granted), "denied": J.int(gate.denied), "locked": J.int(gate.locked)]),
    ])
}
