import Domain
public import StrictJSON

/// `accounts` (projections.md §6): every account, deleted ones too, by username.
public func accounts(_ context: QueryContext) throws -> JSONValue {
    J.object(["accounts": J.array(try context.models.allAccounts(history: .last).map { a in
        J.object(["username": J.string(a.username), "role": J.string(a.role.rawValue), "name": J.string(a.name),
                  "email": J.string(a.email), "deleted": J.bool(a.deleted), "registeredAt": J.time(a.registeredAt)])
    })])
}

/// `settings USER`: the scanner and history settings, defaults until changed.
public func settings(_ username: String, _ context: QueryContext) throws -> JSONValue {
    let s = try context.activeAccount(username).settings
    return J.object([
        "username": J.string(username), "flash": J.bool(s.flash), "captureMode": J.string(s.captureMode.rawValue),
        "historyWindow": J.string(s.historyWindow.rawValue), "color": J.string(s.color.rawValue),
        "windows": J.array(HistoryWindow.choices.map { J.string($0.rawValue) }),
    ])
}

/// `searches USER`: the last 10 distinct queries, newest first.
public func searches(_ username: String, _ context: QueryContext) throws -> JSONValue {
    J.object(["username": J.string(username),
              "recent": J.array(try context.activeAccount(username).searches.map(J.string))])
}

/// `replay` (projections.md §7): every projection at once, for the kept events and the clock.
public func replay(_ context: QueryContext) throws -> JSONValue {
    var goalsByUser: [(String, JSONValue)] = []
    for account in try context.models.allAccounts(history: .last) where !account.deleted {
        goalsByUser.append((account.username, try goals(account.username, month: nil, context)))
    }
    return J.object([
        "asOf": J.object(["seq": J.int(context.lastSeq), "at": J.timeOrNull(context.lastAt)]),
        "now": J.time(context.now),
        "stats": try stats(by: nil, context),
        "lockout": try lockout(nil, context),
        "customers": try customers(status: nil, context),
        "accounts": try accounts(context),
        "goals": J.object(goalsByUser),
    ])
}

/// `log status` (projections.md §7), from the totals the models keep with the log.
public func logStatus(_ totals: LogTotals, headSeq: UInt64, headHash: [UInt8]) -> JSONValue {
    let byType = EventType.choices.compactMap { t -> (String, JSONValue)? in
        let n = totals.byType[Int(t.storedIndex)]
        return n > 0 ? (t.rawValue, J.int(n)) : nil
    }
    return J.object([
        "events": J.int(totals.events),
        "head": J.object(["seq": J.int(headSeq), "hash": J.string(Hex.encode(headHash))]),
        "firstAt": J.timeOrNull(totals.firstAt), "lastAt": J.timeOrNull(totals.lastAt),
        "byType": J.object(byType),
    ])
}
