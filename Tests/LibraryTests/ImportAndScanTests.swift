import Foundation
import Testing
import VeritrailKit

/// The import path, store creation, and scans one at a time or in a batch, through the public API only.
@Suite struct ImportAndScanTests {
    let directory: TemporaryDirectory
    let clock = TestClock("2026-11-20T10:00:00Z")

    init() throws {
        directory = try TemporaryDirectory()
    }

    var storePath: String { directory.path + "/store" }

    /// A store with an admin and an unlocked inspector `ines`.
    func makeStore() throws -> VeritrailStore {
        let store = try VeritrailStore.withAdmin(in: directory, clock: clock)
        try store.addInspector(unlocked: true)
        return store
    }

    func write(_ text: String, to name: String) throws -> String {
        let path = directory.path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let search = #"{"type":"search.performed","at":"2026-11-20T10:00:00Z","actor":"admin","data":{"username":"admin","query":"serum"}}"#

    @Test func anImportCreatesTheStoreWhenThereIsNoneThenAppendsToIt() throws {
        let made = try makeStore()
        let export = directory.path + "/export.ndjson"
        try made.export(to: export)
        let head = try made.head()
        var progress: [ImportProgress] = []
        let restored = directory.path + "/restored"
        let first = try VeritrailStore.importNDJSON(path: export, into: restored, origin: "example.org/restored",
                                                    progress: { progress.append($0) })
        #expect(first.appended == Int(head.seq) && first.existing == 0 && first.head == head)
        #expect(progress.last?.lines == Int(head.seq))
        #expect(progress.last.map { $0.bytes == $0.totalBytes && $0.bytes > 0 } == true)
        // The same lines again are in the log already; another origin is refused, the store keeps its own.
        let again = try VeritrailStore.importNDJSON(path: export, into: restored)
        #expect(again.appended == 0 && again.existing == Int(head.seq))
        #expect(throws: VeritrailError.self) { try VeritrailStore.importNDJSON(path: export, into: restored, origin: "other.example") }
    }

    @Test func aBadLineRefusesTheWholeImportNamingTheLine() throws {
        let store = try makeStore()
        let before = try store.head()
        let path = try write(Self.search + "\n\n" + #"{"type":"search.performed"}"# + "\n", to: "bad.ndjson")
        do {
            try store.importNDJSON(path: path)
            Issue.record("a bad line was imported")
        } catch VeritrailError.ruleBroken(_, let line) {
            #expect(line == 3)
        }
        #expect(try store.head() == before)
        #expect(throws: VeritrailError.self) { try store.importNDJSON(path: directory.path + "/none.ndjson") }
    }

    @Test func aPipeIsReadAsItStreamsAndBinaryInputIsRefusedAtOnce() throws {
        let export = directory.path + "/export.ndjson"
        do {
            // Closed at the end of the scope: LMDB opens a store once per process.
            try makeStore().export(to: export)
        }
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: export)))
        try pipe.fileHandleForWriting.close()
        let copy = directory.path + "/copy"
        let summary = try VeritrailStore.importNDJSON(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, into: copy)
        let head = HeadDigest(summary.head)
        #expect(summary.appended > 0 && head.seq == UInt64(summary.appended))
        #expect(head.description == "\(head.seq):\(head.hash)" && head.hash.count == 64)

