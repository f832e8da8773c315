public import ArgumentParser
import Foundation
import SystemCalls
public import VeritrailKit

extension Role: ExpressibleByArgument {}

/// The details of an account that `register` and `account update` take (the name is each command's own:
/// required by one, optional in the other).
struct AccountDetails: ParsableArguments {
    @Option(help: "Phone.") var phone: String?
    @Option(help: "Website.") var website: String?
    @Option(help: "Street (with --city and --zipcode: the address).") var street: String?
    @Option(help: "Suite or apartment.") var suite: String?
    @Option(help: "City, or \"City, Country\" (the address is geocoded from it).") var city: String?
    @Option(help: "Postal code.") var zipcode: String?
    @Option(help: "The city's country, by name or ISO code, for geocoding (not stored).") var country: String?
    @Option(help: "Company name.") var company: String?
    @Option(help: "The company's catch phrase.") var catchPhrase: String?
    @Option(help: "The company's bs.") var bs: String?

    /// How each option fills the event's data, for refusals in the command's words.
    static let options: [String: String] = [
        "data.username": "USER", "data.name": "--name", "data.email": "--email", "data.role": "--role",
        "data.phone": "--phone", "data.website": "--website", "data.address": "the address",
        "data.address.street": "--street", "data.address.suite": "--suite", "data.address.city": "--city",
        "data.address.zipcode": "--zipcode", "data.company": "--company", "data.company.name": "--company",
        "data.company.catchPhrase": "--catch-phrase", "data.company.bs": "--bs", "data.reason": "--reason",
    ]

    func validate() throws {
        if company == nil && (catchPhrase != nil || bs != nil) {
            throw ValidationError("--catch-phrase and --bs need --company")
        }
        if country != nil && city == nil { throw ValidationError("--country is for geocoding --city: give --city too") }
    }

    /// The new account: these details, with the command's username, name, e-mail and role.
    func account(_ username: String, name: String, email: String, role: Role) -> NewAccount {
        var account = NewAccount(username: username, name: name, email: email, role: role)
        account.phone = phone; account.website = website
        account.street = street; account.suite = suite; account.city = city; account.zipcode = zipcode
        account.country = country
        account.company = company; account.catchPhrase = catchPhrase; account.bs = bs
        return account
    }

    /// The fields of `account update` as its route takes them (server.md §3): `address` and `company` as the
    /// objects of events.md `account.registered`, holding the parts given.
    func remoteFields(name: String?) -> [(String, JSONValue?)] {
        [("name", name.json), ("phone", phone.json), ("website", website.json),
         ("address", Self.object([("street", street), ("suite", suite), ("city", city), ("zipcode", zipcode)])),
         ("country", country.json),
         ("company", Self.object([("name", company), ("catchPhrase", catchPhrase), ("bs", bs)]))]
    }

    /// An object of the members given, or nil when none is.
    private static func object(_ members: [(String, String?)]) -> JSONValue? {
        let given = members.compactMap { name, value in value.map { (name, JSONValue.string($0)) } }
        return given.isEmpty ? nil : J.object(given)
    }

    /// The changes these details make, with the command's name.

    func changes(name: String?) -> AccountChanges {
        var changes = AccountChanges()
        changes.name = name; changes.phone = phone; changes.website = website
        changes.street = street; changes.suite = suite; changes.city = city; changes.zipcode = zipcode
        changes.country = country
        changes.company = company; changes.catchPhrase = catchPhrase; changes.bs = bs
        return changes
    }

    /// Runs `body`, a country the gazetteer does not know said as `--country`'s refusal.
    static func naming<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch VeritrailError.unknown(_, let cause as UnknownCountry) {
            throw Failure.refused("--country: \(cause)")
        }
    }
}

/// `register USERNAME`: an admin registers any role; anyone registers themselves as a customer and sets a
/// passcode in the same command.
struct RegisterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register an account: an admin registers any role; anyone registers themselves as a customer.",
        discussion: """
        A customer needs an address; it is geocoded offline from the gazetteer inside the binary \
        (GeoNames). Registering yourself (no --as, or --as yourself) makes a customer and asks your new \
        passcode twice.

        The city may name its country ("Paris, France", "London, UK") or take --country; where it was \
        placed is said on stderr, and when places of similar size share the name, which ones.

        Examples:
          veritrail register mlopez --name "Maria Lopez" --email m@example.org \\
              --street "1 Rue de la Paix" --city Lyon --zipcode 69001 --passcode-stdin
          veritrail register ines --role inspector --name "Inès Duval" \\
              --email ines@example.org --as admin
        """
    )
    @Argument(help: ArgumentHelp("The new username.", valueName: "username")) var username: String
    @Option(help: "The person's name.") var name: String
    @Option(help: "The e-mail (unique).") var email: String
    @Option(help: "admin, inspector or customer.") var role: Role = .customer
    @OptionGroup var details: AccountDetails
    @Flag(help: "Read passcodes from stdin, one line per prompt.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions
    @OptionGroup var retry: RetryOptions

    func run() throws {
        let words = CommandWords(type: .accountRegistered, options: AccountDetails.options.merging(["data.username": "USERNAME"]) { $1 })
        try runReporting {
            if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                let fields = [("username", username.json), ("name", name.json), ("email", email.json), ("role", role.rawValue.json)]
                    + details.remoteFields(name: nil).filter { $0.0 != "name" }
                let answer = try words.run { try server.register(fields, username: username, eventID: retry.id) }
                return Session.report(global, answer.events, "registered \(username) (\(role.rawValue))", placement: { answer.placement })
            }
            let session = try Session(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
            let reader = PasscodeReader(fromStdin: passcodeStdin)
            let account = details.account(username, name: name, email: email, role: role)
            var placed: JSONValue?
            let appended = try words.run {
                try AccountDetails.naming {
                    try session.store.register(account, as: global.actingUser, newPasscode: { username in
                        guard reader.canRead else {
                            throw Failure.usage("registering yourself sets a passcode: use a terminal or --passcode-stdin")
                        }
                        return try reader.readNew(for: username)
                    }, passcode: session.passcode, options: session.options, placed: { city, placement in
                        placed = placement.answer(city: city)
                        Geocoder.tell(city, placement)
                    })
                }
            }
            // --json: the events and, for an address, where its city was placed.
            Session.report(global, appended, "registered \(username) (\(role.rawValue))", placement: { placed })
        }
    }
}

