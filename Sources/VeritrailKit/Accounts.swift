public import Domain
public import Engine
import Projections
import StrictJSON

/// A new account's details, as `veritrail register` takes them (the address is kept without geo: the
/// library does not geocode).
public struct NewAccount: Sendable {
    /// The new username (unique, never reused).
    public var username: String
    /// The person's name.
    public var name: String
    /// The e-mail (unique).
    public var email: String
    /// Admin, inspector or customer: only an admin registers another role than customer.
    public var role: Role
    /// The phone number.
    public var phone: String?
    /// The website.
    public var website: String?
    /// The address: street, city and zipcode together (a customer needs one), suite optional.
    public var street: String?
    /// The suite or apartment.
    public var suite: String?
    /// The city, kept as given (the library does not geocode it).
    public var city: String?
    /// The postal code.
    public var zipcode: String?
    /// The company: its name, and optionally its catch phrase and bs.
    public var company: String?
    /// The company's catch phrase.
    public var catchPhrase: String?
    /// The company's bs.
    public var bs: String?

    /// An account with the details every account needs; set the others as fields.
    public init(username: String, name: String, email: String, role: Role = .customer) {
        self.username = username
        self.name = name
        self.email = email
        self.role = role
    }

    /// The event's `data`: absent details stay absent, and the rules refuse an incomplete address.
    var data: [(String, JSONValue?)] {
        let address = EventData.object([("street", EventData.string(street)), ("suite", EventData.string(suite)),
                                         ("city", EventData.string(city)), ("zipcode", EventData.string(zipcode))])
        let company = EventData.object([("name", EventData.string(company)), ("catchPhrase", EventData.string(catchPhrase)),
                                        ("bs", EventData.string(bs))])
        return [("username", .string(username)), ("role", .string(role.rawValue)), ("name", .string(name)),
                ("email", .string(email)), ("phone", EventData.string(phone)), ("website", EventData.string(website)),
                ("address", address), ("company", company)]
    }
}

extension VeritrailStore {
    /// Registers `account` (`veritrail register`): by an admin `actor` (any role, through the gate, asking
    /// `passcode` when needed), or, with `actor` nil or the account itself, a customer registering
    /// themselves with `newPasscode`, set in the same transaction.
    @discardableResult
    public func register(_ account: NewAccount, as actor: String? = nil, newPasscode: String? = nil,
                         passcode: PasscodeProvider? = nil) throws(VeritrailError) -> [AppendedEvent] {
        let actor = actor ?? account.username
        let selfRegistering = actor == account.username
        var credential: Credential?
        if selfRegistering {
            guard let newPasscode else { throw .malformed("registering yourself sets a passcode: give newPasscode", line: nil) }
            credential = try Gatekeeper.credential(for: newPasscode)
        }
        return try appendGated(as: selfRegistering ? nil : actor, passcode: passcode) { at, _ in
            var events = [try EventData.event(.accountRegistered, actor: actor, at: at, account.data)]
            if let credential {
                events.append(try EventData.event(.passcodeSet, actor: actor, at: at, EventData.passcode(account.username, credential)))
            }
            return events
        }
    }

    /// Enters `actor`'s passcode (`veritrail unlock`): the attempt is recorded whatever its outcome; when
    /// granted, `actor` may write for the next fifteen minutes. `.notAllowed` when denied or locked out.
    public func unlock(_ actor: String, passcode: String) throws(VeritrailError) {
        _ = try VeritrailError.catching { try store.activeAccount(actor) }
        try attempt(actor, passcode: passcode)
    }

    /// Sets a passcode (`veritrail passcode set`): one's own (`target` nil or `actor`) after checking the
    /// `current` one when there is one (an attempt like any other), or, as an admin, another's, through
    /// the gate.
    @discardableResult
    public func setPasscode(to newPasscode: String, for target: String? = nil, current: String? = nil, as actor: String,
                            passcode: PasscodeProvider? = nil) throws(VeritrailError) -> [AppendedEvent] {
        let target = target ?? actor
        let credential = try Gatekeeper.credential(for: newPasscode)
        if target == actor {
            let hasPasscode = try VeritrailError.catching { try store.activeAccount(actor).lockout.hasPasscode }
            if hasPasscode {
                guard let current else { throw .notAllowed("the current passcode is needed to change it", lockedSeconds: nil, cause: nil) }
                try attempt(actor, passcode: current)
            }
        }
        return try appendGated(as: target == actor ? nil : actor, passcode: passcode) { at, _ in
            [try EventData.event(.passcodeSet, actor: actor, at: at, EventData.passcode(target, credential))]
        }
    }

    /// Deletes `username` (`veritrail account delete`; admins only, never the last admin).
    @discardableResult
    public func deleteAccount(_ username: String, reason: String? = nil, as actor: String,
                              passcode: PasscodeProvider? = nil) throws(VeritrailError) -> [AppendedEvent] {
        try appendGated(as: actor, passcode: passcode) { at, _ in
            [try EventData.event(.accountDeleted, actor: actor, at: at,
                                 [("username", .string(username)), ("reason", EventData.string(reason))])]
        }
    }

    /// Moves a customer to another process status (`veritrail customer status`; admins only).
    @discardableResult
    public func changeCustomerStatus(_ username: String, to status: CustomerStatus, note: String? = nil, as actor: String,
                                     passcode: PasscodeProvider? = nil) throws(VeritrailError) -> [AppendedEvent] {
        try appendGated(as: actor, passcode: passcode) { at, _ in
            [try EventData.event(.statusChanged, actor: actor, at: at,
                                 [("username", .string(username)), ("status", .string(status.rawValue)), ("note", EventData.string(note))])]
        }
    }

    /// Changes `actor`'s own scanner and history settings (`veritrail settings set`); nil leaves one as it is.
    @discardableResult
    public func updateSettings(flash: Bool? = nil, captureMode: CaptureMode? = nil, historyWindow: HistoryWindow? = nil,
                               color: ScannerColor? = nil, as actor: String,
                               passcode: PasscodeProvider? = nil) throws(VeritrailError) -> [AppendedEvent] {
        try appendGated(as: actor, passcode: passcode) { at, _ in
            [try EventData.event(.settingsChanged, actor: actor, at: at, [
                ("username", .string(actor)), ("flash", EventData.bool(flash)), ("captureMode", EventData.string(captureMode?.rawValue)),
                ("historyWindow", EventData.string(historyWindow?.rawValue)), ("color", EventData.string(color?.rawValue)),
            ])]
        }
    }
}
