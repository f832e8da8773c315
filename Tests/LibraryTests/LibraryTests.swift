import Foundation
import Testing
import VeritrailKit

/// The library as a program outside the package uses it: only `import VeritrailKit`, a real store in a
/// temporary directory.
@Suite struct LibraryTests {
    let directory: TemporaryDirectory
    let clock = TestClock("2026-11-20T10:00:00Z")
    let store: VeritrailStore
    let adminPasscode: PasscodeProvider = { $0 == "admin" ? "2468" : nil }

    init() throws {
        directory = try TemporaryDirectory()
        store = try VeritrailStore.withAdmin(in: directory, clock: clock)
        try store.addInspector()
    }

    static func serum(_ result: ScanResult = .authentic) -> NewScan {
        NewScan(code: "https://v.example/p/123", productName: "Serum 30 ml", category: "Cosmetics", result: result)
    }

    @Test func anInspectorUnlocksScansReportsAndTheQueriesSeeIt() throws {
        try store.unlock("ines", passcode: "1357")
        #expect(try store.lockout("ines")["state"]?.stringValue == "unlocked")
        clock.advance(seconds: 60)
        let recorded = try store.scan(Self.serum(.counterfeit), as: "ines")
        #expect(recorded.event.type == .scanRecorded && recorded.event.isNew)
        clock.advance(seconds: 60)
        try store.report(scanId: String(recorded.scanId.prefix(6)), reason: .packaging, as: "ines")

        let history = try store.history(viewer: "ines")
        #expect(history["total"]?.intValue == 1)
        #expect(history["items"]?.arrayValue?.first?["scanId"]?.stringValue == recorded.scanId)
        let stats = try store.stats(by: "ines")
        #expect(stats["counterfeit"]?.intValue == 1)
        #expect(stats["reported"]?.intValue == 1)
        #expect(try store.show(scanId: recorded.scanId)["scanId"]?.stringValue == recorded.scanId)
        #expect(try store.accounts()["accounts"]?.arrayValue?.count == 2)
    }

    @Test func anAdminRegistersACustomerWhoseStatusAndDetailsChange() throws {
        var mlopez = NewAccount(username: "mlopez", name: "Maria Lopez", email: "m@example.org")
        mlopez.street = "1 Rue de la Paix"; mlopez.city = "Lyon"; mlopez.zipcode = "69001"
        try store.register(mlopez, as: "admin", passcode: adminPasscode)
        try store.changeCustomerStatus("mlopez", to: .onboarded, note: "called back", as: "admin")
        var changes = AccountChanges()
        changes.city = "Paris"
        try store.updateAccount("mlopez", changes, as: "admin")
        let customer = try store.customer("mlopez")
        #expect(customer["status"]?.stringValue == "ONBOARDED")
        #expect(customer["address"]?["city"]?.stringValue == "Paris")
        #expect(customer["address"]?["street"]?.stringValue == "1 Rue de la Paix")
        #expect(try store.customers(status: .onboarded)["customers"]?.arrayValue?.count == 1)
    }

    @Test func aWriteAsksThePasscodeOnlyWhenTheGateNeedsIt() throws {
        var asked: [String] = []
        let provider: PasscodeProvider = { actor in asked.append(actor); return "1357" }
        try store.scan(Self.serum(), as: "ines", passcode: provider)
        try store.scan(Self.serum(), as: "ines", passcode: provider)
        #expect(asked == ["ines"])
        // Without a passcode to give, a write by an actor who is not unlocked is refused, and nothing is written.
        clock.advance(seconds: 16 * 60)
        let before = try store.head()
        #expect(throws: VeritrailError.self) { try store.scan(Self.serum(), as: "ines") }
        #expect(try store.head() == before)
    }

