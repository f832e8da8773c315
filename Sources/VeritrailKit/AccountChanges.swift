import Domain
public import Engine
import Projections
import StrictJSON

/// What `updateAccount` changes: the details given; the others stay as they are (e-mail and role never
/// change, events.md).
public struct AccountChanges: Sendable {
    /// The person's name.
    public var name: String?
    /// The phone number.
    public var phone: String?
    /// The website.
    public var website: String?
    /// The address's parts: those not given keep the account's current ones (`city` alone moves it).
    public var street: String?
    /// The suite or apartment.
    public var suite: String?
    /// The city, kept as given (the library does not geocode it).
    public var city: String?
    /// The postal code.
    public var zipcode: String?
    /// The company's name; with it, optionally its catch phrase and bs.
    public var company: String?
    /// The company's catch phrase.
    public var catchPhrase: String?
    /// The company's bs.
    public var bs: String?

    /// No change yet; set the fields to change.
    public init() {}

    /// The event's `data` for `username`, the address completed from `current` as this write reads it.
    func data(_ username: String, current: Address?) -> [(String, JSONValue?)] {
        var address: JSONValue?
        if [street, suite, city, zipcode].contains(where: { $0 != nil }) {
            address = EventData.object([
                ("street", EventData.string(street ?? current?.street)), ("suite", EventData.string(suite ?? current?.suite)),
                ("city", EventData.string(city ?? current?.city)), ("zipcode", EventData.string(zipcode ?? current?.zipcode)),
            ])
        }
        let company = company.flatMap { name in
            EventData.object([("name", .string(name)), ("catchPhrase", EventData.string(catchPhrase)), ("bs", EventData.string(bs))])
        }
        return [("username", .string(username)), ("name", EventData.string(name)), ("phone", EventData.string(phone)),
                ("website", EventData.string(website)), ("address", address), ("company", company)]
    }
}

extension VeritrailStore {
    /// Changes `username`'s details (`veritrail account update`): by the account itself or an admin,
    /// through the gate. An incomplete address (no current one to complete it from) is refused by the rules.
    @discardableResult
    public func updateAccount(_ username: String, _ changes: AccountChanges, as actor: String,
                              passcode: PasscodeProvider? = nil) throws(VeritrailError) -> [AppendedEvent] {
        try appendGated(as: actor, passcode: passcode) { at, models in
            let current = try models.account(username)?.address
            return [try EventData.event(.accountUpdated, actor: actor, at: at, changes.data(username, current: current))]
        }
    }
}
