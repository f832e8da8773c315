import ArgumentParser
import Domain
import Engine
#if canImport(Glibc)
import Glibc
#endif

/// The options every command takes (cli.md §1), accepted after the command's name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store directory (default ./.veritrail; env VERITRAIL_STORE).", valueName: "dir"))
    var store: String?

    @Option(name: .customLong("as"), help: ArgumentHelp("Who is acting or viewing (env VERITRAIL_USER).", valueName: "user"))
    var viewer: String?

    @Flag(name: .long, help: "Machine output: exactly the JSON of the spec on stdout.")
    var json = false

    var storeDirectory: String { store ?? environment("VERITRAIL_STORE") ?? "./.veritrail" }

    var actingUser: String? { viewer ?? environment("VERITRAIL_USER") }

    /// An empty store path would be taken as the file system's root by LMDB (`/data.mdb`).
    func validate() throws {
        if store?.isEmpty == true { throw ValidationError("--store must name a directory, got an empty path") }
        if store == nil, environment("VERITRAIL_STORE")?.isEmpty == true {
            throw ValidationError("VERITRAIL_STORE is set but empty: give it a directory, or unset it for ./.veritrail")
        }
    }

    /// Opens the existing store (exit 74 when there is none).
    func openStore() throws -> Store { try Store(directory: storeDirectory) }
}

/// `--as-of` and `--now` (projections.md §0).
struct ClockOptions: ParsableArguments {
    @Option(name: .customLong("as-of"), help: ArgumentHelp("Keep events up to this seq (digits) or time.", valueName: "seq|time"))
    var asOf: String?

    @Option(name: .long, help: ArgumentHelp("The clock (default: the --as-of time, or VERITRAIL_NOW, or now).", valueName: "time"))
    var now: String?

    func validate() throws {
        if let asOf, AsOf(asOf) == nil {
            throw ValidationError("--as-of must be a seq (digits) or a time like 2026-11-20T09:00:00Z, got \"\(asOf)\"")
        }
        if let now, Timestamp(now) == nil {
            throw ValidationError("--now must be a time like 2026-11-20T09:00:00Z, got \"\(now)\"")
        }
        if let env = environment("VERITRAIL_NOW"), Timestamp(env) == nil {
            throw ValidationError("VERITRAIL_NOW must be a time like 2026-11-20T09:00:00Z, got \"\(env)\"")
        }
    }

    var asOfValue: AsOf? { asOf.flatMap(AsOf.init) }
    var nowValue: Timestamp? { now.flatMap { Timestamp($0) } }
}

/// The clock when neither `--now` nor `--as-of` sets it: `VERITRAIL_NOW`, else the wall clock.
func environmentNow() -> Timestamp {
    environment("VERITRAIL_NOW").flatMap { Timestamp($0) } ?? WallClock.now()
}

func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
