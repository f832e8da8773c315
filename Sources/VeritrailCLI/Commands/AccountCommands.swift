import ArgumentParser
import Domain
import Engine
import Projections
import StrictJSON
#if canImport(Glibc)
import Glibc
#endif

extension Role: ExpressibleByArgument {}

/// The details of an account that `register` and `account update` take.
struct AccountDetails: ParsableArguments {
    @Option(help: "The person's name.") var name: String?
    @Option(help: "Phone.") var phone: String?
    @Option(help: "Website.") var website: String?
    @Option(help: "Street (with --city and --zipcode: the address).") var street: String?
    @Option(help: "Suite or apartment.") var suite: String?
    @Option(help: "City (the address is geocoded from it).") var city: String?
    @Option(help: "Postal code.") var zipcode: String?
    @Option(help: "Company name.") var company: String?
    @Option(help: "The company's catch phrase.") var catchPhrase: String?
    @Option(help: "The company's bs.") var bs: String?

    func validate() throws {
        let address = [street, city, zipcode]
        if address.contains(where: { $0 != nil }) && address.contains(where: { $0 == nil }) || suite != nil && street == nil {
            throw ValidationError("an address needs --street, --city and --zipcode together (--suite is optional)")
        }
        if company == nil && (catchPhrase != nil || bs != nil) {
            throw ValidationError("--catch-phrase and --bs need --company")
        }
    }

    /// Adds the given details to `data`, geocoding the address; returns a note when it could not be placed.
    func add(to data: inout DataFields) -> String? {
        data.set("name", name); data.set("phone", phone); data.set("website", website)
        var note: String?
        if let street, let city, let zipcode {
            var address = DataFields()
            address.set("street", street); address.set("suite", suite); address.set("city", city); address.set("zipcode", zipcode)
            data.set("address", object: address)
            if let place = Geocoder.locate(city: city) {
                data.set("geo", J.object([("lat", .number(JSONNumber(place.lat)!)), ("lng", .number(JSONNumber(place.lng)!))]))
            } else {
                note = "could not place \"\(city)\" in the gazetteer: the address is kept without geo"
            }
        }
        if let company {
            var c = DataFields()
            c.set("name", company); c.set("catchPhrase", catchPhrase); c.set("bs", bs)
            data.set("company", object: c)
        }
        return note
    }
}

/// `register USERNAME`: an admin registers any role; anyone registers themselves as a customer and sets a
/// passcode in the same command.
struct RegisterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register an account: an admin registers any role; anyone registers themselves as a customer.",
        discussion: """
        A customer needs an address; it is geocoded offline from the shipped gazetteer (GeoNames cities).
        Registering yourself (no --as, or --as yourself) makes a customer and asks your new passcode twice.
        Examples:
          veritrail register mlopez --name "Maria Lopez" --email m@example.org --street "1 Rue de la Paix" --city Lyon --zipcode 69001 --passcode-stdin
          veritrail register ines --role inspector --name "Inès Duval" --email ines@example.org --as admin
        """
    )
    @Argument(help: ArgumentHelp("The new username.", valueName: "username")) var username: String
    @Option(help: "admin, inspector or customer (default customer).") var role: Role = .customer
    @Option(help: "The e-mail (unique).") var email: String
    @OptionGroup var details: AccountDetails
    @Flag(help: "Read passcodes from stdin, one line per prompt.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if details.name == nil { throw ValidationError("--name is needed") }
    }

    func run() throws {
        try runReporting {
            let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin)
            let actor = global.actingUser ?? username
            var data = DataFields()
            data.set("username", username); data.set("role", role.rawValue); data.set("email", email)
            let note = details.add(to: &data)
            let selfRegistering = actor == username
            var credential: Credential?
            if selfRegistering {
                guard role == .customer else {
                    throw Failure.notAllowed("you can register yourself only as a customer; an admin registers other roles (--as ADMIN)")
                }
                // Check the registration before asking for a passcode.
                try writer.append(unlocking: nil, dryRunOnly: true) { at, _ in
                    [try EventBuilder.event(.accountRegistered, actor: actor, at: at, data: data.pairs)]
                }
                let reader = PasscodeReader(fromStdin: passcodeStdin)
                guard reader.canRead else { throw Failure.usage("registering yourself sets a passcode: use a terminal or --passcode-stdin") }
                credential = try Passcodes.credential(for: try reader.readNew(for: username))
            }
            let logged = try writer.append(unlocking: selfRegistering ? nil : actor) { at, _ in
                var events = [try EventBuilder.event(.accountRegistered, actor: actor, at: at, data: data.pairs)]
                if let credential {
                    events.append(try EventBuilder.event(.passcodeSet, actor: actor, at: at, data: PasscodeCommand.data(username, credential)))
                }
                return events
            }
            if let note { Output.note("note: " + note) }
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
            discussion: "Example: veritrail account update mlopez --phone \"+33 4 00 00 00 00\" --as mlopez")
        @Argument(help: ArgumentHelp("The account.", valueName: "user")) var user: String
        @OptionGroup var details: AccountDetails
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin)
                let actor = try writer.actor()
                var data = DataFields()
                data.set("username", user)
                let note = details.add(to: &data)
                let logged = try writer.append(unlocking: actor) { at, _ in
                    [try EventBuilder.event(.accountUpdated, actor: actor, at: at, data: data.pairs)]
                }
                if let note { Output.note("note: " + note) }
                writer.report(logged, "updated \(user)")
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account (admin only; the last admin can not be deleted).",
            discussion: "Asks \"Delete USER? [y/N]\" on a terminal; --yes for scripts.\nExample: veritrail account delete mlopez --reason \"not a real customer\" --yes --as admin")
        @Argument(help: ArgumentHelp("The account.", valueName: "user")) var user: String
        @Option(help: "Why.") var reason: String?
        @Flag(help: "Do not ask for confirmation.") var yes = false
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin)
                let actor = try writer.actor()
                let make: (Timestamp, Models) throws -> [IncomingEvent] = { at, _ in
                    var data = DataFields()
                    data.set("username", user); data.set("reason", reason)
                    return [try EventBuilder.event(.accountDeleted, actor: actor, at: at, data: data.pairs)]
                }
                try writer.append(unlocking: nil, dryRunOnly: true, make)
                if !yes {
                    guard isatty(STDIN_FILENO) == 1 else { throw Failure.usage("deleting needs confirmation: pass --yes") }
                    Output.prompt("Delete \(user)? [y/N] ")
                    let answer = readLine() ?? ""
                    guard answer.lowercased() == "y" || answer.lowercased() == "yes" else {
                        Output.note("nothing deleted")
                        return
                    }
                }
                let logged = try writer.append(unlocking: actor, make)
                writer.report(logged, "deleted \(user)")
            }
        }
    }
}
