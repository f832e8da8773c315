import Foundation
import Testing
import VeritrailKit

/// Every writing call of the library on the real clock (the store's default `WallClock`), each followed by
/// `verify()`: the chain, the Merkle tree and the signed checkpoint must hold after every one (issue 18,
/// defect 0: a batch read at one time and written at another was hashed with the first time).
@Suite struct RealClockTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Expects `store` to verify, naming the call that came before.
    func verified(_ store: VeritrailStore, after call: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try store.verify()
        guard case .ok = outcome else {
            Issue.record("verify after \(call): \(outcome)", sourceLocation: sourceLocation)
            return
        }
    }

    @Test func everyWritingCallLeavesALogThatVerifies() throws {
        let store = try VeritrailStore.create(at: directory.path + "/store", admin: "admin", name: "Ada Admin",
                                              email: "admin@example.org", passcode: "2468")
        try verified(store, after: "create")
        let admin: PasscodeProvider = { _ in "2468" }
        try store.register(NewAccount(username: "ines", name: "Ines", email: "ines@example.org", role: .inspector),
                           as: "admin", passcode: admin)
        try verified(store, after: "register")
        try store.setPasscode(to: "1357", for: "ines", as: "admin", passcode: admin)
        try verified(store, after: "setPasscode")
        try store.unlock("ines", passcode: "1357")
        try verified(store, after: "unlock")
        let ines: PasscodeProvider = { _ in "1357" }
        var dora = NewAccount(username: "dora", name: "Dora", email: "dora@example.org")
        dora.street = "2 Elm St"
        dora.city = "Lyon"
        dora.zipcode = "69001"
        try store.register(dora, newPasscode: { _ in "4321" }, options: WriteOptions(eventID: "real-dora"))
        try verified(store, after: "register (a customer registers itself)")
        // Its retry under the id passes the gate again: the attempt it writes, a moment later, verifies too.
        Thread.sleep(forTimeInterval: 0.01)
        #expect(Answers.alreadyRecorded(try store.register(dora, newPasscode: { _ in "4321" }, options: WriteOptions(eventID: "real-dora"))))
        try verified(store, after: "register retried under its id")
        try store.setPasscode(to: "5678", current: "4321", as: "dora", options: WriteOptions(eventID: "real-dora-pass"))
        Thread.sleep(forTimeInterval: 0.01)
        #expect(Answers.alreadyRecorded(try store.setPasscode(to: "5678", current: "5678", as: "dora",
                                                              options: WriteOptions(eventID: "real-dora-pass"))))
        try verified(store, after: "setPasscode of one's own, and its retry under its id")
        var changes = AccountChanges()
        changes.name = "Dora Diaz"
        try store.updateAccount("dora", changes, as: "admin", passcode: admin)
        try verified(store, after: "updateAccount")
        try store.updateSettings(flash: true, as: "ines", passcode: ines)
        try verified(store, after: "updateSettings")
        var scan = NewScan(code: "https://v.example/p/1", productName: "Serum", category: "Cosmetics", result: .authentic)
        scan.scanId = "s-real-1"
        try store.scan(scan, as: "ines", passcode: ines)
        try verified(store, after: "scan")
        let csv = directory.path + "/b.csv"
        try Data("code,productName,category,result\nhttps://v.example/p/2,Bag,Leather,authentic\nhttps://v.example/p/3,Bag,Leather,counterfeit\n".utf8)
            .write(to: URL(fileURLWithPath: csv))
        let batch = try store.readScanBatch(path: csv, as: "ines")
        Thread.sleep(forTimeInterval: 0.01)   // the write is stamped later than the read
        try store.scan(batch: batch, as: "ines", passcode: ines)
        try verified(store, after: "scan(batch:)")
        // A batch large enough to be appended in several pieces as it is read again, from a pipe (spooled).
        let rows = (1...3_000).map { "https://v.example/p/s\($0),Bag,Leather,authentic\n" }.joined()
        let pipe = Pipe()
        let writer = Thread { pipe.fileHandleForWriting.write(Data(("code,productName,category,result\n" + rows).utf8)); try? pipe.fileHandleForWriting.close() }
        writer.start()
        let streamed = try store.readScanBatch(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, as: "ines")
        #expect(try store.scan(batch: streamed, as: "ines", passcode: ines).count == 3_000)
        try verified(store, after: "scan(batch:) of 3,000 scans from a pipe")
        try store.report(scanId: "s-real-1", reason: .packaging, as: "ines", passcode: ines)
        try verified(store, after: "report")
        try store.changeCustomerStatus("dora", to: .onboarded, as: "admin", passcode: admin)
        try verified(store, after: "changeCustomerStatus")
        _ = try store.search("serum", as: "ines")
        try verified(store, after: "search")
        try store.setFitness(bodyType: 1, heightInches: 70, as: "ines", passcode: ines)
        try verified(store, after: "setFitness")
        try store.setGoal(.jumps, target: 1000, as: "ines", passcode: ines)
        try verified(store, after: "setGoal")
        try store.recordSession(park: "Plainfield", start: "00:00", end: "00:01", jumps: 3, calories: 1, as: "ines", passcode: ines)
        try verified(store, after: "recordSession")
        try store.deleteAccount("dora", as: "admin", passcode: admin)
        try verified(store, after: "deleteAccount")
        // The trusted way in: events the caller decodes, one of them stamped again after it was decoded.
        let at = try store.head().at ?? Timestamp(microseconds: 0)
        let line = #"{"type":"search.performed","at":"\#(at)","actor":"ines","data":{"username":"ines","query":"bag"}}"#
        try store.append(ndjsonLine: line)
        try verified(store, after: "append(ndjsonLine:)")
        var event = try EventJSON.decode(try JSONValue.parse(line))
        event.at = at.adding(seconds: 1)
        try store.append([event])
        try verified(store, after: "append(_:) of an event whose at changed after it was decoded")
        let file = directory.path + "/more.ndjson"
        let later = line.replacingOccurrences(of: "\(at)", with: "\(at.adding(seconds: 2))")
        try Data((later.replacingOccurrences(of: "\"bag\"", with: "\"cap\"") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        try store.importNDJSON(path: file)
        try verified(store, after: "importNDJSON")
    }
}