    @Test func threeWrongPasscodesLockTheInspectorOutAndAScanIsRefusedWithItsSeconds() throws {
        try store.unlock("ines", passcode: "1357")
        for attempt in 1...3 {
            do {
                try store.unlock("ines", passcode: "0000")
                Issue.record("a wrong passcode was let through")
            } catch VeritrailError.notAllowed(_, let seconds, _) {
                #expect(seconds == (attempt == 3 ? 60 : nil))
            } catch {
                Issue.record("expected .notAllowed, got \(error)")
            }
        }
        #expect(try store.lockout("ines")["state"]?.stringValue == "locked")
        clock.advance(seconds: 20)
        do {
            try store.scan(Self.serum(), as: "ines")
            Issue.record("a locked-out inspector scanned")
        } catch VeritrailError.notAllowed(_, let seconds, _) {
            #expect(seconds == 40)
        } catch {
            Issue.record("expected .notAllowed, got \(error)")
        }
        #expect(try store.stats()["total"]?.intValue == 0)
        // The attempts stand: a wrong passcode is recorded, even though the write was refused.
        #expect(try store.lockout("ines")["totals"]?["denied"]?.intValue == 3)
    }

    @Test func aQueryAndTheReplayAnswerAsOfAnEarlierPoint() throws {
        try store.unlock("ines", passcode: "1357")
        let beforeScans = try store.head().seq
        clock.advance(seconds: 60)
        try store.scan(Self.serum(), as: "ines")
        try store.scan(Self.serum(.counterfeit), as: "ines")
        #expect(try store.stats()["total"]?.intValue == 2)
        #expect(try store.stats(asOf: .seq(beforeScans))["total"]?.intValue == 0)
        #expect(try store.stats(asOf: .seq(beforeScans + 1))["total"]?.intValue == 1)
        let replay = try store.replay(asOf: .seq(beforeScans))
        #expect(replay["stats"]?["total"]?.intValue == 0)
        #expect(try store.replay()["stats"]?["total"]?.intValue == 2)
    }

    @Test func theStoreVerifiesRebuildsAndExportsAnExportThatRestoresIt() throws {
        try store.unlock("ines", passcode: "1357")
        try store.scan(Self.serum(), as: "ines")
        let head = try store.head()
        guard case .ok(let events, let verifiedHead) = try store.verify() else {
            Issue.record("the chain does not verify")
            return
        }
        #expect(events == head.seq && verifiedHead == head)
        #expect(try store.rebuild().events == head.seq)
        let export = directory.path + "/export.ndjson"
        #expect(try store.export(to: export) == Int(head.seq))
        var progress: [ImportProgress] = []
        let restored = try VeritrailStore.create(at: directory.path + "/restored", importingNDJSON: export,
                                                      progress: { progress.append($0) })
        #expect(try restored.head() == head)
        #expect(progress.last?.lines == Int(head.seq))
        #expect(try restored.stats()["total"]?.intValue == 1)
    }

    @Test func eventsAreAppendedAsInterchangeJSONThroughTheRules() throws {
        let line = #"{"type":"search.performed","at":"2026-11-20T10:00:00Z","actor":"ines","data":{"username":"ines","query":"serum"}}"#
        let appended = try store.append(ndjsonLine: line)
        #expect(appended.type == .searchPerformed && appended.isNew)
        #expect(try store.searches("ines")["recent"]?.arrayValue?.count == 1)
        let broken = #"{"type":"scan.recorded","at":"2026-11-20T10:00:00Z","actor":"ines","data":{"scanId":"s-1"}}"#
        let before = try store.head()
        do {
            try store.append(ndjsonLine: broken)
            Issue.record("a scan without its fields was appended")
        } catch VeritrailError.ruleBroken(let error, _) {
            #expect(error.type == .scanRecorded)
        } catch {
            Issue.record("expected .ruleBroken, got \(error)")
        }
        #expect(try store.head() == before)
    }

