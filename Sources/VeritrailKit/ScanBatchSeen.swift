import Domain
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

    public init(scanId: String, code: String, seenBefore: Int) {
        self.scanId = scanId
        self.code = code
        self.seenBefore = seenBefore
    }
}

/// What people are told of a batch's codes seen before: how many, and the first few.
public struct SeenBeforeSummary: Sendable, Equatable {
    /// How many scans of the batch had a code seen before.
    public var count = 0
    /// The first of them (`listed` at most), in the batch's order.
    public var first: [SeenBeforeScan] = []

    public init(count: Int = 0, first: [SeenBeforeScan] = []) {
        self.count = count
        self.first = first
    }
}

extension VeritrailStore {
    /// Calls `body` with each scan of a batch just recorded whose code was seen before, in the batch's order,
    /// read from the stored scan list in one snapshot: a batch's scans are consecutive in the log, so they are
    /// consecutive rows of the list from its first scan's row on. Nothing is held: a batch of millions is told
    /// scan by scan. None for a batch that was recorded already (a retry wrote nothing).
    public func forEachSeenBefore(inBatch batch: RecordedBatch, _ body: (SeenBeforeScan) throws -> Void) throws(VeritrailError) {
        guard !batch.alreadyRecorded, let first = batch.events.runs.first else { return }
        try VeritrailError.catching {
            try store.read { reader, models in
                guard let scan = try reader.recordedScan(at: first.firstSeq), let start = try models.scanOrdinal(scan.scanId) else { return }
                for ordinal in start..<start + UInt32(batch.count) {
                    let row = try models.scanRow(ordinal)
                    if row.seenBefore > 0 { try body(SeenBeforeScan(scanId: row.scan.scanId, code: row.scan.code, seenBefore: row.seenBefore)) }
                }
            }
        }
    }

    /// How many scans of `batch` had a code seen before, and the first `listed` of them.
    public func seenBefore(inBatch batch: RecordedBatch, listed: Int = 10) throws(VeritrailError) -> SeenBeforeSummary {
        var summary = SeenBeforeSummary()
        try forEachSeenBefore(inBatch: batch) { scan in
            summary.count += 1
            if summary.first.count < listed { summary.first.append(scan) }
        }
        return summary
    }

    /// Writes what `scan --batch --json` answers (and `POST /v1/scans/batch`) for `batch` to `sink`, in pieces
    /// of about 64 KiB, never held whole: the canonical JSON (RFC 8785, keys in order) of `{"events": [{"id",
    /// "seq", "type"}…], "seenBefore": [{"code", "scanId", "seenBefore"}…]}` with `"alreadyRecorded": true`
    /// first for a batch recorded already, and a line end: byte for byte `Answers.events` with the scans seen
    /// before (all of them, in the batch's order; `[]` for none), as cli.md asks of every write's answer.
    public func writeBatchAnswer(_ batch: RecordedBatch, to sink: (UnsafeRawBufferPointer) throws -> Void) throws(VeritrailError) {
        var out: [UInt8] = []
        out.reserveCapacity(BatchAnswer.piece + 4_096)
        func flush(_ force: Bool) throws {
            guard force || out.count >= BatchAnswer.piece else { return }
            try out.withUnsafeBytes { try sink($0) }
            out.removeAll(keepingCapacity: true)
        }
        try VeritrailError.catching {
            out += (batch.alreadyRecorded ? #"{"alreadyRecorded":true,"events":["# : #"{"events":["#).utf8
            var comma = false
            try batch.forEachEvent { event in
                if comma { out.append(UInt8(ascii: ",")) }
                comma = true
                out += canonicalJSON(J.object([("seq", J.int(event.seq)), ("id", J.string(event.id)), ("type", J.string(event.type.rawValue))]))
                try flush(false)
            }
            out += #"],"seenBefore":["#.utf8
            comma = false
            try forEachSeenBefore(inBatch: batch) { scan in
                if comma { out.append(UInt8(ascii: ",")) }
                comma = true
                out += canonicalJSON(J.object([("scanId", J.string(scan.scanId)), ("code", J.string(scan.code)), ("seenBefore", J.int(scan.seenBefore))]))
                try flush(false)
            }
            out += "]}\n".utf8
            try flush(true)
        }
    }
}

/// How `writeBatchAnswer` cuts its answer.
enum BatchAnswer {
    /// The size of a piece handed to the sink.
    static let piece = 64 << 10
}

extension Answers {
    /// The scans `writeBatchAnswer` names as seen before, read back from its answer (a served batch's, for the
    /// client); those not in that form are left out.
    public static func seenBefore(in answer: JSONValue) -> [SeenBeforeScan] {
        (answer["seenBefore"]?.arrayValue ?? []).compactMap { item in
            guard let scanId = item["scanId"]?.stringValue, let code = item["code"]?.stringValue,
                  let seen = item["seenBefore"]?.intValue else { return nil }
            return SeenBeforeScan(scanId: scanId, code: code, seenBefore: Int(seen))
        }
    }
}
