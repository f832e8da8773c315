import Domain
import EventLog
@testable import Projections
import Testing

/// A row's header reads back as it was written whatever the length of its search text, whose length is a
/// varint of one, two or three bytes written once the text is (`ScanRow.encodedHeader`): the lower-cased
/// fields, each followed by a 0 byte, their lengths, and a report's message as the last field.
@Suite struct ScanRowHeaderTests {
    @Test(arguments: [0, 5, 60, 100, 117, 118, 119, 127, 128, 200, 16_250, 16_266, 16_267, 16_300, 20_000])
    func aHeaderReadsBackWhateverTheLengthOfItsText(notes: Int) throws {
        let scan = ScanRecorded(scanId: "s-1", code: "HTTPS://V.example/c/É-9", productName: "Gel-Kayano 30", brand: "ASICS",
                                category: "Footwear", result: .counterfeit, mode: .single, source: .camera, flash: false,
                                location: "München", notes: notes == 0 ? nil : String(repeating: "Ab", count: notes / 2) + (notes % 2 == 1 ? "é" : ""))
        for report in [nil, ScanRow.Report(seq: 9, reason: .label, message: "Fake HOLOGRAM", at: Timestamp(microseconds: 5), by: "ines")] {
            let bytes = ScanRow.encodedHeader(seq: 7, at: Timestamp(microseconds: 1_000), actor: "Ines.Rossi083", scan: scan, report: report)
            let fields = [scan.scanId, scan.code, scan.productName, scan.brand ?? "", scan.category, scan.location ?? "",
                          scan.batchId ?? "", scan.notes ?? "", "Ines.Rossi083", report?.message ?? ""]
                .map { Array($0.lowercased().utf8) }
            try bytes.withUnsafeBytes { b in
                let header = try ScanRowHeader(b, reportsThrough: 100)
                #expect(header.seq == 7 && header.at == Timestamp(microseconds: 1_000) && header.end == b.count)
                #expect(Array(header.actor) == Array("Ines.Rossi083".utf8) && Array(header.category) == Array("Footwear".utf8))
                #expect(Array(header.searchText) == fields.flatMap { $0 + [0] })
                var lengths = BinaryFieldSource(bytes: header.fieldLengths)
                for field in fields { #expect(try lengths.varint("length") == UInt64(field.count)) }
            }
        }
    }
}