        let store = try VeritrailStore.open(at: copy, mapSize: 64 << 20)
        let binary = Pipe()
        binary.fileHandleForWriting.write(Data([0x7B, 0x00, 0x7D, 0x0A]))
        try binary.fileHandleForWriting.close()
        do {
            try store.importNDJSON(fileDescriptor: binary.fileHandleForReading.fileDescriptor)
            Issue.record("a NUL byte was imported")
        } catch {
            #expect(error.description == "line 1: the line holds a NUL byte, which no event can; nothing was imported")
            #expect(error.exitCode == 65)
        }
    }

    @Test func createAsksTheNewPasscodeOnlyOnceTheRestIsRight() throws {
        var asked = 0
        #expect(throws: VeritrailError.self) {
            try VeritrailStore.create(at: storePath, admin: "admin", name: "Ada", email: "not an e-mail") { asked += 1; return "2468" }
        }
        #expect(asked == 0)
        let store = try VeritrailStore.create(at: storePath, admin: "admin", name: "Ada", email: "ada@example.org",
                                              origin: "example.org/log") { asked += 1; return "2468" }
        let head = HeadDigest(try store.head())
        #expect(asked == 1 && head.seq == 2)
        do {
            _ = try VeritrailStore.create(at: storePath, admin: "admin", name: "Ada", email: "ada@example.org") { asked += 1; return "2468" }
            Issue.record("a second store was made")
        } catch VeritrailError.storeFailure(let exists as StoreExists) {
            #expect(exists.directory == storePath)
        }
        #expect(asked == 1)
        #expect(VeritrailStore.isValidOrigin("example.org/log") && !VeritrailStore.isValidOrigin("no spaces"))
    }

    @Test func aScanComesBackAsShowGivesItAndSaysWhenItsCodeWasSeenBefore() throws {
        let store = try makeStore()
        var scan = NewScan(code: "https://v.example/p/9", productName: "Serum", category: "Cosmetics", result: .authentic)
        let first = try store.scan(scan, as: "ines", options: WriteOptions(eventID: "scan-1"))
        #expect(first.event.id == "scan-1" && first.seenBefore == 0)
        #expect(first.scan?["scanId"]?.stringValue == first.scanId)
        scan.scanId = "s-second"
        let second = try store.scan(scan, as: "ines")
        #expect(second.scanId == "s-second" && second.seenBefore == 1)
        let dry = try store.scan(NewScan(code: "x", productName: "y", category: "Cosmetics", result: .authentic), as: "ines",
                                 options: WriteOptions(dryRun: true))
        #expect(dry.scan == nil && dry.seenBefore == 0)
        #expect(try store.stats()["total"]?.intValue == 2)
    }

    @Test func aBatchFileIsReadThenRecordedAllOrNothing() throws {
        let store = try makeStore()
        let csv = try write("code,productName,category,result,flash\nQR-1,Serum,Cosmetics,authentic,yes\n\"QR,2\",Cream,Cosmetics,counterfeit,\n",
                            to: "scans.csv")
        var progress: [ImportProgress] = []
        let batch = try store.readScanBatch(path: csv, as: "ines", progress: { progress.append($0) })
        #expect(batch.count == 2 && batch.batchId.hasPrefix("b-"))
        #expect(progress.last?.bytes == progress.last?.totalBytes)
        // Nothing is written by reading.
        #expect(try store.stats()["total"]?.intValue == 0)
        let recorded = try store.scan(batch: batch, as: "ines")
        #expect(recorded.count == 2 && recorded.events.runs.count == 1 && !recorded.alreadyRecorded)
        #expect(try store.stats()["total"]?.intValue == 2)
        // The answer, written in pieces, is the write's answer built whole (`Answers.events`) with the scans seen before.
        var events: [AppendedEvent] = []
        recorded.forEachEvent { events.append($0) }
        #expect(events.map(\.id) == [recorded.eventID, recorded.eventID + ".2"] && events.allSatisfy { $0.type == .scanRecorded && $0.isNew })
        var written: [UInt8] = []
        try store.writeBatchAnswer(recorded) { written += $0 }
        guard case .object(var whole) = Answers.events(events) else { Issue.record("not an object"); return }
        _ = whole.updateValue(.array([]), forKey: "seenBefore")
        #expect(written == canonicalJSON(.object(whole)) + [0x0A])

        let bad = try write(#"{"code":"QR-3","productName":"Serum","category":"Cosmetics","result":"authentic"}"# + "\n"
                            + #"{"code":"QR-4","productName":"Serum","category":"Cosmetics","result":"fake"}"# + "\n", to: "bad.ndjson")
        do {
            _ = try store.readScanBatch(path: bad, as: "ines")
            Issue.record("a bad record was read")
        } catch {
            #expect(error.description.hasPrefix("\(bad) record 2 (line 2): result: "))
            #expect(error.exitCode == 65)
        }
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(#"{"code":"QR-5","productName":"Serum","category":"Cosmetics","result":"authentic"}"#.utf8))
        try pipe.fileHandleForWriting.close()
        let piped = try store.readScanBatch(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "-", as: "ines")
        #expect(piped.count == 1)
    }

    /// A batch's drawn scan ids come in ascending order, so that its write sweeps the index of scan ids once
    /// instead of descending to a random page for every row, yet each in its own slot of the whole space, so
    /// that they differ early and their short forms stay as short as random ids' (`RandomIDs`). A retry under
    /// the same id draws the same ones.
    @Test func aBatchsDrawnScanIdsAscendAndDifferEarly() throws {
        let store = try makeStore()
        let rows = (0..<256).map { "QR-\($0),Serum,Cosmetics,authentic" }
        let csv = try write("code,productName,category,result\n" + rows.joined(separator: "\n") + "\n", to: "many.csv")
        func scanIds(eventID: String?) throws -> [String] {
            let batch = try store.readScanBatch(path: csv, as: "ines", eventID: eventID)
            try store.scan(batch: batch, as: "ines")
            var query = HistoryQuery()
            query.window = .all
            query.limit = 256
            let items = try store.history(query)["items"]?.arrayValue ?? []
            return items.reversed().compactMap { $0["scanId"]?.stringValue }
        }
        let ids = try scanIds(eventID: "batch-1")
        #expect(ids.count == 256 && ids == ids.sorted() && Set(ids).count == 256)
        let uuid = /s-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/
        #expect(ids.allSatisfy { $0.wholeMatch(of: uuid) != nil }, "\(ids.prefix(3))")
        // Spread over the space: one in each 1/256 of it, so the first two hex digits are all different.
        #expect(Set(ids.map { $0.dropFirst(2).prefix(2) }).count == 256)
        let short = try store.shortScanIds(ids)
        // So each is told apart by its first two digits: its short form is the shortest there is (4: `s-` and two).
        #expect(ids.allSatisfy { short[$0]?.count == 4 }, "\(short.values.map(\.count).max() ?? 0)")
        // The retry reads the same ids; a second batch draws others, in ascending order too.
        let retry = try store.readScanBatch(path: csv, as: "ines", eventID: "batch-1")
        #expect(try store.scan(batch: retry, as: "ines").alreadyRecorded)
        let other = try scanIds(eventID: nil)
        #expect(other == other.sorted() && Set(other).isDisjoint(with: ids))
    }

    /// Two categories that differ only in their Unicode normalisation (`Café` precomposed and decomposed) are two
    /// categories (events.md: text is compared by its scalars), also when one write holds both: the search index's
    /// sets of one chunk were keyed by `String`, which is equal across canonical equivalence, so both scans went
    /// into the set of whichever came first, and `--category` listed the other's scan or none.
    @Test func categoriesThatDifferOnlyInNormalisationAreTwoInOneWrite() throws {
        let store = try makeStore()
        let precomposed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        let csv = try write("scanId,code,productName,category,result\n"
            + "p1,c1,P,\(precomposed),authentic\nd1,c2,P,\(decomposed),authentic\n", to: "cafes.csv")
        try store.scan(batch: try store.readScanBatch(path: csv, as: "ines", eventID: nil), as: "ines")
        for (category, scanId) in [(precomposed, "p1"), (decomposed, "d1")] {
            for search in [nil, "c", "caf"] {
                var query = HistoryQuery()
                query.window = .all
                query.category = category
                query.search = search
                let answer = try store.history(query)
                let ids = answer["items"]?.arrayValue?.compactMap { $0["scanId"]?.stringValue }
                #expect(ids == [scanId] && answer["total"]?.intValue == 1, "\(category.unicodeScalars.count) scalars, search \(search ?? "none"): \(ids ?? [])")
            }
        }
    }
}
