import Domain
import StrictJSON

extension ScanRow {
    /// The `SCAN` object of projections.md §1.
    var json: JSONValue {
        J.object([
            "scanId": J.string(scan.scanId), "at": J.time(at), "actor": J.string(actor), "code": J.string(scan.code),
            "productName": J.string(scan.productName), "brand": J.string(scan.brand), "category": J.string(scan.category),
            "result": J.string(scan.result.rawValue), "mode": J.string(scan.mode.rawValue),
            "source": J.string(scan.source.rawValue), "flash": J.bool(scan.flash), "location": J.string(scan.location),
            "batchId": J.string(scan.batchId), "notes": J.string(scan.notes), "seenBefore": J.int(seenBefore),
            "report": report.map { r in
                J.object(["reason": J.string(r.reason.rawValue), "message": J.string(r.message), "at": J.time(r.at),
                          "by": J.string(r.by)])
            },
        ])
    }
}
