public import Domain
import EventLog

/// Everything the read models know of one account: its registered details, its passcode gate, its
/// customer process, its settings, recent searches and fitness profile.
public struct AccountRecord: Sendable, Equatable {
    public var username: String
    public var role: Role
    public var name: String
    public var email: String
    public var phone: String?
    public var website: String?
    public var address: Address?
    public var geo: Geo?
    public var company: Company?
    public var registeredAt: Timestamp
    public var registeredBy: String
    public var deleted = false
    public var lockout = Lockout()
    /// The passcode's PBKDF2 credential (never the passcode), for the CLI to check an attempt against.
    public var credential: Credential?
    public var statusHistory: [StatusEntry] = []
    /// How much of `statusHistory` was read: `.last` for a record read only to be shown in a list, never
    /// written (`encoded` refuses it).
    public private(set) var historyKept = HistoryKept.whole
    public var fitness: Fitness?
    public var settings = Settings()
    /// The last distinct queries (case-insensitively), newest first, at most 10.
    public var searches: [String] = []

    /// How much of a customer's status history a record is read with: all of it, or its last entry (the
    /// current status, all a list of accounts shows). A history grows with every change of status, and making
    /// each entry's strings for every customer was most of what `customers`, `lockout` and `accounts` did
    /// on a long log (docs/BENCHMARKS.md, "fifteenth session").
    public enum HistoryKept: Sendable, Equatable { case whole, last }

    public struct StatusEntry: Sendable, Equatable {
        public var status: CustomerStatus
        public var at: Timestamp
        public var by: String
        public var note: String?
    }

    public struct Fitness: Sendable, Equatable {
        public var bodyType: Int64
        public var heightInches: Int64
    }

    /// The scanner and history settings, with the defaults of events.md §3.2.
    public struct Settings: Sendable, Equatable {
        public var flash = false
        public var captureMode = CaptureMode.single
        public var historyWindow = HistoryWindow.thirtyDays
        public var color = ScannerColor.white

        public init() {}
    }

    /// The customer's current status: the last entry of its history.
    public var status: CustomerStatus? { statusHistory.last?.status }

    var facts: AccountFacts {
        AccountFacts(role: role, deleted: deleted, registeredBySystem: registeredBy == "system", lockout: lockout,
                     status: status, hasFitness: fitness != nil)
    }
}

extension AccountRecord {
    init(registered p: AccountRegistered, at: Timestamp, by actor: String) {
        username = p.username; role = p.role; name = p.name; email = p.email; phone = p.phone
        website = p.website; address = p.address; geo = p.geo; company = p.company
        registeredAt = at; registeredBy = actor
        if p.role == .customer { statusHistory = [StatusEntry(status: .awaited, at: at, by: actor, note: nil)] }
    }

    func encoded() -> [UInt8] {
        precondition(historyKept == .whole, "an account read with its last status only is never written")
        var s = BinaryFieldSink()
        s.raw(username); s.choice("", role); s.raw(name); s.raw(email)
        s.optionalString("", phone); s.optionalString("", website)
        s.optionalObject("", address) { s, v in v.write(to: &s) }
        s.optionalObject("", geo) { s, v in v.write(to: &s) }
        s.optionalObject("", company) { s, v in v.write(to: &s) }
        s.signed(registeredAt.microseconds); s.raw(registeredBy); s.boolean("", deleted)
        s.boolean("", lockout.hasPasscode); s.varint(UInt64(lockout.failures))
        s.optionalInteger("", lockout.lockedUntil?.microseconds); s.optionalInteger("", lockout.unlockedUntil?.microseconds)
        s.optionalInteger("", lockout.lastAttemptAt?.microseconds); s.optionalChoice("", lockout.lastOutcome)
        s.varint(UInt64(lockout.granted)); s.varint(UInt64(lockout.denied)); s.varint(UInt64(lockout.locked))
        s.optionalObject("", credential) { s, v in v.write(to: &s) }
        s.varint(UInt64(statusHistory.count))
        for entry in statusHistory {
            s.choice("", entry.status); s.signed(entry.at.microseconds); s.raw(entry.by); s.optionalString("", entry.note)
        }
        s.optionalObject("", fitness) { s, f in s.signed(f.bodyType); s.signed(f.heightInches) }
        s.boolean("", settings.flash); s.choice("", settings.captureMode); s.choice("", settings.historyWindow)
        s.choice("", settings.color)
        s.varint(UInt64(searches.count))
        for query in searches { s.raw(query) }
        return s.bytes
    }

