public import Domain
import Engine
import Projections
import StrictJSON

/// A new account's details, as `veritrail register` takes them; the address's city is placed by the
/// gazetteer (`CityPlacement`) and kept with its coordinates.
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
    /// The city, kept as given, or `City, Country`: placed by the gazetteer for the account's `geo`.
    public var city: String?
    /// The postal code.
    public var zipcode: String?
    /// The city's country, by name or ISO code, to place the city (not stored).
    public var country: String?
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

    /// The event's `data`, the city placed (told to `placed`): absent details stay absent. `.malformed` for
    /// an address without its street, city and zipcode.
    func data(placed: CityPlacementReport) throws(VeritrailError) -> [(String, JSONValue?)] {
        let address = try AddressInput(street: street, suite: suite, city: city, zipcode: zipcode, country: country)
            .data(current: nil, placed: placed)
        let company = EventData.object([("name", EventData.string(company)), ("catchPhrase", EventData.string(catchPhrase)),
                                        ("bs", EventData.string(bs))])
        return [("username", .string(username)), ("role", .string(role.rawValue)), ("name", .string(name)),
                ("email", .string(email)), ("phone", EventData.string(phone)), ("website", EventData.string(website)),
                ("address", address?.address), ("geo", address?.geo), ("company", company)]
    }
}

/// The account a deletion would remove, shown to whoever confirms it.
public struct AccountSummary: Sendable {
    /// The username.
    public var username: String
    /// The person's name.
    public var name: String
    /// The account's role.
    public var role: Role
}

extension VeritrailStore {
    /// Registers `account` (`veritrail register`): by an admin `actor` (any role, through the gate, asking
    /// `passcode` when needed), or, with `actor` nil or the account itself, a customer registering
    /// themselves, whose new passcode `newPasscode` gives and which is set in the same transaction.
    ///
    /// In the order a person meets them: registering yourself as another role than customer is not allowed;
    /// an incomplete address is `.malformed`; the city is placed, every rule is checked (a taken username is
    /// refused here) and only then is the placement told to `placed` (even when the gate then refuses the
    /// write) and, registering yourself, `newPasscode` asked, so that a refusal never asks in vain. What `newPasscode` throws refuses the registration as
    /// not allowed, kept as the cause.
    @discardableResult
    public func register(_ account: NewAccount, as actor: String? = nil, newPasscode: NewPasscodeProvider? = nil,
                         passcode: PasscodeProvider? = nil, options: WriteOptions = WriteOptions(),
                         placed: CityPlacementReport = { _, _ in }) throws(VeritrailError) -> [AppendedEvent] {
        let actor = actor ?? account.username
        let selfRegistering = actor == account.username
        if selfRegistering && account.role != .customer {
            throw .notAllowed("you can register yourself only as a customer; an admin registers other roles (--as ADMIN)",
                              lockedSeconds: nil, cause: nil)
        }
        var placements: [(city: String, placement: CityPlacement)] = []
        let data = try account.data(placed: { placements.append(($0, $1)) })
        let registered = { (at: Timestamp) throws in try EventData.event(.accountRegistered, actor: actor, at: at, data) }
        // A check of the rules only, under the write's id: a taken username is refused before the placement is
        // told or a passcode asked, and a retry of a registration that was written (`--id`) finds it logged
        // rather than the username taken.
        try appendGated(as: nil, passcode: nil, options: WriteOptions(eventID: options.eventID, dryRun: true)) { at, _ in [try registered(at)] }
        for told in placements { placed(told.city, told.placement) }
        guard selfRegistering else {
            return try appendGated(as: actor, passcode: passcode, options: options) { at, _ in [try registered(at)] }
        }
        guard let newPasscode else { throw .malformed("registering yourself sets a passcode: give newPasscode", line: nil) }
        let given = try VeritrailError.fromCaller { try newPasscode(account.username) }
        // A retry of a registration that was written (its id in the log) passes the gate of the account it made
        // with the passcode it gives, an attempt recorded like any: a retry's answer (already recorded for the
        // same passcode, refused for another) would otherwise tell anyone who knows the id whether a guess is the
        // account's passcode, with no attempt and no lockout.
        if try isLogged(options.eventID) { try attempt(account.username, passcode: given) }
        let credential = try credential(for: given, retrying: options, index: 1)
        return try appendGated(as: nil, passcode: nil, options: options) { at, _ in
            [try registered(at),
             try EventData.event(.passcodeSet, actor: actor, at: at, EventData.passcode(account.username, credential))]
        }
    }

