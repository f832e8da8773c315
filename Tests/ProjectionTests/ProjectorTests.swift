import Domain
import Projections
import TestSupport
import Testing

/// Each projector on the models in memory (`MemoryTables`), through the same `Models.apply` a store and a
/// replay use: what one event changes in its view, and nothing more.
@Suite("Projectors on in-memory tables")
struct ProjectorTests {
    /// A log with a first admin (`ada`, with a passcode), an inspector (`ines`) and a customer (`cleo`).
    func started() throws -> MemoryLog { try MemoryLog.started() }

    // MARK: Accounts

    @Test("a customer starts AWAITED and each status change is appended with who and when")
    func customerProcess() throws {
        let log = try started()
        #expect(try log.models.account("cleo")?.status == .awaited)
        try log.append(Ev.line("status.changed", "ada", at: "2026-11-02T10:00:00Z", #""username":"cleo","status":"ONBOARDED","note":"call""#))
        let cleo = try #require(try log.models.account("cleo"))
        #expect(cleo.statusHistory.map(\.status) == [.awaited, .onboarded])
        #expect(cleo.statusHistory.last?.by == "ada")
        #expect(cleo.statusHistory.last?.note == "call")
        #expect(try log.models.account("ines")?.status == nil)
    }

    @Test("the gate follows passcode.set and passcode.attempted")
    func lockout() throws {
        let log = try started()
        try log.append((0..<3).map { Ev.attempt("ines", "denied", at: "2026-11-01T10:00:0\($0)Z") })
        let gate = try #require(try log.models.account("ines")).lockout
        #expect(gate.lockedUntil == Ev.time("2026-11-01T10:01:02Z"))
        #expect(try log.models.accountFacts("ines")?.lockout == gate)
        try log.append(Ev.passcodeSet("ines", by: "ada", at: "2026-11-01T10:00:30Z"))
        #expect(try log.models.account("ines")?.lockout.lockedUntil == nil)
    }

    @Test("settings change only the fields given")
    func settings() throws {
        let log = try started()
        try log.append(Ev.line("settings.changed", "ines", at: "2026-11-01T10:00:00Z", #""username":"ines","flash":true"#))
        try log.append(Ev.line("settings.changed", "ines", at: "2026-11-01T10:00:01Z", #""username":"ines","historyWindow":"7d""#))
        let settings = try #require(try log.models.account("ines")).settings
        #expect(settings.flash)
        #expect(settings.historyWindow == .sevenDays)
        #expect(settings.captureMode == .single)
    }

    @Test("searches keep the ten latest, newest first, a repeat in any case moved to the front")
    func searches() throws {
        let log = try started()
        for i in 0..<12 {
            try log.append(Ev.line("search.performed", "ines", at: "2026-11-01T10:00:\(10 + i)Z", #""username":"ines","query":"q\#(i)""#))
        }
        try log.append(Ev.line("search.performed", "ines", at: "2026-11-01T10:01:00Z", #""username":"ines","query":"Q5""#))
        let searches = try #require(try log.models.account("ines")).searches
        #expect(searches.count == 10)
        #expect(searches.first == "Q5")
        #expect(!searches.contains("q5"))
        #expect(searches.last == "q2")
    }

    @Test("deleting an account frees its e-mail and counts its admins out")
    func deletion() throws {
        let log = try started()
        try log.append(Ev.register("bob", role: "admin", by: "ada", at: "2026-11-01T10:00:00Z"))
        #expect(try log.models.activeAdminCount() == 2)
        #expect(try log.models.emailOwner("BOB@vt.example") == "bob")
        try log.append(Ev.line("account.deleted", "ada", at: "2026-11-01T10:00:01Z", #""username":"bob""#))
        #expect(try log.models.activeAdminCount() == 1)
        #expect(try log.models.emailOwner("bob@vt.example") == nil)
        #expect(try log.models.account("bob")?.deleted == true)
    }

    // MARK: Scans

    @Test("scans count in the stats, the actor's month and the list; a code seen before is counted")
    func scans() throws {
        let log = try started()
        try log.append([
            Ev.scan("s1", by: "ines", at: "2026-11-01T10:00:00Z", code: "C1", category: "Tools"),
            Ev.scan("s2", by: "ada", at: "2026-11-01T10:00:01Z", code: "C1", category: "Food", result: "counterfeit"),
            Ev.scan("s3", by: "ines", at: "2026-12-01T10:00:00Z", code: "C2", category: "Tools", result: "counterfeit"),
        ])
        let all = try log.models.stats(.all)
        #expect((all.total, all.counterfeit, all.authentic) == (3, 2, 1))
        #expect(all.categories.map(\.category) == ["Tools", "Food"])
        #expect(try log.models.stats(.actor("ines")).total == 2)
        #expect(try log.models.scanCount() == 3)
        #expect(try log.models.userMonth("ines", Month(year: 2026, month: 11))?.scans == 1)
        #expect(try log.models.userMonth("ines", Month(year: 2026, month: 12))?.scans == 1)
        #expect(try log.models.scanOrdinal("s2") == 2)
        #expect(try log.models.scanRow(2).seenBefore == 1)
        #expect(try log.models.scanRow(3).seenBefore == 0)
        #expect(try log.models.scanRow(2).scan.scanId == "s2")
        #expect(try log.models.scanOrdinal(actor: "ines", 2) == 3)
        try log.models.flush()
        #expect(try log.models.scanOrdinal(actor: "ines", 2) == 3)
    }

    @Test("a report is on the scan's row and counts for the scan's actor, not the reporter")
    func reports() throws {
        let log = try started()
        try log.append(Ev.scan("s1", by: "ines", at: "2026-11-01T10:00:00Z", result: "counterfeit"))
        try log.append(Ev.report("s1", reason: "label", by: "ada", at: "2026-11-01T10:00:01Z", extra: #","message":"Torn""#))
        let row = try log.models.scanRow(1)
        #expect(row.report?.by == "ada")
        #expect(row.report?.message == "Torn")
        #expect(row.report?.seq == 7)
        #expect(try log.models.scanIsReported("s1") == true)
        #expect(try log.models.stats(.actor("ines")).reported == 1)
        #expect(try log.models.stats(.actor("ada")).reported == 0)
        #expect(try log.models.stats(.all).reported == 1)
    }

    // MARK: Months

    @Test("goals and sessions fill the user's month; the last session is the latest date, then end time")
    func months() throws {
        let log = try started()
        try log.append([
            Ev.goal("cleo", month: "2026-11", metric: "jumps", target: "1000", at: "2026-11-01T10:00:00Z"),
            Ev.session("cleo", "a", by: "cleo", at: "2026-11-03T10:00:00Z", date: "2026-11-03", end: "11:00", jumps: "100", calories: "10"),
            Ev.session("cleo", "b", by: "cleo", at: "2026-11-03T12:00:00Z", date: "2026-11-02", end: "23:00", jumps: "50", calories: "5"),
            Ev.goal("cleo", month: "2026-11", metric: "jumps", target: "1200", at: "2026-11-03T12:00:01Z"),
        ])
        let month = try #require(try log.models.userMonth("cleo", Month(year: 2026, month: 11)))
        #expect(month.target(.jumps) == 1200)
        #expect(month.target(.scans) == nil)
        #expect((month.jumps, month.calories) == (150, 15))
        #expect(month.lastSession?.session.sessionId == "a")
        #expect(try log.models.hasSession(username: "cleo", sessionId: "b"))
        #expect(try log.models.months(of: "cleo") == [Month(year: 2026, month: 11)])
    }

    // MARK: Totals and the write-back

    @Test("the totals count every event by type, first and last at")
    func totals() throws {
        let log = try started()
        try log.append(Ev.scan("s1", by: "ines", at: "2026-11-01T10:00:00Z"))
        let totals = try log.models.totals()
        #expect(totals.events == 6)
        #expect(totals.byType[Int(EventType.accountRegistered.storedIndex)] == 3)
        #expect(totals.byType[Int(EventType.scanRecorded.storedIndex)] == 1)
        #expect(totals.firstAt == Ev.time("2026-11-01T09:00:00Z"))
        #expect(try log.models.lastAt() == Ev.time("2026-11-01T10:00:00Z"))
    }

    @Test("after flush, fresh models over the same tables read what the kept ones hold")
    func flushWritesBack() throws {
        let log = try started()
        try log.append(Ev.scan("s1", by: "ines", at: "2026-11-01T10:00:00Z"))
        try log.append(Ev.goal("cleo", month: "2026-11", metric: "scans", target: "3", at: "2026-11-01T10:00:01Z"))
        try log.models.flush()
        let fresh = Models(tables: log.tables, scans: NoScans())
        #expect(try fresh.allAccounts(history: .whole) == (try log.models.allAccounts(history: .whole)))
        #expect(try fresh.totals() == (try log.models.totals()))
        #expect(try fresh.stats(.all) == (try log.models.stats(.all)))
        #expect(try fresh.userMonth("cleo", Month(year: 2026, month: 11)) == (try log.models.userMonth("cleo", Month(year: 2026, month: 11))))
        #expect(try fresh.scanOrdinal(actor: "ines", 1) == 1)
    }

    @Test("accounts read for a list keep their last status only, and are the whole records but for the earlier entries")
    func accountsReadForAListKeepTheirLastStatus() throws {
        let log = try started()
        try log.append(Ev.line("status.changed", "ada", at: "2026-11-02T10:00:00Z", #""username":"cleo","status":"ONBOARDED","note":"call""#))
        try log.append(Ev.line("status.changed", "ada", at: "2026-11-02T11:00:00Z", #""username":"cleo","status":"INPROCESS""#))
        try log.append(Ev.line("status.changed", "ada", at: "2026-11-02T12:00:00Z", #""username":"cleo","status":"COMPLETED","note":"é""#))
        try log.models.flush()
        let fresh = Models(tables: log.tables, scans: NoScans())
        let whole = try fresh.allAccounts(history: .whole), listed = try fresh.allAccounts(history: .last)
        #expect(whole.map(\.username) == listed.map(\.username))
        for (w, l) in zip(whole, listed) {
            #expect(w.historyKept == .whole && l.historyKept == .last)
            #expect(l.statusHistory == Array(w.statusHistory.suffix(1)), "\(w.username)")
            #expect(l.username == w.username && l.lockout == w.lockout && l.settings == w.settings && l.searches == w.searches
                    && l.credential == w.credential && l.address == w.address && l.fitness == w.fitness)
        }
        #expect(listed.first { $0.username == "cleo" }?.statusHistory.map(\.status) == [.completed])
        #expect(whole.first { $0.username == "cleo" }?.statusHistory.count == 4)
    }

    @Test("each table's database keeps its name, model. and the case's name, as stores made before have it")
    func tablesKeepTheirDatabaseNames() {
        for table in ModelTable.allCases { #expect(table.name == "model.\(table)") }
    }

    /// Models read here only what the tables hold, never a row's scan.
    struct NoScans: RecordedScans {
        func recordedScan(at seq: UInt64) throws -> ScanRecorded? { nil }
    }
}
