import Domain
import EventLog
@testable import Projections
import Testing

/// A scan a rebuild prepares without its row (`PreparedScan.init(seq:stored:keepingRow:)`, for a scan list
/// checked beside a kept search index) carries the same hashes, code and counts as one prepared with it:
/// the scan list's digest is summed from those alone (`CheckedScanList`).
@Suite struct PreparedScanTests {
    @Test(arguments: [nil, "a note of more than sixteen bytes, é"])
    func aScanPreparedWithoutItsRowHashesAsOneWithIt(notes: String?) throws {
        let scan = ScanRecorded(scanId: "s-0000042", code: "https://verify.veritrail.example/c/asic-9f2", productName: "Gel-Kayano 30",
                                brand: "ASICS", category: "Footwear", result: .counterfeit, mode: .single, source: .camera,
                                flash: false, location: "München", notes: notes)
        let event = Event(id: "e-1", at: Timestamp(microseconds: 1_700_000_000_000_000), actor: "ines.rossi083.of.the.office",
                          payload: .scanRecorded(scan))
        var bytes: [UInt8] = []
        StoredEvent.encode(event, hash: [UInt8](repeating: 7, count: 32), into: &bytes)
        try bytes.withUnsafeBytes { b in
            let stored = try #require(try StoredEvent.storedScan(b))
            let whole = PreparedScan(seq: 12, stored: stored)
            let hashed = PreparedScan(seq: 12, stored: stored, keepingRow: false)
            let (a, h) = (whole.entryHashes(), hashed.entryHashes())
            #expect(a.header == h.header && a.scanId == h.scanId && a.actor == h.actor)
            #expect(whole.code == hashed.code && whole.seq == hashed.seq)
            #expect(whole.counted.at == hashed.counted.at && whole.counted.actor == hashed.counted.actor)
            #expect(whole.counted.category == hashed.counted.category && whole.counted.isCounterfeit == hashed.counted.isCounterfeit)
            // The hashes are of the row's parts: the header and the scanId as the kept row has them.
            whole.withHeaderAndScanId { header, scanId in
                #expect(EntryHash.of(header) == h.header && EntryHash.of(scanId) == h.scanId)
                #expect(Array(scanId) == Array("s-0000042".utf8))
            }
        }
    }
}
