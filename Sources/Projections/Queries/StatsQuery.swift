import Domain
public import StrictJSON

/// `stats [--by USER]` (projections.md §2): the home screen's numbers.
public func stats(by actor: String?, _ context: QueryContext) throws -> JSONValue {
    if let actor { _ = try context.knownAccount(actor) }
    let models = context.models
    let record = try models.stats(StatsScope(actor: actor))
    let scans = try ScanSequence(models: models, actor: actor)
    var recent: [JSONValue] = []
    var position = scans.count
    while position > 0 && recent.count < 5 {
        recent.append(try models.scanRow(try scans.ordinal(at: position)).json)
        position -= 1
    }
    let byCategory = record.categories.sorted { a, b in
        a.total != b.total ? a.total > b.total : codePointPrecedes(a.category, b.category)
    }
    return J.object([
        "total": J.int(record.total), "authentic": J.int(record.authentic), "counterfeit": J.int(record.counterfeit),
        "reported": J.int(record.reported), "counterfeitRate": J.fraction(Int64(record.counterfeit), Int64(record.total)),
        "today": J.int(try scans.count(in: .today, now: context.now)),
        "last7d": J.int(try scans.count(in: .sevenDays, now: context.now)),
        "last30d": J.int(try scans.count(in: .thirtyDays, now: context.now)),
        "byCategory": J.array(byCategory.map { c in
            J.object(["category": J.string(c.category), "total": J.int(c.total), "counterfeit": J.int(c.counterfeit)])
        }),
        "recent": J.array(recent),
        "firstScanAt": J.timeOrNull(record.firstScanAt), "lastScanAt": J.timeOrNull(record.lastScanAt),
    ])
}
