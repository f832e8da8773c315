import Domain

/// Accounts and what hangs off one (the `accounts` table: profile, passcode gate and lockout, settings,
/// recent searches, a customer's process status, fitness), the e-mail index (`emails`) and the count of
/// active admins (in the totals).
enum AccountsProjector {
    static func apply(_ p: AccountRegistered, at: Timestamp, by actor: String, in models: Models) throws {
        models.put(AccountRecord(registered: p, at: at, by: actor))
        try models.tables.put(.emails, emailKey(p.email), Array(p.username.utf8))
        if p.role == .admin { try models.updateTotals { $0.activeAdmins += 1 } }
    }

    static func apply(_ p: AccountUpdated, in models: Models) throws {
        try change(p.username, in: models) { a in
            if let v = p.name { a.name = v }
            if let v = p.phone { a.phone = v }
            if let v = p.website { a.website = v }
            if let v = p.address { a.address = v }
            if let v = p.geo { a.geo = v }
            if let v = p.company { a.company = v }
        }
    }

    static func apply(_ p: AccountDeleted, in models: Models) throws {
        guard var a = try models.account(p.username) else { return }
        a.deleted = true
        models.put(a)
        try models.tables.delete(.emails, emailKey(a.email))
        if a.role == .admin { try models.updateTotals { $0.activeAdmins -= 1 } }
    }

    static func apply(_ p: PasscodeSet, at: Timestamp, in models: Models) throws {
        try change(p.username, in: models) { a in
            a.lockout.passcodeSet(at: at)
            a.credential = p.credential
        }
    }

    static func apply(_ p: PasscodeAttempted, at: Timestamp, in models: Models) throws {
        try change(p.username, in: models) { $0.lockout.attempt(p.outcome, at: at) }
    }

    static func apply(_ p: SettingsChanged, in models: Models) throws {
        try change(p.username, in: models) { a in
            if let v = p.flash { a.settings.flash = v }
            if let v = p.captureMode { a.settings.captureMode = v }
            if let v = p.historyWindow { a.settings.historyWindow = v }
            if let v = p.color { a.settings.color = v }
        }
    }

    /// The ten most recent distinct searches, newest first (a repeat, in any case, moves to the front).
    static func apply(_ p: SearchPerformed, in models: Models) throws {
        try change(p.username, in: models) { a in
            let folded = CaseFolding.lowercasedUTF8(p.query)
            a.searches.removeAll { CaseFolding.lowercasedUTF8($0) == folded }
            a.searches.insert(p.query, at: 0)
            if a.searches.count > 10 { a.searches.removeLast(a.searches.count - 10) }
        }
    }

    static func apply(_ p: StatusChanged, at: Timestamp, by actor: String, in models: Models) throws {
        try change(p.username, in: models) { a in
            a.statusHistory.append(AccountRecord.StatusEntry(status: p.status, at: at, by: actor, note: p.note))
        }
    }

    static func apply(_ p: FitnessUpdated, in models: Models) throws {
        try change(p.username, in: models) { a in
            a.fitness = AccountRecord.Fitness(bodyType: p.bodyType, heightInches: p.heightInches)
        }
    }

    /// Changes the account `username`, when there is one (the rules made sure of it).
    private static func change(_ username: String, in models: Models, _ body: (inout AccountRecord) -> Void) throws {
        guard var a = try models.account(username) else { return }
        body(&a)
        models.put(a)
    }

    /// The key of an e-mail in `emails`: the SHA-256 of its lower-cased form.
    static func emailKey(_ email: String) -> [UInt8] { Models.digestKey(CaseFolding.lowercased(email), bytes: 32) }
}
