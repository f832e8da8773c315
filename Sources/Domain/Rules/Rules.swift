/// The rules of events.md that need history: who may, uniqueness, references, the lockout consistency of
/// `passcode.attempted`, the fitness precondition, and that time never runs backwards.
///
/// `import` and every writing command call this one function, against the state kept as the log grows.
public enum Rules {
    public static func check(_ e: IncomingEvent, against state: some RuleState) throws -> Void {
        let type = e.type
        func refuse(_ path: String, _ rule: String) -> EventError { EventError(type: type, path: path, rule: rule) }
        /// A broken "who may" rule.
        func deny(_ rule: String) -> EventError { EventError(type: type, path: "actor", rule: rule, isPermission: true) }

        if let last = try state.lastAt(), e.at < last {
            throw refuse("at", "must not be earlier than the event before it (\(last)), got \"\(e.at)\"")
        }

        /// The actor as an account that may act, or nil for `system` and self-registration.
        func actingAccount() throws -> AccountFacts {
            guard let facts = try state.accountFacts(e.actor) else {
                throw refuse("actor", "no such account \"\(escapedForMessage(e.actor, quotes: true))\"")
            }
            guard !facts.deleted else { throw refuse("actor", "account \"\(e.actor)\" is deleted and can no longer act") }
            return facts
        }
        /// The account an event is about, which must exist and not be deleted.
        func subject(_ username: String) throws -> AccountFacts {
            guard let facts = try state.accountFacts(username) else {
                throw EventError(type: type, path: "data.username", rule: "no such account \"\(escapedForMessage(username, quotes: true))\"", isUnknownAccount: true)
            }
            guard !facts.deleted else {
                throw EventError(type: type, path: "data.username", rule: "account \"\(username)\" is deleted", isUnknownAccount: true)
            }
            return facts
        }
        func requireSelf(_ username: String) throws {
            guard e.actor == username else {
                throw deny("only the account itself may do this (actor \"\(e.actor)\", data.username \"\(username)\")")
            }
        }
        func requireSelfOrAdmin(_ username: String, _ actor: AccountFacts) throws {
            guard e.actor == username || actor.role == .admin else {
                throw deny("only the account itself or an admin may do this (actor \"\(e.actor)\" is \(article(actor.role)))")
            }
        }
        func requireAdmin(_ actor: AccountFacts) throws {
            guard actor.role == .admin else { throw deny("only an admin may do this (actor \"\(e.actor)\" is \(article(actor.role)))") }
        }
        if e.actor == "system" && type != .accountRegistered && type != .passcodeSet {
            throw deny("\"system\" writes only the first admin's account.registered and passcode.set")
        }

        switch e.payload {
        case .accountRegistered(let p):
            if e.actor == "system" {
                guard p.role == .admin else { throw deny("\"system\" may register only the first admin") }
                guard try state.activeAdminCount() == 0 else {
                    throw deny("\"system\" may register an admin only while the log holds none")
                }
            } else if e.actor == p.username {
                guard p.role == .customer else {
                    throw deny("an account may register itself only as a customer")
                }
            } else {
                try requireAdmin(try actingAccount())
            }
            if try state.accountFacts(p.username) != nil {
                throw refuse("data.username", "\"\(p.username)\" is taken (usernames are never reused)")
            }
            if let owner = try state.emailOwner(p.email) {
                throw refuse("data.email", "\(quoted(p.email)) is already the e-mail of \"\(owner)\"")
            }

        case .accountUpdated(let p):
            try requireSelfOrAdmin(p.username, try actingAccount())
            _ = try subject(p.username)

        case .accountDeleted(let p):
            try requireAdmin(try actingAccount())
            let target = try subject(p.username)
            if target.role == .admin, try state.activeAdminCount() <= 1 {
                throw refuse("data.username", "\"\(p.username)\" is the last admin and can not be deleted")
            }

        case .passcodeSet(let p):
            if e.actor == "system" {
                let target = try subject(p.username)
                guard target.registeredBySystem, target.role == .admin, !target.lockout.hasPasscode else {
                    throw deny("\"system\" may set only the first admin's first passcode")
                }
            } else {
                try requireSelfOrAdmin(p.username, try actingAccount())
                _ = try subject(p.username)
            }

        case .passcodeAttempted(let p):
            _ = try actingAccount()
            try requireSelf(p.username)
            let target = try subject(p.username)
            guard target.lockout.hasPasscode else { throw refuse("data.username", "\"\(p.username)\" has no passcode to attempt") }
            var gate = target.lockout
            gate.expire(at: e.at)
            let isLocked = gate.isLocked(at: e.at)
            if isLocked && p.outcome != .locked {
                throw refuse("data.outcome", "must be \"locked\": \"\(p.username)\" is locked out until \(gate.lockedUntil!), got \"\(p.outcome.rawValue)\"")
            }
            if !isLocked && p.outcome == .locked {
                throw refuse("data.outcome", "can not be \"locked\": \"\(p.username)\" is not locked out at \(e.at)")
            }

        case .scanRecorded(let p):
            _ = try actingAccount()
            if try state.scanIsReported(p.scanId) != nil {
                throw refuse("data.scanId", "\"\(p.scanId)\" is already in the log (scan ids are unique)")
            }

        case .counterfeitReported(let p):
            _ = try actingAccount()
            switch try state.scanIsReported(p.scanId) {
            case nil: throw refuse("data.scanId", "no such scan \"\(escapedForMessage(p.scanId, quotes: true))\"")
            case true?: throw refuse("data.scanId", "scan \"\(p.scanId)\" was already reported (one report a scan)")
            case false?: break
            }

        case .settingsChanged(let p):
            _ = try actingAccount()
            try requireSelf(p.username)

        case .searchPerformed(let p):
            _ = try actingAccount()
            try requireSelf(p.username)

        case .statusChanged(let p):
            try requireAdmin(try actingAccount())
            let target = try subject(p.username)
            guard target.role == .customer, let current = target.status else {
                throw refuse("data.username", "\"\(p.username)\" is not a customer")
            }
            guard current != p.status else {
                throw refuse("data.status", "must differ from the current status, got \"\(p.status.rawValue)\"")
            }

        case .fitnessUpdated(let p):
            _ = try actingAccount()
            try requireSelf(p.username)

        case .goalSet(let p):
            _ = try actingAccount()
            try requireSelf(p.username)
            let target = try subject(p.username)
            guard p.month >= e.at.month else {
                throw refuse("data.month", "must not be before the month of at (\(e.at.month)), got \"\(p.month)\"")
            }
            if p.metric == .calories && p.target > 0 && !target.hasFitness {
                throw refuse("data.target", "a calories goal above 0 needs a fitness.updated for \"\(p.username)\" first")
            }

        case .sessionRecorded(let p):
            try requireSelfOrAdmin(p.username, try actingAccount())
            _ = try subject(p.username)
            guard p.date <= e.at.date else {
                throw refuse("data.date", "must not be after the date of at (\(e.at.date)), got \"\(p.date)\"")
            }
            if try state.hasSession(username: p.username, sessionId: p.sessionId) {
                throw refuse("data.sessionId", "\"\(p.sessionId)\" is already a session of \"\(p.username)\"")
            }
        }
    }

    private static func article(_ role: Role) -> String { role == .admin || role == .inspector ? "an \(role.rawValue)" : "a \(role.rawValue)" }
}
