import LMDB
import Domain

/// Reading the scan list and its indexes, whichever strategy keeps them (`ScanListStrategy`), and the
/// keys of the tables the projectors write.
extension Models {
    static func ordinalKey(_ ordinal: UInt32) -> [UInt8] { ordinal.bigEndianBytes }

    public func scanCount() throws -> UInt32 { try totals().scans }

    /// Calls `body` with the stored row of scan `ordinal` (1-based).
    private func withScanRow<R>(_ ordinal: UInt32, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try tables.withValue(.scans, Models.ordinalKey(ordinal)) { bytes in
            guard let bytes else { throw FieldError(path: "scan \(ordinal)", rule: "missing from the read models") }
            return try body(bytes)
        }
    }

    /// Calls `body` with the header of scan `ordinal`, as the models see it (see `ScanRowHeader`).
    func withScanHeader<R>(_ ordinal: UInt32, _ body: (ScanRowHeader) throws -> R) throws -> R {
        let through = scanList.reportsThrough
        return try withScanRow(ordinal) { bytes in try body(try ScanRowHeader(bytes, reportsThrough: through)) }
    }

    /// The `at` of scan `ordinal`.
    func scanAt(_ ordinal: UInt32) throws -> Timestamp {
        try withScanRow(ordinal) { ScanRowHeader.at($0) }
    }

    public func scanRow(_ ordinal: UInt32) throws -> ScanRow {
        let through = scanList.reportsThrough
        return try withScanRow(ordinal) { bytes in
            try ScanRow(decoding: bytes, reportsThrough: through, scan: recordedScan)
        }
    }

    /// The scan recorded at `seq` in the log.
    private func recordedScan(at seq: UInt64) throws -> ScanRecorded {
        guard let scan = try scans.recordedScan(at: seq) else {
            throw FieldError(path: "seq \(seq)", rule: "the read models list a scan there, but the log has no scan")
        }
        return scan
    }

    public func scanOrdinal(_ scanId: String) throws -> UInt32? {
        let ordinal = try tables.withValue(.scanIds, Array(scanId.utf8)) { bytes in
            bytes.flatMap { UInt32(bigEndianBytes: $0) }
        }
        // A borrowed list holds the scans after the replayed prefix too.
        guard let ordinal, ordinal <= (try scanCount()) else { return nil }
        return ordinal
    }

    /// How many scans `actor` recorded.
    public func scanCount(actor: String) throws -> UInt32 { UInt32(try stats(.actor(actor)).total) }

    static func actorScanKey(_ actor: String, _ n: UInt32) -> [UInt8] {
        var key: [UInt8] = []
        appendActorScanKey(actor, n, to: &key)
        return key
    }

    /// The key of `actor`'s `n`-th scan in `scansByActor`: the actor, a 0 byte, `n` big-endian.
    static func appendActorScanKey(_ actor: String, _ n: UInt32, to key: inout [UInt8]) {
        key.append(contentsOf: actor.utf8)
        key.append(0)
        n.appendBigEndianBytes(to: &key)
    }

    /// The ordinal of `actor`'s `n`-th scan (1-based).
    public func scanOrdinal(actor: String, _ n: UInt32) throws -> UInt32 {
        if let held = scanList.heldOrdinal(actor: actor, n) { return held }
        return try tables.withValue(.scansByActor, Models.actorScanKey(actor, n)) { bytes in
            guard let bytes, let ordinal = UInt32(bigEndianBytes: bytes) else {
                throw FieldError(path: "scansByActor", rule: "missing from the read models")
            }
            return ordinal
        }
    }

    /// The key of a session in `sessions`: the username, a 0 byte, the session id.
    static func sessionKey(_ username: String, _ sessionId: String) -> [UInt8] {
        var key = Array(username.utf8)
        key.append(0)
        key.append(contentsOf: sessionId.utf8)
        return key
    }
}