    /// The record stored as `bytes`, its status history kept as `history` says: with `.last` the earlier
    /// entries are read past, their status, time and lengths checked as before, without making their strings.
    init(decoding bytes: UnsafeRawBufferPointer, history: HistoryKept = .whole) throws(FieldError) {
        var s = BinaryFieldSource(bytes: bytes)
        historyKept = history
        username = try s.raw("username"); role = try s.choice("role", Role.self); name = try s.raw("name")
        email = try s.raw("email")
        phone = try s.optionalString("phone", .code); website = try s.optionalString("website", .code)
        address = try s.optionalObject("address") { (s: inout BinaryFieldSource) throws(FieldError) in try Address(from: &s) }
        geo = try s.optionalObject("geo") { (s: inout BinaryFieldSource) throws(FieldError) in try Geo(from: &s) }
        company = try s.optionalObject("company") { (s: inout BinaryFieldSource) throws(FieldError) in try Company(from: &s) }
        registeredAt = Timestamp(microseconds: try s.signed("registeredAt")); registeredBy = try s.raw("registeredBy")
        deleted = try s.boolean("deleted")
        lockout.hasPasscode = try s.boolean("hasPasscode"); lockout.failures = Int(try s.varint("failures"))
        lockout.lockedUntil = try s.optionalInteger("lockedUntil", 0...0).map(Timestamp.init(microseconds:))
        lockout.unlockedUntil = try s.optionalInteger("unlockedUntil", 0...0).map(Timestamp.init(microseconds:))
        lockout.lastAttemptAt = try s.optionalInteger("lastAttemptAt", 0...0).map(Timestamp.init(microseconds:))
        lockout.lastOutcome = try s.optionalChoice("lastOutcome", AttemptOutcome.self)
        lockout.granted = Int(try s.varint("granted")); lockout.denied = Int(try s.varint("denied"))
        lockout.locked = Int(try s.varint("locked"))
        credential = try s.optionalObject("credential") { (s: inout BinaryFieldSource) throws(FieldError) in try Credential(from: &s) }
        let statusCount = Int(try s.varint("statusHistory"))
        statusHistory.reserveCapacity(history == .whole ? statusCount : 1)
        for i in 0..<statusCount {
            if history == .last && i + 1 < statusCount {
                _ = try s.choice("status", CustomerStatus.self); _ = try s.signed("at"); _ = try s.rawBytes("by")
                if try s.byte("note") != 0 { _ = try s.rawBytes("note") }
                continue
            }
            statusHistory.append(StatusEntry(status: try s.choice("status", CustomerStatus.self),
                                             at: Timestamp(microseconds: try s.signed("at")), by: try s.raw("by"),
                                             note: try s.optionalString("note", .code)))
        }
        fitness = try s.optionalObject("fitness") { (s: inout BinaryFieldSource) throws(FieldError) in
            Fitness(bodyType: try s.signed("bodyType"), heightInches: try s.signed("heightInches"))
        }
        settings.flash = try s.boolean("flash"); settings.captureMode = try s.choice("captureMode", CaptureMode.self)
        settings.historyWindow = try s.choice("historyWindow", HistoryWindow.self)
        settings.color = try s.choice("color", ScannerColor.self)
        let searchCount = Int(try s.varint("searches"))
        for _ in 0..<searchCount { searches.append(try s.raw("search")) }
    }
}
