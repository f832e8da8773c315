import Geocoding
public import ArgumentParser
public import Domain
import Engine
import Projections
import StrictJSON
#if canImport(Glibc)
import Glibc
#endif

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

    var givesAddress: Bool { [street, suite, city, zipcode].contains { $0 != nil } }

    func validate() throws {
        if company == nil && (catchPhrase != nil || bs != nil) {
            throw ValidationError("--catch-phrase and --bs need --company")
        }
        if country != nil && city == nil { throw ValidationError("--country is for geocoding --city: give --city too") }
    }

    /// Adds the given details to `data`, the address completed from `current` (an update changes only the
    /// parts given), and geocodes the city, saying on stderr where it was placed. Throws a usage error when
    /// the address is incomplete.
    func add(to data: inout DataFields, name: String?, current: Address? = nil) throws {
        data.set("name", name); data.set("phone", phone); data.set("website", website)
        if givesAddress {
            guard let street = street ?? current?.street, let city = city ?? current?.city,
                  let zipcode = zipcode ?? current?.zipcode else {
                throw Failure.usage("an address needs --street, --city and --zipcode together (--suite is optional)")
            }
            var address = DataFields()
            address.set("street", street); address.set("suite", suite ?? current?.suite)
            address.set("city", city); address.set("zipcode", zipcode)
            data.set("address", object: address)
            if let placement = try Geocoder.place(city: city, country: country) {
                Output.note(Geocoder.describe(city, placement))
                if let lat = JSONNumber(placement.city.lat), let lng = JSONNumber(placement.city.lng) {
                    data.set("geo", J.object([("lat", .number(lat)), ("lng", .number(lng))]))
                }
            } else {
                Output.note("note: could not place \"\(Escaped.text(city))\" in the gazetteer: the address is kept without geo")
            }
        }
        if let company {
            var c = DataFields()
            c.set("name", company); c.set("catchPhrase", catchPhrase); c.set("bs", bs)
            data.set("company", object: c)
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
        A customer needs an address; it is geocoded offline from the gazetteer inside the binary (GeoNames).
        Registering yourself (no --as, or --as yourself) makes a customer and asks your new passcode twice.
        The city may name its country ("Paris, France", "London, UK") or take --country; where it was placed
        is said on stderr, and when places of similar size share the name, which ones.
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
    @Option(help: "admin, inspector or customer (default customer).") var role: Role = .customer
    @OptionGroup var details: AccountDetails
    @Flag(help: "Read passcodes from stdin, one line per prompt.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions
    @OptionGroup var retry: RetryOptions

    func run() throws {
        let words = CommandWords(type: .accountRegistered, options: AccountDetails.options.merging(["data.username": "USERNAME"]) { $1 })
        try runReporting {
            let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
            let actor = global.actingUser ?? username
            var data = DataFields()
            data.set("username", username); data.set("role", role.rawValue); data.set("email", email)
            let selfRegistering = actor == username
            if selfRegistering {
                guard role == .customer else {
                    throw Failure.notAllowed("you can register yourself only as a customer; an admin registers other roles (--as ADMIN)")
                }
            }
            try details.add(to: &data, name: name)
            var credential: Credential?
            if selfRegistering {
                // A refusal comes before the new passcode is asked.
                try RuleCheck.check(writer.store, words) { at, _ in
                    [try EventBuilder.event(.accountRegistered, actor: actor, at: at, data: data.pairs)]
                }
                let reader = PasscodeReader(fromStdin: passcodeStdin)
                guard reader.canRead else { throw Failure.usage("registering yourself sets a passcode: use a terminal or --passcode-stdin") }
                credential = try Passcodes.credential(for: try reader.readNew(for: username))
            }
            let logged = try words.run {
                try writer.append(unlocking: selfRegistering ? nil : actor) { at, _ in
                    var events = [try EventBuilder.event(.accountRegistered, actor: actor, at: at, data: data.pairs)]
                    if let credential {
                        events.append(try EventBuilder.event(.passcodeSet, actor: actor, at: at, data: PasscodeCommand.data(username, credential)))
                    }
                    return events
                }
            }
            writer.report(logged, "registered \(username) (\(role.rawValue))")
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
            abstract: "Change an account's details (not its e-mail or role): by the account itself or an admin.",
            discussion: """
            The address keeps the parts not given: --city alone moves the account to another city.
            Example:
              veritrail account update mlopez --phone "+33 4 00 00 00 00" --as mlopez
            """)
        @Argument(help: ArgumentHelp("The account.", valueName: "user")) var user: String
        @Option(help: "The person's name.") var name: String?
        @OptionGroup var details: AccountDetails
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions
        @OptionGroup var retry: RetryOptions

        func run() throws {
            let words = CommandWords(type: .accountUpdated, options: AccountDetails.options)
            try runReporting {
                let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
                let actor = try writer.actor()
                let account = try writer.store.latest { try $0.activeAccount(user) }
                var data = DataFields()
                data.set("username", user)
                try details.add(to: &data, name: name, current: account.address)
                let logged = try words.run {
                    try writer.append(unlocking: actor) { at, _ in
                        [try EventBuilder.event(.accountUpdated, actor: actor, at: at, data: data.pairs)]
                    }
                }
                writer.report(logged, "updated \(user)")
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account (admin only; the last admin can not be deleted).",
            discussion: """
            Asks "Delete USER (NAME, ROLE)? [y/N]" on a terminal; --yes for scripts.
            Example:
              veritrail account delete mlopez --reason "not a real customer" \\
                  --yes --as admin
            """)
        @Argument(help: ArgumentHelp("The account.", valueName: "user")) var user: String
        @Option(parsing: .unconditional, help: "Why.") var reason: String?
        @Flag(help: "Do not ask for confirmation.") var yes = false
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions
        @OptionGroup var retry: RetryOptions

        func run() throws {
            let words = CommandWords(type: .accountDeleted, options: AccountDetails.options)
            try runReporting {
                let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
                let actor = try writer.actor()
                let account = try writer.store.latest { try $0.activeAccount(user) }
                let make: (Timestamp, Models) throws -> [IncomingEvent] = { at, _ in
                    var data = DataFields()
                    data.set("username", user); data.set("reason", reason)
                    return [try EventBuilder.event(.accountDeleted, actor: actor, at: at, data: data.pairs)]
                }
                // A refusal (the last admin, not an admin) comes before the question.
                try RuleCheck.check(writer.store, words, make)
                if !yes {
                    guard isatty(STDIN_FILENO) == 1 else { throw Failure.usage("deleting needs confirmation: pass --yes") }
                    Output.prompt("Delete \(Escaped.text(user)) (\(Escaped.text(account.name)), \(account.role.rawValue))? [y/N] ")
                    let answer = readLine() ?? ""
                    guard answer.lowercased() == "y" || answer.lowercased() == "yes" else {
                        Output.note("nothing deleted")
                        return
                    }
                }
                let logged = try words.run { try writer.append(unlocking: actor, make) }
                writer.report(logged, "deleted \(user)")
            }
        }
    }
}
