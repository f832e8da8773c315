public import Domain
public import StrictJSON

/// `customers [--status S]` (projections.md §4): the admin's list of customers and their process.
public func customers(status: CustomerStatus?, _ context: QueryContext) throws -> JSONValue {
    let all = try context.models.allAccounts(history: .last).filter { $0.role == .customer && !$0.deleted }
    let sorted = all.map { (key: CaseFolding.lowercasedUTF8($0.name), account: $0) }.sorted { a, b in
        a.key != b.key ? a.key.lexicographicallyPrecedes(b.key) : codePointPrecedes(a.account.username, b.account.username)
    }
    var counts = [Int](repeating: 0, count: CustomerStatus.choices.count)
    var rows: [JSONValue] = []
    for (_, account) in sorted {
        guard let current = account.statusHistory.last else { continue }
        counts[Int(current.status.storedIndex)] += 1
        if let status, status != current.status { continue }
        rows.append(J.object([
            "username": J.string(account.username), "name": J.string(account.name), "email": J.string(account.email),
            "phone": J.string(account.phone), "city": J.string(account.address?.city),
            "status": J.string(current.status.rawValue), "color": J.string(current.status.color),
            "since": J.time(current.at), "changedBy": J.string(current.by),
        ]))
    }
    let countPairs = CustomerStatus.choices.map { ($0.rawValue, J.int(counts[Int($0.storedIndex)])) }
    return J.object(["customers": J.array(rows), "counts": J.object(countPairs)])
}

/// `customer show USER`: every registered detail, the status, and its history oldest first.
public func customerShow(_ username: String, _ context: QueryContext) throws -> JSONValue {
    let a = try context.activeAccount(username)
    guard a.role == .customer, let current = a.status else { throw QueryError.refused("\"\(username)\" is not a customer") }
    return J.object([
        "username": J.string(a.username), "name": J.string(a.name), "email": J.string(a.email), "phone": J.string(a.phone),
        "website": J.string(a.website), "address": a.address.map(J.address), "geo": a.geo.map(J.geo),
        "company": a.company.map(J.company), "registeredAt": J.time(a.registeredAt), "status": J.string(current.rawValue),
        "color": J.string(current.color),
        "statusHistory": J.array(a.statusHistory.map { e in
            J.object(["status": J.string(e.status.rawValue), "at": J.time(e.at), "by": J.string(e.by), "note": J.string(e.note)])
        }),
    ])
}
