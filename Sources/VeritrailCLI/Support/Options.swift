import ArgumentParser
import Foundation
import SystemCalls
import VeritrailKit

/// The options every command takes (cli.md §1), accepted after the command's name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store directory (default ./.veritrail; env VERITRAIL_STORE).", valueName: "dir"),
            completion: .directory)
    var store: String?

    @Option(name: .customLong("as"), help: ArgumentHelp("Who is acting or viewing (env VERITRAIL_USER).", valueName: "user"),
            completion: Completions.users)
    var viewer: String?

    @Option(name: .long, help: ArgumentHelp(
        "The store's secrets file: its signing key and passcode pepper (default DIR/secrets; env VERITRAIL_SECRETS).",
        valueName: "file"))
    var secrets: String?

    @Flag(name: .long, help: "Machine output: exactly the JSON of the spec on stdout.")
    var json = false

    @Option(help: ArgumentHelp("Colour: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    var color: ColorChoice = .auto

    @Flag(help: "Print long output straight to the terminal, not through the pager (PAGER, default less -FRX).")
    var noPager = false

    @Option(name: .long, help: ArgumentHelp("Run against this served store (env VERITRAIL_SERVER): https://HOST[:PORT], or http:// on loopback.", valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp("With --server: trust the certificates of this PEM file instead of the system's.", valueName: "file"))
    var cacert: String?

    /// `--server` or `VERITRAIL_SERVER` (an empty one is no server).
    var serverURL: String? { server ?? environment("VERITRAIL_SERVER").flatMap { $0.isEmpty ? nil : $0 } }

    var storeDirectory: String { store ?? environment("VERITRAIL_STORE") ?? "./.veritrail" }

    /// `--secrets`, else `VERITRAIL_SECRETS`; nil for the default, beside the data.
    var secretsFile: String? { secrets ?? environment("VERITRAIL_SECRETS").flatMap { $0.isEmpty ? nil : $0 } }

    var actingUser: String? { viewer ?? environment("VERITRAIL_USER") }

    /// An empty store path would be taken as the file system's root by LMDB (`/data.mdb`).
    func validate() throws {
        Terminal.colorChoice = color
        Pager.disabled = noPager || json
        if store?.isEmpty == true { throw ValidationError("--store must name a directory, got an empty path") }
        if secrets?.isEmpty == true { throw ValidationError("--secrets must name a file, got an empty path") }
        if store == nil, environment("VERITRAIL_STORE")?.isEmpty == true {
            throw ValidationError("VERITRAIL_STORE is set but empty: give it a directory, or unset it for ./.veritrail")
        }
    }

    /// Opens the existing store through the library (exit 74 when there is none), on the command line's
    /// clock (`environmentNow`). With a server set, a command
    /// that has no remote form is refused here, so that it never acts on a local store by mistake.
    func open() throws -> VeritrailStore {
        if let serverURL {
            throw Failure.usage("this command runs on a local store only, not against a server: unset VERITRAIL_SERVER or drop --server \(serverURL)")
        }
        return try VeritrailStore.open(at: storeDirectory, clock: environmentNow, secrets: secretsFile)
    }

    /// Opens the existing store for a command that reads the log itself (the `log` commands, `export`),
    /// refusing an `--as` that is unknown or deleted in the log as `asOf` keeps it (exit 65).
    func openViewing(asOf: AsOf?) throws -> VeritrailStore {
        let store = try open()
        if let actingUser { try store.checkViewer(actingUser, asOf: asOf) }
        return store
    }
}

/// `--as-of` and `--now` (projections.md §0).
struct ClockOptions: ParsableArguments {
    @Option(name: .customLong("as-of"), help: ArgumentHelp("Keep events up to this seq (digits) or time.", valueName: "seq|time"))
    var asOf: String?

    @Option(name: .long, help: ArgumentHelp("The clock (default: the --as-of time, or VERITRAIL_NOW, or now).", valueName: "time"))
    var now: String?

    func validate() throws {
        if let asOf, AsOf(asOf) == nil {
            throw ValidationError("--as-of must be a seq (digits) or a time (\(Timestamp.typedForms)), got \"\(asOf)\"")
        }
        if let now, Timestamp(typed: now) == nil {
            throw ValidationError("--now must be a time (\(Timestamp.typedForms)), got \"\(now)\"")
        }
        try checkEnvironmentNow()
    }

    @Flag(help: "Show times as the log writes them (UTC), not relative to now (human output).")
    var utc = false

    var asOfValue: AsOf? { asOf.flatMap(AsOf.init) }
    var nowValue: Timestamp? { now.flatMap { Timestamp(typed: $0) } }
}

/// The clock when neither `--now` nor `--as-of` sets it: `VERITRAIL_NOW`, else the wall clock.
func environmentNow() -> Timestamp {
    environment("VERITRAIL_NOW").flatMap { Timestamp(typed: $0) } ?? VeritrailStore.wallClock()
}

/// Refuses a `VERITRAIL_NOW` that is not a time (a usage error, before anything else).
func checkEnvironmentNow() throws {
    if let env = environment("VERITRAIL_NOW"), Timestamp(typed: env) == nil {
        throw ValidationError("VERITRAIL_NOW must be a time (\(Timestamp.typedForms)), got \"\(env)\"")
    }
}

/// A variable of the environment; Veritrail's own (`VERITRAIL_…`) count only when not empty.
func environment(_ name: String) -> String? {
    name.hasPrefix("VERITRAIL_") ? CurrentProcess.setting(name) : CurrentProcess.environment(name)
}

/// `--id`: the event id a writing command uses, given back to retry it safely (README "Trust"). A command
/// prints the id it used; its further events get `ID.2`, `ID.3`, …
struct RetryOptions: ParsableArguments {
    @Option(name: .customLong("id"), help: ArgumentHelp(
        "The event id to write under (default: a new one, printed): give back the id of a write that may have failed, so that its retry is a no-op if it had committed.",
        valueName: "id"))
    var id: String?

    func validate() throws {
        if let id, !(1...64).contains(id.utf8.count) || !id.utf8.allSatisfy(RetryOptions.isIDByte) {
            throw ValidationError("--id must be 1–64 characters of A–Z a–z 0–9 . _ : -")
        }
    }

    private static func isIDByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x3A || b == 0x2D
    }
}
