import ArgumentParser
import VeritrailKit

/// `passcode set [USER]`: configures or changes a passcode (cli.md §4).
struct PasscodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passcode", abstract: "Set or change a passcode.",
        discussion: "Asks the current passcode, then the new one twice.\nExample:\n  veritrail passcode set --as ines",
        subcommands: [Set.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set your passcode (4–8 digits, asked twice); changing one asks the current one first; an admin can reset another's.",
            discussion: "Example:\n  printf '1357\\n2468\\n2468\\n' | \\\n    veritrail passcode set --as ines --passcode-stdin")
        @Argument(help: ArgumentHelp("The account (default: yourself).", valueName: "user"), completion: Completions.users) var user: String?
        @Flag(help: "Read passcodes from stdin, one line per prompt.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                    let target = try user ?? server.actingAccount()
                    return Session.report(global, try server.setPasscode(of: target), "set the passcode of \(target)")
                }
                let session = try Session(global: global, passcodeStdin: passcodeStdin)
                let actor = try session.actor()
                let target = user ?? actor
                let reader = PasscodeReader(fromStdin: passcodeStdin)
                // Each passcode is asked only when who may set it has been checked; none can be without a way to ask.
                let ready = { () throws(Failure) in
                    guard reader.canRead else { throw Failure.usage("a passcode is read from a terminal or with --passcode-stdin") }
                }
                let appended = try session.store.setPasscode(for: target, as: actor, current: { actor in
                    try ready()
                    return try reader.read("Current passcode for \(actor): ")
                }, new: { target in
                    try ready()
                    return try reader.readNew(for: target)
                }, passcode: { actor in
                    try ready()
                    return try session.passcode(actor)
                })
                session.report(appended, "set the passcode of \(target)")
            }
        }
    }
}

/// `unlock`: asks the passcode and records the attempt; on `granted`, access is open for 15 minutes.
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Enter your passcode to act for the next 15 minutes (three wrong ones lock you out for a minute).",
        discussion: "Example: printf '2468\\n' | veritrail unlock --as ines --passcode-stdin")
    @Flag(help: "Read the passcode from stdin.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            // Against a server, unlocking is signing in: the session's token is what opens the gate there.
            if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                let actor = try server.signIn(try server.actingAccount(), because: .asked).user
                return global.json ? Output.json(J.object([("username", J.string(actor)), ("state", J.string("unlocked"))]))
                    : Output.print("unlocked \(actor) for 15 minutes")
            }
            let session = try Session(global: global, passcodeStdin: passcodeStdin)
            let actor = try session.actor()
            let reader = PasscodeReader(fromStdin: passcodeStdin)
            try session.store.unlock(actor, passcode: { actor in
                guard reader.canRead else { throw Failure.usage("a passcode is read from a terminal or with --passcode-stdin") }
                return try reader.read("Passcode for \(actor): ")
            })
            if global.json {
                Output.json(J.object([("username", J.string(actor)), ("state", J.string("unlocked"))]))
            } else {
                Output.print("unlocked \(actor) for 15 minutes")
            }
        }
    }
}
