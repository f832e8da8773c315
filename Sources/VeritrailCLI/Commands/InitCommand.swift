import Projections
import Proofs
import ArgumentParser
import Domain
import Engine
import EventLog

/// `init --admin USER --name NAME --email EMAIL`: creates the store and its first admin (cli.md §2).
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a store and its first admin, asking the admin's new passcode twice.",
        discussion: """
        Writes account.registered and passcode.set, both by `system`. The passcode is asked on the terminal
        with echo off, or read as two lines from stdin with --passcode-stdin; only its PBKDF2 hash is kept.
        Example: printf '2468\\n2468\\n' | veritrail init --admin ada --name "Ada Admin" --email ada@example.org --passcode-stdin
        """
    )

    @Option(help: ArgumentHelp("The first admin's username.", valueName: "user")) var admin: String
    @Option(help: "The admin's name.") var name: String
    @Option(help: "The admin's e-mail.") var email: String
    @Flag(help: "Read the passcode as lines from stdin instead of the terminal.") var passcodeStdin = false
    @Option(help: ArgumentHelp("The origin of a new store's checkpoints (proofs.md §2; default veritrail.invalid/<random>).", valueName: "name"))
    var origin: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let origin, !Checkpoint.validOrigin(origin) { throw ValidationError("--origin must be 1-100 characters of A-Z a-z 0-9 . _ / : -") }
    }

    func run() throws {
        try runReporting {
            let directory = global.storeDirectory
            let exists = Failure.refused("a store already exists at \(directory); choose another --store")
            switch StoreDirectory(directory).state {
            case .absent: break
            case .store: throw exists
            case .unreadable(let reason): throw StoreError("the store at \(directory) can not be read: \(reason)")
            }
            let at = EventBuilder.stamp(after: nil)
            let registered = try EventBuilder.event(.accountRegistered, actor: "system", at: at, data: [
                ("username", J.string(admin)), ("role", J.string("admin")), ("name", J.string(name)), ("email", J.string(email)),
            ])
            let reader = PasscodeReader(fromStdin: passcodeStdin)
            guard reader.canRead else {
                throw Failure.usage("init needs the admin's passcode: run it on a terminal or pass --passcode-stdin")
            }
            let passcode = try reader.readNew(for: admin)
            let credential = try Passcodes.credential(for: passcode)
            let passcodeSet = try EventBuilder.event(.passcodeSet, actor: "system", at: at, data: [
                ("username", J.string(admin)), ("credential", J.object([
                    ("scheme", J.string(credential.scheme.rawValue)), ("iterations", J.int(credential.iterations)),
                    ("salt", J.string(credential.salt)), ("hash", J.string(credential.hash)),
                ])),
            ])
            // The store and its first two events come into being together, or not at all.
            let made = try Store.create(directory: directory, origin: origin) { appender in
                _ = try appender.append(registered)
                _ = try appender.append(passcodeSet)
                return appender.head
            }
            guard let head = made else { throw exists }
            if global.json {
                Output.json(J.object([("store", J.string(directory)), ("admin", J.string(admin)),
                                      ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(Hex.encode(head.hash)))]))]))
            } else {
                Output.print("created the store at \(directory) with admin \(admin); head \(head.digest)")
            }
        }
    }
}
