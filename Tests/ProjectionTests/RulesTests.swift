import Domain
import Projections
import TestSupport
import Testing

/// The rules that need history (`Rules.check`, events.md), in-process against the read models in memory:
/// each refusal names its field and rule, and a refused event changes nothing.
@Suite("Rules against in-memory state")
struct RulesTests {
    /// A log with a first admin (`ada`, with a passcode), an inspector (`ines`) and a customer (`cleo`).
    func started() throws -> MemoryLog { try MemoryLog.started() }

    /// The error `line` is refused with, checking that it changed nothing.
    func refusal(_ line: String, in log: MemoryLog) throws -> EventError? {
        let before = log.events.count
        let totals = try log.models.totals()
        do {
            try log.append(line)
            return nil
        } catch let error as EventError {
            #expect(log.events.count == before)
            #expect(try log.models.totals() == totals)
            return error
        }
    }

    @Test("system registers only the first admin")
    func systemOnlyFirstAdmin() throws {
        let log = try started()
        let e = try #require(try refusal(Ev.register("bob", role: "admin", by: "system", at: "2026-11-01T10:00:00Z"), in: log))
        #expect(e.isPermission)
        #expect(e.field.path == "actor")
        #expect(e.field.rule.contains("only while the log holds none"))
    }

    @Test("an account registers itself only as a customer")
    func selfRegistration() throws {
        let log = try started()
        let e = try #require(try refusal(Ev.register("eve", role: "inspector", by: "eve", at: "2026-11-01T10:00:00Z"), in: log))
        #expect(e.isPermission)
        try log.append(Ev.register("dan", role: "customer", by: "dan", at: "2026-11-01T10:00:01Z"))
    }

    @Test("usernames are never reused and e-mails are unique without regard to case")
    func uniqueness() throws {
        let log = try started()
        let taken = try #require(try refusal(Ev.register("ines", role: "customer", by: "ada", at: "2026-11-01T10:00:00Z"), in: log))
        #expect(taken.field.path == "data.username")
        let email = try #require(try refusal(Ev.register("ina", role: "customer", by: "ina", at: "2026-11-01T10:00:00Z",
                                                         email: "INES@vt.example"), in: log))
        #expect(email.field.path == "data.email")
        #expect(email.field.rule.contains("\"ines\""))
    }

    @Test("the last admin can not be deleted")
    func lastAdmin() throws {
        let log = try started()
        let e = try #require(try refusal(Ev.line("account.deleted", "ada", at: "2026-11-01T10:00:00Z", #""username":"ada""#), in: log))
        #expect(e.field.rule.contains("last admin"))
        #expect(try log.models.activeAdminCount() == 1)
    }

    @Test("time never runs backwards")
    func timeOrder() throws {
        let log = try started()
        let e = try #require(try refusal(Ev.scan("s1", by: "ines", at: "2026-11-01T09:01:59Z"), in: log))
        #expect(e.field.path == "at")
        // The same instant as the event before is fine.
        try log.append(Ev.scan("s1", by: "ines", at: "2026-11-01T09:02:00Z"))
    }

    @Test("passcode.attempted agrees with the gate: locked exactly while locked")
    func attemptsFollowTheGate() throws {
        let log = try started()
        try log.append([
            Ev.attempt("ines", "denied", at: "2026-11-01T10:00:00Z"),
            Ev.attempt("ines", "denied", at: "2026-11-01T10:00:01Z"),
            Ev.attempt("ines", "denied", at: "2026-11-01T10:00:02Z"),
        ])
        let notLocked = try #require(try refusal(Ev.attempt("ines", "denied", at: "2026-11-01T10:01:01Z"), in: log))
        #expect(notLocked.field.path == "data.outcome")
        #expect(notLocked.field.rule.contains("must be \"locked\""))
        try log.append(Ev.attempt("ines", "locked", at: "2026-11-01T10:01:01Z"))
        // Exactly at lockedUntil (10:01:02) the lock is over: "locked" is refused, "denied" taken.
        let over = try #require(try refusal(Ev.attempt("ines", "locked", at: "2026-11-01T10:01:02Z"), in: log))
        #expect(over.field.rule.contains("can not be \"locked\""))
        try log.append(Ev.attempt("ines", "denied", at: "2026-11-01T10:01:02Z"))
    }

    @Test("only the account itself attempts its passcode")
    func attemptBySelf() throws {
        let log = try started()
        let e = try #require(try refusal(Ev.attempt("ines", "granted", by: "ada", at: "2026-11-01T10:00:00Z"), in: log))
        #expect(e.isPermission)
    }

    @Test("scan ids are unique; a report names a scan and comes once")
    func scansAndReports() throws {
        let log = try started()
        try log.append(Ev.scan("s1", by: "ines", at: "2026-11-01T10:00:00Z", result: "counterfeit"))
        let again = try #require(try refusal(Ev.scan("s1", by: "ada", at: "2026-11-01T10:00:01Z"), in: log))
        #expect(again.field.path == "data.scanId")
        let missing = try #require(try refusal(Ev.report("s9", reason: "label", by: "ines", at: "2026-11-01T10:00:01Z"), in: log))
        #expect(missing.field.rule.contains("no such scan"))
        try log.append(Ev.report("s1", reason: "label", by: "ines", at: "2026-11-01T10:00:02Z"))
        let twice = try #require(try refusal(Ev.report("s1", reason: "price", by: "ada", at: "2026-11-01T10:00:03Z"), in: log))
        #expect(twice.field.rule.contains("already reported"))
    }

    @Test("a calories goal above 0 needs a fitness.updated first")
    func caloriesGoal() throws {
        let log = try started()
        let e = try #require(try refusal(Ev.goal("cleo", month: "2026-11", metric: "calories", target: "500", at: "2026-11-01T10:00:00Z"), in: log))
        #expect(e.field.path == "data.target")
        try log.append(Ev.goal("cleo", month: "2026-11", metric: "calories", target: "0", at: "2026-11-01T10:00:00Z"))
        try log.append(Ev.fitness("cleo", at: "2026-11-01T10:00:01Z"))
        try log.append(Ev.goal("cleo", month: "2026-11", metric: "calories", target: "500", at: "2026-11-01T10:00:02Z"))
    }

    @Test("a session is not after its at's date and its id is not reused")
    func sessions() throws {
        let log = try started()
        let future = try #require(try refusal(Ev.session("cleo", "x1", by: "cleo", at: "2026-11-01T10:00:00Z", date: "2026-11-02"), in: log))
        #expect(future.field.path == "data.date")
        try log.append(Ev.session("cleo", "x1", by: "cleo", at: "2026-11-01T10:00:00Z", date: "2026-11-01"))
        let reused = try #require(try refusal(Ev.session("cleo", "x1", by: "ada", at: "2026-11-01T10:00:01Z", date: "2026-11-01"), in: log))
        #expect(reused.field.path == "data.sessionId")
    }

    @Test("a status change is an admin's, of a customer, to another status")
    func statusChange() throws {
        let log = try started()
        let byInspector = try #require(try refusal(Ev.line("status.changed", "ines", at: "2026-11-01T10:00:00Z",
                                                           #""username":"cleo","status":"ONBOARDED""#), in: log))
        #expect(byInspector.isPermission)
        let same = try #require(try refusal(Ev.line("status.changed", "ada", at: "2026-11-01T10:00:00Z",
                                                    #""username":"cleo","status":"AWAITED""#), in: log))
        #expect(same.field.path == "data.status")
    }
}
