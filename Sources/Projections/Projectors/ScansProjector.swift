import Domain
import EventLog

/// Scans and their reports: the scan statistics (`stats`, overall and per actor), each actor's scans in
/// the month (`userMonths`), the count of scans (in the totals), and the scan list with its indexes, which
/// the models' `ScanListStrategy` keeps.
enum ScansProjector {
    /// A new scan, known by its counts; `row` makes its row ready when the scan list needs it.
    static func apply(_ scan: CountedScan, seq: UInt64, in models: Models, row: () -> PreparedScan) throws {
        var place = ScanPlace(ordinal: 0, ofActor: 0)
        try models.updateTotals { t in
            t.scans += 1
            place.ordinal = t.scans
        }
        try models.update(stats: .all) { $0.add(category: scan.category, counterfeit: scan.isCounterfeit, at: scan.at) }
        try models.update(stats: .actor(scan.actor)) { s in
            s.add(category: scan.category, counterfeit: scan.isCounterfeit, at: scan.at)
            place.ofActor = UInt32(s.total)
        }
        try models.update(scan.actor, scan.at.month) { $0.scans += 1 }
        guard let index = models.searchIndex, !index.keepsStoredSets else { return try models.scanList.add(row, seq: seq, place: place, in: models) }
        let prepared = row()
        try models.scanList.add({ prepared }, seq: seq, place: place, in: models)
        try prepared.withHeaderAndScanId { header, _ in
            let text = try ScanRowHeader(header, reportsThrough: .max).searchText
            try index.add(ordinal: place.ordinal, text: text, counterfeit: scan.isCounterfeit, category: scan.category,
                          actor: scan.actor, to: models.tables)
        }
    }

    static func apply(_ p: CounterfeitReported, seq: UInt64, at: Timestamp, by actor: String, in models: Models) throws {
        guard let ordinal = try models.scanOrdinal(p.scanId) else { return }
        let report = ScanRow.Report(seq: seq, reason: p.reason, message: p.message, at: at, by: actor)
        let scanActor = try models.scanList.report(report, onScan: ordinal, in: models)
        if let message = p.message { try models.searchIndex?.addMessage(message, ordinal: ordinal, seq: seq, to: models.tables) }
        try models.update(stats: .all) { $0.reported += 1 }
        try models.update(stats: .actor(scanActor)) { $0.reported += 1 }
    }
}