    @Test func errorsAreTypedAndKeepTheirCause() throws {
        #expect {
            try store.lockout("nobody")
        } throws: { error in
            if case .unknown = error as? VeritrailError { return true }
            return false
        }
        // Not allowed: an inspector does not register accounts.
        try store.unlock("ines", passcode: "1357")
        #expect {
            try store.register(NewAccount(username: "tom", name: "Tom", email: "tom@example.org", role: .inspector), as: "ines")
        } throws: { error in
            guard case .notAllowed(_, _, let cause) = error as? VeritrailError else { return false }
            return (cause as? EventError)?.isPermission == true
        }
        // No store is a store that can not be opened (cli.md §6: exit 74), not an unknown record.
        #expect {
            try VeritrailStore.open(at: directory.path + "/none")
        } throws: { error in
            if case .storeFailure = error as? VeritrailError { return (error as? VeritrailError)?.exitCode == 74 }
            return false
        }
    }

    @Test func aFailedCommitKeepsLMDBsCodeAndSaysHowToRetry() {
        // EIO at the final flush: the write may have committed, so the error names the id to retry with.
        let error = VeritrailError.storeFailure(underlying: UncertainCommit(eventID: "e-42", underlying: CommitFailed(underlying: LMDBError(code: 5))))
        #expect(error.lmdbCode == 5)
        #expect(error.exitCode == 74)
        #expect(error.description.hasPrefix(LMDBError(code: 5).description + ": the write may have been recorded all the same"))
        #expect(error.description.hasSuffix("run the same command again with --id e-42"))
    }

    @Test func aDamagedStoreIsAStoreFailureWithLMDBsCode() throws {
        let damaged = directory.path + "/damaged"
        try FileManager.default.createDirectory(atPath: damaged, withIntermediateDirectories: true)
        try Data(repeating: 0x55, count: 16384).write(to: URL(fileURLWithPath: damaged + "/data.mdb"))
        do {
            _ = try VeritrailStore.open(at: damaged)
            Issue.record("a damaged store opened")
        } catch VeritrailError.storeFailure(let underlying) {
            let code = VeritrailError.storeFailure(underlying: underlying).lmdbCode
            #expect(code == -30793, "MDB_INVALID, got \(String(describing: code)) from \(underlying)")
        } catch {
            Issue.record("expected .storeFailure, got \(error)")
        }
    }

    @Test func anEmptyDataFileIsNotANewStore() throws {
        let place = directory.path + "/store"
        try Data().write(to: URL(fileURLWithPath: place + "/data.mdb"))
        #expect {
            try VeritrailStore.open(at: place)
        } throws: { error in
            (error as? VeritrailError)?.exitCode == 74 && "\(error)".contains("data.mdb is empty")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: place + "/data.mdb")[.size] as? Int == 0)
    }

    @Test func aCheckpointWhoseDataFileIsGoneIsNotReplacedByANewStore() throws {
        let place = directory.path + "/store"
        let kept = try String(contentsOfFile: place + "/checkpoint", encoding: .utf8)
        for name in ["data.mdb", "lock.mdb"] { try FileManager.default.removeItem(atPath: place + "/" + name) }
        let clock = self.clock
        let create = {
            try VeritrailStore.create(at: place, admin: "eve", name: "Eve", email: "eve@example.org", passcode: "2468",
                                      clock: { clock.now })
        }
        for attempt in [{ _ = try create() }, { _ = try VeritrailStore.open(at: place) }] {
            #expect {
                try attempt()
            } throws: { error in
                (error as? VeritrailError)?.exitCode == 74 && "\(error)".contains("data file (data.mdb) is missing")
            }
        }
        #expect(try String(contentsOfFile: place + "/checkpoint", encoding: .utf8) == kept)
        #expect(!FileManager.default.fileExists(atPath: place + "/data.mdb"))
        // Beside the aside directory of a creation killed before its data file appeared, the checkpoint is that
        // creation's, and a new one is made.
        let killed = place + "/.new-999999999-abcdef"
        try FileManager.default.createDirectory(atPath: killed, withIntermediateDirectories: false)
        // A creation that fails leaves that evidence as it found it.
        #expect(throws: VeritrailError.self) {
            try VeritrailStore.create(at: place, admin: "eve", name: "Eve", email: "not an email", passcode: "2468",
                                      clock: { clock.now })
        }
        #expect(FileManager.default.fileExists(atPath: killed))
        _ = try create()
        #expect(!FileManager.default.fileExists(atPath: killed))
        #expect(try String(contentsOfFile: place + "/checkpoint", encoding: .utf8) != kept)
    }
}

