import Projections
import ArgumentParser
import Domain
import Engine
import StrictJSON

/// `passcode set [USER]`: configures or changes a passcode (cli.md §4).
struct PasscodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passcode", abstract: "Set or change a passcode.",
        discussion: "Asks the current passcode, then the new one twice.\nExample:\n  veritrail passcode set --as ines",
        subcommands: [Set.self])

    /// The `data` of a `passcode.set`.
    static func data(_ username: String, _ credential: Credential) -> [(String, JSONValue)] {
        [("username", J.string(username)), ("credential", J.object([
            ("scheme", J.string(credential.scheme.rawValue)), ("iterations", J.int(credential.iterations)),
            ("salt", J.string(credential.salt)), ("hash", J.string(credential.hash)),
        ]))]
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set your passcode (4–8 digits, asked twice); changing one asks the current one first; an admin can reset another's.",
            discussion: "Example:\n  printf '1357\\n2468\\n2468\\n' | \\\n    veritrail passcode set --as ines --passcode-stdin")
        @Argument(help: ArgumentHelp("The account (default: yourself).", valueName: "user")) var user: String?
        @Flag(help: "Read passcodes from stdin, one line per prompt.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin)
                let actor = try writer.actor()
                let target = user ?? actor
                let reader = PasscodeReader(fromStdin: passcodeStdin)
                let store = writer.store
                let gate = writer.gate
                // Who may set it is checked before anything is asked, with a stand-in credential.
                let placeholder = Credential(hash: Base64.encode([UInt8](repeating: 0, count: 32)), iterations: 100_000,
                                             salt: Base64.encode([UInt8](repeating: 0, count: 16)))
                try writer.append(unlocking: nil, dryRunOnly: true) { at, _ in
                    [try EventBuilder.event(.passcodeSet, actor: actor, at: at, data: PasscodeCommand.data(target, placeholder))]
                }
                guard reader.canRead else { throw Failure.usage("a passcode is read from a terminal or with --passcode-stdin") }
                let hasPasscode = try store.read { _, models in try models.account(actor)?.lockout.hasPasscode } ?? false
                if target == actor && hasPasscode {
                    // Changing one's own passcode: the current one first, an attempt like any other.
                    guard let current = try reader.read("Current passcode for \(actor): ") else {
                        throw Failure.notAllowed("the current passcode is needed to change it")
                    }
                    try gate.attempt(actor, passcode: current)
                } else if target != actor {
                    // A reset: the admin is let through the gate (asked, when needed) before the new passcode
                    // is asked, and checked again when it is written.
                    try writer.append(unlocking: actor, dryRunOnly: true) { at, _ in
                        [try EventBuilder.event(.passcodeSet, actor: actor, at: at, data: PasscodeCommand.data(target, placeholder))]
                    }
                }
                let credential = try Passcodes.credential(for: try reader.readNew(for: target))
                // Another's passcode is reset through the gate, like any write; one's own was just checked.
                let logged = try writer.append(unlocking: target == actor ? nil : actor) { at, _ in
                    [try EventBuilder.event(.passcodeSet, actor: actor, at: at, data: PasscodeCommand.data(target, credential))]
                }
                writer.report(logged, "set the passcode of \(target)")
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
            let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin)
            let actor = try writer.actor()
            _ = try writer.store.activeAccount(actor)
            let reader = PasscodeReader(fromStdin: passcodeStdin)
            guard reader.canRead else { throw Failure.usage("a passcode is read from a terminal or with --passcode-stdin") }
            guard let passcode = try reader.read("Passcode for \(actor): ") else { throw Failure.notAllowed("no passcode given") }
            try writer.gate.attempt(actor, passcode: passcode)
            if global.json {
                Output.json(J.object([("username", J.string(actor)), ("state", J.string("unlocked"))]))
            } else {
                Output.print("unlocked \(actor) for 15 minutes")
            }
        }
    }
}
