import Domain
import Engine
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
    /// The city, kept as given, or `City, Country`: placed by the gazetteer for the account's `geo`.
    public var city: String?
    /// The postal code.
    public var zipcode: String?
    /// The city's country, by name or ISO code, to place the city (not stored).
    public var country: String?
    /// The company's name; with it, optionally its catch phrase and bs.
    public var company: String?
    /// The company's catch phrase.
    public var catchPhrase: String?
    /// The company's bs.
    public var bs: String?

    /// No change yet; set the fields to change.
    public init() {}

    /// Whether no field is given: `updateAccount` refuses such a change as `.malformed`, a request that says
    /// nothing (exit 64), not an event a rule refuses.
    public var isEmpty: Bool {
        [name, phone, website, street, suite, city, zipcode, country, company, catchPhrase, bs].allSatisfy { $0 == nil }
    }

    /// The event's `data` for `username`, the address completed from `current` and its city placed (told to
    /// `placed`). `.malformed` when the address, completed, lacks its street, city or zipcode.
    func data(_ username: String, current: Address?, placed: CityPlacementReport) throws(VeritrailError) -> [(String, JSONValue?)] {
        let address = try AddressInput(street: street, suite: suite, city: city, zipcode: zipcode, country: country)
            .data(current: current, placed: placed)
        let company = company.flatMap { name in
            EventData.object([("name", .string(name)), ("catchPhrase", EventData.string(catchPhrase)), ("bs", EventData.string(bs))])
        }
        return [("username", .string(username)), ("name", EventData.string(name)), ("phone", EventData.string(phone)),
                ("website", EventData.string(website)), ("address", address?.address), ("geo", address?.geo), ("company", company)]
    }
}

extension VeritrailStore {
    /// Changes `username`'s details (`veritrail account update`): by the account itself or an admin,
    /// through the gate. No change given is `.malformed`; an account that does not exist or is deleted is `.unknown`; the address's parts
    /// not given are the account's current ones, and an address that lacks its street, city or zipcode
    /// even so is `.malformed`. The city is placed and the placement told to `placed` before the write,
    /// so that a guess is told even when the write is then refused.
    @discardableResult
    public func updateAccount(_ username: String, _ changes: AccountChanges, as actor: String, passcode: PasscodeProvider? = nil,
                              options: WriteOptions = WriteOptions(),
                              placed: CityPlacementReport = { _, _ in }) throws(VeritrailError) -> [AppendedEvent] {
        guard !changes.isEmpty else {
            throw .malformed("nothing to change: give at least one of name, phone, website, street, suite, city, zipcode, country, company, catchPhrase, bs", line: nil)
        }
        // The address as it is at the head, whatever the clock: the placed city is the one written.
        let current = try answer(asOf: .seq(.max), now: nil) { context in try context.activeAccount(username).address }
        let data = try changes.data(username, current: current, placed: placed)
        return try appendGated(as: actor, passcode: passcode, options: options) { at, _ in
            [try EventData.event(.accountUpdated, actor: actor, at: at, data)]
        }
    }
}
