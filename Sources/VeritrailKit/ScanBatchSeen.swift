public import Domain
import Engine
import EventLog
import Projections
public import StrictJSON

/// A scan of a batch whose code was scanned before it (projections.md §1 `seenBefore` > 0): worth a second
/// look, as a copied code is.
public struct SeenBeforeScan: Sendable, Equatable {
    /// The scan of the batch.
    public var scanId: String
    /// Its code.
    public var code: String
    /// How many scans earlier in the log (the batch's earlier rows included) had the same code.
    public var seenBefore: Int
}

extension VeritrailStore {
    /// The scans of a batch just recorded (`scan(batch:…)`'s answer) whose code was seen before, in the
    /// batch's order, read from the stored scan list in one snapshot: a batch's scans are consecutive in the
    /// log, so they are consecutive rows of the list from its first scan's row on.
    public func seenBefore(inBatch appended: [AppendedEvent]) throws(VeritrailError) -> [SeenBeforeScan] {
        let scans = appended.filter { $0.type == .scanRecorded }
        guard let first = scans.first else { return [] }
        return try VeritrailError.catching {
            try store.read { reader, models in
                guard let scan = try reader.recordedScan(at: first.seq), let start = try models.scanOrdinal(scan.scanId) else { return [] }
                var seen: [SeenBeforeScan] = []
                for ordinal in start..<start + UInt32(scans.count) {
                    let row = try models.scanRow(ordinal)
                    if row.seenBefore > 0 { seen.append(SeenBeforeScan(scanId: row.scan.scanId, code: row.scan.code, seenBefore: row.seenBefore)) }
                }
                return seen
            }
        }
    }
}

extension Answers {
    /// What `scan --batch --json` answers (and `POST /v1/scans/batch`): `events`'s answer with
    /// `"seenBefore": [{"scanId", "code", "seenBefore"}…]`, the batch's scans whose code was seen before.
    public static func batch(_ appended: [AppendedEvent], seen: [SeenBeforeScan]) -> JSONValue {
        guard case .object(var answer) = events(appended) else { return events(appended) }
        _ = answer.updateValue(.array(seen.map { scan in
            J.object([("scanId", J.string(scan.scanId)), ("code", J.string(scan.code)), ("seenBefore", J.int(scan.seenBefore))])
        }), forKey: "seenBefore")
        return .object(answer)
    }

    /// The scans `batch(_:seen:)` names, read back from its answer (a served batch's, for the client); those
    /// not in that form are left out.
    public static func seenBefore(in answer: JSONValue) -> [SeenBeforeScan] {
        (answer["seenBefore"]?.arrayValue ?? []).compactMap { item in
            guard let scanId = item["scanId"]?.stringValue, let code = item["code"]?.stringValue,
                  let seen = item["seenBefore"]?.intValue else { return nil }
            return SeenBeforeScan(scanId: scanId, code: code, seenBefore: Int(seen))
        }
    }
}