/// `account update USER` and `account delete USER`.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Change or delete an account.",
        discussion: "Examples:\n  veritrail account update mlopez --phone \"+33 4 00 00 00 00\" --as mlopez\n  veritrail account delete mlopez --yes --as admin",
        subcommands: [Update.self, Delete.self])

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Change an account's details (not its e-mail or role): by the account itself or an admin.",
            discussion: """
            The address keeps the parts not given: --city alone moves the account to another city.
            Example:
              veritrail account update mlopez --phone "+33 4 00 00 00 00" --as mlopez
            """)
        @Argument(help: ArgumentHelp("The account.", valueName: "user"), completion: Completions.users) var user: String
        @Option(help: "The person's name.") var name: String?
        @OptionGroup var details: AccountDetails
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions
        @OptionGroup var retry: RetryOptions

        /// Nothing to change is a command line that says nothing (64), not a refused event.
        func validate() throws {
            let given: [String?] = [name, details.phone, details.website, details.street, details.suite, details.city,
                                    details.zipcode, details.country, details.company, details.catchPhrase, details.bs]
            guard given.contains(where: { $0 != nil }) else {
                throw ValidationError("nothing to change: give at least one of --name, --phone, --website, --street, --suite, --city, --zipcode, --company, --catch-phrase, --bs")
            }
        }

        func run() throws {
            let words = CommandWords(type: .accountUpdated, options: AccountDetails.options)
            // --json: the events and, for a changed address, where its city was placed.
            var placed: JSONValue?
            try Session.write(global, passcodeStdin: passcodeStdin, retry: retry, words: words,
                              said: { _ in "updated \(user)" },
                              remote: { _ in RemoteWrite("PATCH", RemoteWrite.path("/v1/accounts/", user), details.remoteFields(name: name)) },
                              placement: { placed }) { session, actor in
                try AccountDetails.naming {
                    try session.store.updateAccount(user, details.changes(name: name), as: actor, passcode: session.passcode,
                                                    options: session.options, placed: { city, placement in
                                                        placed = placement.answer(city: city)
                                                        Geocoder.tell(city, placement)
                                                    })
                }
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete an account (admin only; the last admin can not be deleted).",
            discussion: """
            Asks "Delete USER (NAME, ROLE)? [y/N]" on a terminal; --yes for scripts.
            Example:
              veritrail account delete mlopez --reason "not a real customer" \\
                  --yes --as admin
            """)
        @Argument(help: ArgumentHelp("The account.", valueName: "user"), completion: Completions.users) var user: String
        @Option(parsing: .unconditional, help: "Why.") var reason: String?
        @Flag(help: "Do not ask for confirmation.") var yes = false
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions
        @OptionGroup var retry: RetryOptions

        func run() throws {
            let words = CommandWords(type: .accountDeleted, options: AccountDetails.options)
            try runReporting {
                if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                    if !yes, !(try server.confirmDelete(user)) { return Output.note("nothing deleted") }
                    let appended = try words.run {
                        try server.write(RemoteWrite("DELETE", RemoteWrite.path("/v1/accounts/", user), [("reason", reason.json)]), eventID: retry.id)
                    }
                    return Session.report(global, appended, "deleted \(user)")
                }
                let session = try Session(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
                let actor = try session.actor()
                var declined = false
                let appended = try words.run {
                    try session.store.deleteAccount(user, reason: reason, as: actor, passcode: session.passcode,
                                                    options: session.options, confirm: yes ? nil : { account in
                        declined = !(try Delete.confirm(account))
                        return !declined
                    })
                }
                if declined {
                    Output.note("nothing deleted")
                } else {
                    session.report(appended, "deleted \(user)")
                }
            }
        }

        /// Asks on the terminal whether to delete `account`; a script passes --yes instead.
        private static func confirm(_ account: AccountSummary) throws -> Bool {
            guard FileDescriptor.standardInput.isTerminal else { throw Failure.usage("deleting needs confirmation: pass --yes") }
            Output.prompt("Delete \(Escaped.text(account.username)) (\(Escaped.text(account.name)), \(account.role.rawValue))? [y/N] ")
            let answer = (readLine() ?? "").lowercased()
            return answer == "y" || answer == "yes"
        }
    }
}
