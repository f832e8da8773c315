import Foundation
import Testing

/// Issue #23.6, cli.md §8: wherever a time is taken, a date alone, an offset and a space for the `T` are
/// taken; a reversed range is a usage error (64) that prints nothing on stdout.
@Suite struct TypedTimeCommandTests {
    let store = ["--store", Stores.demo.path]

    @Test func aDateAloneAnOffsetAndASpaceAreTaken() throws {
        let strict = try CLI.run(["log", "tail", "-n", "3", "--json", "--since", "2026-11-01T00:00:00Z", "--until", "2026-11-02T09:00:00Z"] + store)
        let typed = try CLI.run(["log", "tail", "-n", "3", "--json", "--since", "2026-11-01", "--until", "2026-11-02 10:00+01:00"] + store)
        #expect(strict.exit == 0 && !strict.stdout.isEmpty)
        #expect(typed.exit == 0 && typed.stdout == strict.stdout, "\(typed.transcript)")
        let export = try CLI.run(["export", "--since", "2026-11-01", "--until", "2026-11-02T09:00Z"] + store)
        #expect(export.exit == 0 && export.stdout.hasSuffix(strict.stdout), "\(export.transcript)")

        for (option, strictValue, typedValue) in [("--as-of", "2026-11-01T00:00:00Z", "2026-11-01"),
                                                  ("--now", "2026-11-20T09:00:00Z", "2026-11-20 10:00:00+01:00")] {
            let a = try CLI.run(["stats", "--json", option, strictValue] + store)
            let b = try CLI.run(["stats", "--json", option, typedValue] + store)
            #expect(a.exit == 0 && b.stdout == a.stdout, "\(option): \(b.transcript)")
        }
        let env = try CLI.run(["stats", "--json"] + store, environment: ["VERITRAIL_NOW": "2026-11-20"])
        #expect(env.stdout == (try CLI.run(["stats", "--json", "--now", "2026-11-20T00:00:00Z"] + store)).stdout)
        let diff = try CLI.run(["diff", "--from", "2026-11-01", "--to", "2026-11-08 01:00+01:00", "--json"] + store)
        let diffStrict = try CLI.run(["diff", "--from", "2026-11-01T00:00:00Z", "--to", "2026-11-08T00:00:00Z", "--json"] + store)
        #expect(diff.exit == 0 && diff.stdout == diffStrict.stdout, "\(diff.transcript)")
    }

    @Test(arguments: [
        ["log", "tail", "--since", "2026-11-20", "--until", "2026-11-01"],
        ["export", "--since", "2026-11-20T00:00:00Z", "--until", "2026-11-01T00:00:00Z"],
        ["diff", "--from", "2026-11-20", "--to", "2026-11-01"],
        ["diff", "--from", "500", "--to", "100"],
    ])
    func aReversedRangeIsAUsageError(command: [String]) throws {
        let r = try CLI.run(command + store)
        #expect(r.exit == 64 && r.stdout.isEmpty && r.stderr.contains("first"), "\(r.transcript)")
    }

    @Test func aTimeWithoutAZoneIsRefusedNamingTheForms() throws {
        let r = try CLI.run(["log", "tail", "--since", "2026-11-20T09:00"] + store)
        #expect(r.exit == 64 && r.stderr.contains("2026-11-20 10:00+01:00"), "\(r.transcript)")
    }
}
