/// `account.registered`: a new account (events.md §3.1).
public struct AccountRegistered: PayloadFields {
    public var address: Address?
    public var company: Company?
    public var email: String
    public var geo: Geo?
    public var name: String
    public var phone: String?
    public var role: Role
    public var username: String
    public var website: String?

    public init(username: String, role: Role, name: String, email: String, phone: String? = nil, website: String? = nil,
                address: Address? = nil, geo: Geo? = nil, company: Company? = nil) {
        self.username = username; self.role = role; self.name = name; self.email = email; self.phone = phone
        self.website = website; self.address = address; self.geo = geo; self.company = company
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        address = try s.optionalObject("address") { (s: inout S) throws(FieldError) in try Address(from: &s) }
        company = try s.optionalObject("company") { (s: inout S) throws(FieldError) in try Company(from: &s) }
        email = try s.string("email", .email)
        geo = try s.optionalObject("geo") { (s: inout S) throws(FieldError) in try Geo(from: &s) }
        name = try s.string("name", .text(min: 1, max: 100))
        phone = try s.optionalString("phone", .text(min: 1, max: 40))
        role = try s.choice("role", Role.self)
        username = try s.string("username", .username)
        website = try s.optionalString("website", .text(min: 1, max: 200))
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.optionalObject("address", address) { s, v in v.write(to: &s) }
        s.optionalObject("company", company) { s, v in v.write(to: &s) }
        s.string("email", email)
        s.optionalObject("geo", geo) { s, v in v.write(to: &s) }
        s.string("name", name)
        s.optionalString("phone", phone)
        s.choice("role", role)
        s.string("username", username)
        s.optionalString("website", website)
    }

    /// Rules between fields: a customer needs an address; `system` is reserved.
    func checkFields() throws(FieldError) {
        if username == "system" { throw FieldError(path: "data.username", rule: "\"system\" is reserved") }
        if role == .customer && address == nil {
            throw FieldError(path: "data.address", rule: "is required for a customer")
        }
    }
}

/// `account.updated`: changes to an account's details; `email` and `role` can not change.
public struct AccountUpdated: PayloadFields {
    public var address: Address?
    public var company: Company?
    public var geo: Geo?
    public var name: String?
    public var phone: String?
    public var username: String
    public var website: String?

    public init(username: String, name: String? = nil, phone: String? = nil, website: String? = nil,
                address: Address? = nil, geo: Geo? = nil, company: Company? = nil) {
        self.username = username; self.name = name; self.phone = phone; self.website = website
        self.address = address; self.geo = geo; self.company = company
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        address = try s.optionalObject("address") { (s: inout S) throws(FieldError) in try Address(from: &s) }
        company = try s.optionalObject("company") { (s: inout S) throws(FieldError) in try Company(from: &s) }
        if s.has("email") { throw FieldError(path: "data.email", rule: "can not be changed") }
        geo = try s.optionalObject("geo") { (s: inout S) throws(FieldError) in try Geo(from: &s) }
        name = try s.optionalString("name", .text(min: 1, max: 100))
        phone = try s.optionalString("phone", .text(min: 1, max: 40))
        if s.has("role") { throw FieldError(path: "data.role", rule: "can not be changed") }
        username = try s.string("username", .username)
        website = try s.optionalString("website", .text(min: 1, max: 200))
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.optionalObject("address", address) { s, v in v.write(to: &s) }
        s.optionalObject("company", company) { s, v in v.write(to: &s) }
        s.optionalObject("geo", geo) { s, v in v.write(to: &s) }
        s.optionalString("name", name)
        s.optionalString("phone", phone)
        s.string("username", username)
        s.optionalString("website", website)
    }

    func checkFields() throws(FieldError) {
        if address == nil && company == nil && geo == nil && name == nil && phone == nil && website == nil {
            throw FieldError(path: "data", rule: "must change at least one of name, phone, website, address, geo, company")
        }
    }
}

/// `account.deleted`: an admin removed an account.
public struct AccountDeleted: PayloadFields {
    public var reason: String?
    public var username: String

    public init(username: String, reason: String? = nil) { self.username = username; self.reason = reason }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        reason = try s.optionalString("reason", .text(min: 1, max: 200))
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.optionalString("reason", reason)
        s.string("username", username)
    }
}

/// `passcode.set`: an account's passcode configured or changed, as a credential only.
public struct PasscodeSet: PayloadFields {
    public var credential: Credential
    public var username: String

    public init(username: String, credential: Credential) { self.username = username; self.credential = credential }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        credential = try s.object("credential") { (s: inout S) throws(FieldError) in try Credential(from: &s) }
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.object("credential") { s in credential.write(to: &s) }
        s.string("username", username)
    }
}

/// `passcode.attempted`: someone entered a passcode for their account.
public struct PasscodeAttempted: PayloadFields {
    public var outcome: AttemptOutcome
    public var username: String

    public init(username: String, outcome: AttemptOutcome) { self.username = username; self.outcome = outcome }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        outcome = try s.choice("outcome", AttemptOutcome.self)
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.choice("outcome", outcome)
        s.string("username", username)
    }
}
