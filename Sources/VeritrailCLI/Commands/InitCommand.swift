import ArgumentParser
import VeritrailKit

/// `init --admin USER --name NAME --email EMAIL`: creates the store and its first admin (cli.md §2).
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a store and its first admin, asking the admin's new passcode twice.",
        discussion: """
        Writes account.registered and passcode.set, both by `system`. The passcode is asked on the \
        terminal with echo off, or read as two lines from stdin with --passcode-stdin; only its PBKDF2 \
        hash, keyed with the store's pepper, is kept. The store's secrets file (signing key and pepper) \
        is written beside it, or at --secrets FILE: back it up.

        Example:
          printf '2468\\n2468\\n' | veritrail init --admin ada --name "Ada Admin" \\
              --email ada@example.org --passcode-stdin --store my-store
        """
    )

    @Option(help: ArgumentHelp("The first admin's username.", valueName: "user")) var admin: String
    @Option(help: "The admin's name.") var name: String
    @Option(help: "The admin's e-mail.") var email: String
    @Flag(help: "Read the passcode as lines from stdin instead of the terminal.") var passcodeStdin = false
    @Option(parsing: .unconditional, help: ArgumentHelp("The origin of a new store's checkpoints (proofs.md §2; default veritrail.invalid/<random>).", valueName: "name"))
    var origin: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if global.server != nil { throw ValidationError("init makes a store on this machine: it does not take --server") }
        if let origin, !VeritrailStore.isValidOrigin(origin) { throw ValidationError("--origin must be 1-100 characters of A-Z a-z 0-9 . _ / : -") }
    }

    func run() throws {
        try runReporting {
            let directory = global.storeDirectory
            let reader = PasscodeReader(fromStdin: passcodeStdin)
            let store: VeritrailStore
            do {
                // The library asks the passcode only once the directory and the admin's details are right.
                store = try VeritrailStore.create(at: directory, admin: admin, name: name, email: email, origin: origin,
                                                  secrets: global.secretsFile, clock: environmentNow) {
                    guard reader.canRead else {
                        throw Failure.usage("init needs the admin's passcode: run it on a terminal or pass --passcode-stdin")
                    }
                    return try reader.readNew(for: admin)
                }
            } catch VeritrailError.storeFailure(let exists as StoreExists) {
                throw Failure.refused("\(exists); choose another --store")
            }
            let head = HeadDigest(try store.head())
            if global.json {
                Output.json(J.object([("store", J.string(directory)), ("admin", J.string(admin)),
                                      ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(head.hash))]))]))
            } else {
                Output.print("created the store at \(directory) with admin \(admin); head \(head)")
            }
        }
    }
}
