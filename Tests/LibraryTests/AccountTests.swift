import Testing
import VeritrailKit

/// Accounts, passcodes and the process writes through the public API: each passcode, confirmation and
/// placement is asked of the caller in the order a person meets them, and every write takes `WriteOptions`.
@Suite struct AccountTests {
    let directory: TemporaryDirectory
    let clock = TestClock("2026-11-20T10:00:00Z")
    let store: VeritrailStore
    let adminPasscode: PasscodeProvider = { $0 == "admin" ? "2468" : nil }

    init() throws {
        directory = try TemporaryDirectory()
        store = try VeritrailStore.withAdmin(in: directory, clock: clock)
    }

    static func maria(city: String = "Paris, France") -> NewAccount {
        var maria = NewAccount(username: "mlopez", name: "Maria Lopez", email: "m@example.org")
        maria.street = "1 Rue de la Paix"; maria.city = city; maria.zipcode = "69001"
        return maria
    }

    /// `mlopez` registered by herself with passcode 1357, and unlocked.
    func registerMaria() throws {
        try store.register(Self.maria(), newPasscode: { _ in "1357" })
        try store.unlock("mlopez", passcode: "1357")
    }

    @Test func theGazetteerPlacesACityAndSaysWhenItGuessed() throws {
        guard case .placed(let paris, let rivals) = try CityPlacement.place("Paris", country: "FR") else {
            Issue.record("Paris was not placed")
            return
        }
        #expect(paris.name == "Paris" && paris.country == "France" && paris.countryCode == "FR" && rivals.isEmpty)
        #expect(abs(paris.latitude - 48.85) < 0.1 && abs(paris.longitude - 2.35) < 0.1)
        guard case .placed(_, let springfields) = try CityPlacement.place("Springfield") else {
            Issue.record("Springfield was not placed")
            return
        }
        #expect(!springfields.isEmpty, "places of similar size bear the name: a guess")
        #expect(try CityPlacement.place("Gwenborough") == .notFound)
        #expect {
            try CityPlacement.place("Bern", country: "Narnia")
        } throws: { error in
            guard case .unknown(_, let cause) = error as? VeritrailError else { return false }
            return (cause as? UnknownCountry)?.description.contains("Narnia") == true
        }
    }

    @Test func aCustomerRegistersHerselfHerCityPlacedAndHerPasscodeAskedAfterTheRules() throws {
        var told: [(String, CityPlacement)] = []
        var asked = 0
        // The same e-mail as the admin's: refused before the new passcode is asked or the placement told (#23.10).
        var taken = Self.maria()
        taken.email = "admin@example.org"
        #expect(throws: VeritrailError.self) {
            try store.register(taken, newPasscode: { _ in asked += 1; return "1357" }, placed: { told.append(($0, $1)) })
        }
        #expect(asked == 0 && told.isEmpty)
        let appended = try store.register(Self.maria(), newPasscode: { _ in asked += 1; return "1357" }, placed: { told.append(($0, $1)) })
        #expect(asked == 1 && appended.map(\.type) == [.accountRegistered, .passcodeSet])
        #expect(told.count == 1 && told.first?.0 == "Paris, France")
        #expect(try store.customer("mlopez")["geo"]?["lat"] != nil)
        try store.unlock("mlopez", passcode: "1357")
    }

    @Test func registeringYourselfIsAsACustomerWithACompleteAddress() throws {
        var inspector = NewAccount(username: "ines", name: "Inès", email: "ines@example.org", role: .inspector)
        #expect {
            try store.register(inspector, newPasscode: { _ in "1357" })
        } throws: { error in
            if case .notAllowed = error as? VeritrailError { return true }
            return false
        }
        inspector.role = .customer
        inspector.street = "1 Rue"
        #expect {
            try store.register(inspector, newPasscode: { _ in "1357" })
        } throws: { error in
            (error as? VeritrailError)?.exitCode == 64
        }
        inspector.country = "Narnia"
        inspector.city = "Bern"; inspector.zipcode = "3000"
        #expect {
            try store.register(inspector, newPasscode: { _ in "1357" })
        } throws: { error in
            guard case .unknown(_, let cause) = error as? VeritrailError else { return false }
            return cause is UnknownCountry
        }
    }

    @Test func anUpdateCompletesTheAddressFromTheCurrentOneAndPlacesItsCity() throws {
        try registerMaria()
        var changes = AccountChanges()
        changes.city = "Zermatt"
        var told: [String] = []
        try store.updateAccount("mlopez", changes, as: "mlopez", options: WriteOptions(eventID: "update-1"),
                                placed: { city, _ in told.append(city) })
        #expect(told == ["Zermatt"])
        let customer = try store.customer("mlopez")
        #expect(customer["address"]?["street"]?.stringValue == "1 Rue de la Paix")
        #expect(customer["address"]?["city"]?.stringValue == "Zermatt")
        #expect {
            try store.updateAccount("ghost", changes, as: "admin", passcode: adminPasscode)
        } throws: { error in
            if case .unknown = error as? VeritrailError { return true }
            return false
        }
    }

    @Test func unlockAsksThePasscodeOnlyOfAnAccountThatExists() throws {
        try registerMaria()
        var asked: [String] = []
        #expect(throws: VeritrailError.self) { try store.unlock("ghost", passcode: { asked.append($0); return "1357" }) }
        #expect(asked.isEmpty)
        #expect {
            try store.unlock("mlopez", passcode: { _ in nil })
        } throws: { error in
            if case .notAllowed = error as? VeritrailError { return true }
            return false
        }
        try store.unlock("mlopez", passcode: { asked.append($0); return "1357" })
        #expect(asked == ["mlopez"])
    }

    @Test func changingAPasscodeAsksTheCurrentOneAndAResetNeedsAnAdmin() throws {
        try registerMaria()
        var asked: [String] = []
        // A customer may not reset the admin's passcode: refused before anything is asked.
        #expect(throws: VeritrailError.self) {
            try store.setPasscode(for: "admin", as: "mlopez", current: { asked.append("current " + $0); return "1357" },
                                  new: { asked.append("new " + $0); return "1111" })
        }
        #expect(asked.isEmpty)
        try store.setPasscode(as: "mlopez", current: { asked.append("current " + $0); return "1357" },
                              new: { asked.append("new " + $0); return "1111" })
        #expect(asked == ["current mlopez", "new mlopez"])
        asked = []
        clock.advance(seconds: 16 * 60)
        try store.setPasscode(for: "mlopez", as: "admin", current: { asked.append("current " + $0); return nil },
                              new: { asked.append("new " + $0); return "2222" },
                              passcode: { asked.append("gate " + $0); return "2468" })
        #expect(asked == ["gate admin", "new mlopez"])
        try store.unlock("mlopez", passcode: "2222")
    }

    @Test func aDeletionIsConfirmedAfterTheRulesAndDeclinedDeletesNothing() throws {
        try registerMaria()
        var shown: [AccountSummary] = []
        try store.unlock("admin", passcode: "2468")
        // The last admin can not be deleted: refused before the question.
        #expect(throws: VeritrailError.self) {
            try store.deleteAccount("admin", as: "admin", confirm: { shown.append($0); return true })
        }
        #expect(shown.isEmpty)
        let before = try store.head()
        let declined = try store.deleteAccount("mlopez", as: "admin", confirm: { shown.append($0); return false })
        #expect(declined.isEmpty)
        #expect(try store.head() == before)
        #expect(shown.first?.name == "Maria Lopez" && shown.first?.role == .customer)
        let deleted = try store.deleteAccount("mlopez", reason: "test", as: "admin", confirm: { _ in true })
        #expect(deleted.map(\.type) == [.accountDeleted])
    }

    @Test func theProcessWritesTakeTheirIdAndADryRunWritesNothing() throws {
        try registerMaria()
        try store.unlock("admin", passcode: "2468")
        let before = try store.head()
        try store.changeCustomerStatus("mlopez", to: .onboarded, as: "admin", options: WriteOptions(dryRun: true))
        try store.updateSettings(flash: true, as: "mlopez", options: WriteOptions(dryRun: true))
        try store.setFitness(bodyType: 1, heightInches: 70, as: "mlopez", options: WriteOptions(dryRun: true))
        try store.setGoal(.jumps, target: 100, as: "mlopez", options: WriteOptions(dryRun: true))
        #expect(try store.head() == before)
        #expect(try store.changeCustomerStatus("mlopez", to: .onboarded, as: "admin", options: WriteOptions(eventID: "status-1")).first?.id == "status-1")
        #expect(try store.updateSettings(historyWindow: .all, as: "mlopez", options: WriteOptions(eventID: "settings-1")).first?.id == "settings-1")
        #expect(try store.setFitness(bodyType: 1, heightInches: 70, as: "mlopez", options: WriteOptions(eventID: "fit-1")).first?.id == "fit-1")
        #expect(try store.setGoal(.jumps, target: 100, as: "mlopez", options: WriteOptions(eventID: "goal-1")).first?.id == "goal-1")
        let session = try store.recordSession(park: "Plainfield", start: "13:00", end: "14:00", jumps: 10, calories: 1, as: "mlopez",
                                              options: WriteOptions(eventID: "session-1"))
        #expect(session.sessionId.hasPrefix("ses-") && session.events.first?.id == "session-1")
        _ = try store.search("serum", as: "mlopez", options: WriteOptions(eventID: "search-1"))
        let searched = try store.head()
        // The same write under the same id is not written again: a retry is safe.
        _ = try store.search("serum", as: "mlopez", options: WriteOptions(eventID: "search-1"))
        #expect(try store.head() == searched)
        #expect(try store.goals("mlopez")["metrics"]?.arrayValue?.first?["progress"]?.intValue == 10)
    }

    /// Refused by the library itself, so that the command line and the server give one code for each: a change
    /// of nothing and a value of the wrong form are `.malformed` (64), a new passcode not 4–8 digits is
    /// `.badPasscode` (65), refused before the current one is tried; none writes anything.
    @Test func requestsThatSayNothingOrGiveAWrongFormAreRefusedBeforeAnythingIsWritten() throws {
        try registerMaria()
        let before = try store.head()
        func refused(_ code: Int32, _ write: () throws -> Void) {
            #expect {
                try write()
            } throws: { error in
                (error as? VeritrailError)?.exitCode == code
            }
        }
        refused(64) { try store.updateAccount("mlopez", AccountChanges(), as: "mlopez") }
        refused(64) { try store.updateSettings(as: "mlopez") }
        refused(64) { try store.recordSession(park: "P", start: "25:00", end: "14:00", jumps: 1, calories: 1, as: "mlopez") }
        refused(64) { try store.recordSession(park: "P", start: "13:00", end: "1400", jumps: 1, calories: 1, as: "mlopez") }
        refused(64) { try store.recordSession(park: "P", start: "13:00", end: "14:00", jumps: 1, calories: 1, date: "2026-13-01", as: "mlopez") }
        var tried = false
        refused(65) { try store.setPasscode(to: "12ab", current: "1357", as: "mlopez") }
        refused(65) { try store.setPasscode(as: "mlopez", current: { _ in tried = true; return "1357" }, new: { _ in "123" }) }
        var newcomer = Self.maria()
        newcomer.username = "newcomer"; newcomer.email = "nc@example.org"
        refused(65) { try store.register(newcomer, newPasscode: { _ in "123456789" }) }
        #expect(tried, "a provider asks the current passcode before the new one, as a person meets them")
        // The provider's try of the current passcode is an attempt, as any is; nothing else was written.
        #expect(try store.head().seq == before.seq + 1)
    }
}