    /// Deletes `username` (`veritrail account delete`; admins only, never the last admin). With `confirm`,
    /// every rule is checked first, then `confirm` is asked with the account: false deletes nothing and
    /// returns no events; what it throws refuses the deletion as not allowed, kept as the cause.
    /// An account that does not exist or is deleted is `.unknown` before anything is asked.
    @discardableResult
    public func deleteAccount(_ username: String, reason: String? = nil, as actor: String, passcode: PasscodeProvider? = nil,
                              options: WriteOptions = WriteOptions(),
                              confirm: ((AccountSummary) throws -> Bool)? = nil) throws(VeritrailError) -> [AppendedEvent] {
        let make = { (at: Timestamp, _: Models) throws in
            [try EventData.event(.accountDeleted, actor: actor, at: at,
                                 [("username", .string(username)), ("reason", EventData.string(reason))])]
        }
        // The retry (`--id`) of a deletion that was written: the account is gone, and the write finds it logged.
        if try isLogged(options.eventID) { return try appendGated(as: actor, passcode: passcode, options: options, make) }
        let account = try answer(asOf: .seq(.max), now: nil) { context in try context.activeAccount(username) }
        if let confirm {
            // The rules only (the gate asks its passcode after the question), under an id of its own.
            try appendGated(as: nil, passcode: nil, options: WriteOptions(dryRun: true), make)
            let summary = AccountSummary(username: username, name: account.name, role: account.role)
            guard try VeritrailError.fromCaller({ try confirm(summary) }) else { return [] }
        }
        return try appendGated(as: actor, passcode: passcode, options: options, make)
    }

    /// Moves a customer to another process status (`veritrail customer status`; admins only).
    @discardableResult
    public func changeCustomerStatus(_ username: String, to status: CustomerStatus, note: String? = nil, as actor: String,
                                     passcode: PasscodeProvider? = nil,
                                     options: WriteOptions = WriteOptions()) throws(VeritrailError) -> [AppendedEvent] {
        try appendGated(as: actor, passcode: passcode, options: options) { at, _ in
            [try EventData.event(.statusChanged, actor: actor, at: at,
                                 [("username", .string(username)), ("status", .string(status.rawValue)), ("note", EventData.string(note))])]
        }
    }

    /// Changes `actor`'s own scanner and history settings (`veritrail settings set`); nil leaves one as it is,
    /// and all four nil is `.malformed`.
    @discardableResult
    public func updateSettings(flash: Bool? = nil, captureMode: CaptureMode? = nil, historyWindow: HistoryWindow? = nil,
                               color: ScannerColor? = nil, as actor: String, passcode: PasscodeProvider? = nil,
                               options: WriteOptions = WriteOptions()) throws(VeritrailError) -> [AppendedEvent] {
        // A change of nothing says nothing (64), as `updateAccount`'s does.
        guard flash != nil || captureMode != nil || historyWindow != nil || color != nil else {
            throw .malformed("nothing to set: give at least one of flash, captureMode, historyWindow, color", line: nil)
        }
        return try appendGated(as: actor, passcode: passcode, options: options) { at, _ in
            [try EventData.event(.settingsChanged, actor: actor, at: at, [
                ("username", .string(actor)), ("flash", EventData.bool(flash)), ("captureMode", EventData.string(captureMode?.rawValue)),
                ("historyWindow", EventData.string(historyWindow?.rawValue)), ("color", EventData.string(color?.rawValue)),
            ])]
        }
    }
}
