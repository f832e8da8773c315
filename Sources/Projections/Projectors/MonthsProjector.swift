import Domain

/// Each user's months (`userMonths`: goals, jumps, calories, the last session) and the sessions recorded
/// (`sessions`, which makes a session id unique per user).
enum MonthsProjector {
    static func apply(_ p: GoalSet, in models: Models) throws {
        try models.update(p.username, p.month) { $0.targets[Int(p.metric.storedIndex)] = p.target }
    }

    static func apply(_ p: SessionRecorded, seq: UInt64, in models: Models) throws {
        try models.tables.insert(.sessions, Models.sessionKey(p.username, p.sessionId), [])
        let summary = UserMonthRecord.SessionSummary(seq: seq, session: p)
        try models.update(p.username, p.date.month) { m in
            m.jumps += p.jumps
            m.calories += p.calories
            if m.lastSession.map({ summary.isAfter($0) }) ?? true { m.lastSession = summary }
        }
    }
}
