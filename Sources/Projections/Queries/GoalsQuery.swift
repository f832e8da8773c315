public import Domain
public import StrictJSON

/// `goals USER [--month YYYY-MM]` (projections.md §5): monthly goal progress and the goal ring.
public func goals(_ username: String, month: Month?, _ context: QueryContext) throws -> JSONValue {
    _ = try context.activeAccount(username)
    let current = context.now.month
    let month = month ?? current
    guard month <= current else { throw QueryError.refused("goals: \(month) is in the future (only this month and past months)") }
    let record = try context.models.userMonth(username, month) ?? UserMonthRecord()
    var metrics: [JSONValue] = []
    for metric in GoalMetric.choices {
        let target = record.target(metric)
        let progress: Int64
        switch metric {
        case .jumps: progress = record.jumps
        case .calories: progress = record.calories
        case .scans: progress = record.scans
        }
        guard (target ?? 0) > 0 || (target == nil && progress > 0) else { continue }
        let session = metric == .scans ? nil : record.lastSession
        var ring: JSONValue = .null
        if let target {
            let reached = min(target, progress)
            let last = session.map { metric == .jumps ? $0.session.jumps : $0.session.calories } ?? 0
            ring = J.object([
                "progress": J.fraction(reached, target),
                "lastSession": J.object(["start": J.fraction(max(0, reached - last), target), "end": J.fraction(reached, target)]),
                "remaining": J.fraction(target - reached, target),
            ])
        }
        metrics.append(J.object([
            "metric": J.string(metric.rawValue), "target": target.map(J.int) ?? .null, "progress": J.int(progress),
            "percent": target.map { J.int(progress * 100 / $0) } ?? .null,
            "remaining": target.map { J.int(max(0, $0 - progress)) } ?? .null,
            "complete": J.bool(target.map { progress >= $0 } ?? false),
            "message": progress == 0 ? J.string("No \(metric.rawValue) yet this month") : .null,
            "lastSession": session.map { s in
                J.object([
                    "sessionId": J.string(s.session.sessionId), "date": J.string(s.session.date.description),
                    "park": J.string(s.session.park), "startTime": J.string(s.session.startTime.description),
                    "endTime": J.string(s.session.endTime.description), "jumps": J.int(s.session.jumps),
                    "calories": J.int(s.session.calories),
                ])
            } ?? .null,
            "ring": ring,
        ]))
    }
    var months = Set(try context.models.months(of: username).filter { $0 <= current })
    months.insert(current)
    return J.object([
        "username": J.string(username), "month": J.string(month.description), "metrics": J.array(metrics),
        "months": J.array(months.sorted(by: >).map { J.string($0.description) }),
    ])
}
