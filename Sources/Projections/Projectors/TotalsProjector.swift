import Domain

/// The log's totals (the `meta` table): how many events of each type, the first and last `at`. Every event
/// passes here first.
enum TotalsProjector {
    static func count(_ type: EventType, at: Timestamp, in models: Models) throws {
        try models.updateTotals { t in
            t.events += 1
            if t.firstAt == nil { t.firstAt = at }
            t.lastAt = at
            t.byType[Int(type.storedIndex)] += 1
        }
    }
}
