import Foundation
import Testing

/// Issue #23.13, cli.md §8: colour and paging as people expect, and values given as people give them.
@Suite struct ConventionTests {
    let store = ["--store", Stores.demo.path]

    private func colored(_ screen: ScreenResult) -> Bool { screen.raw.contains("\u{1B}[") }

    /// no-color.org: NO_COLOR set to an empty string does not turn colour off; `--color` overrides both ways.
    @Test func colourFollowsNoColorAndTheColorOption() throws {
        let args = ["customers"] + store
        #expect(colored(try PseudoTerminal.run(args)))
        #expect(colored(try PseudoTerminal.run(args, environment: ["NO_COLOR": ""])))
        #expect(!colored(try PseudoTerminal.run(args, environment: ["NO_COLOR": "1"])))
        #expect(!colored(try PseudoTerminal.run(args + ["--color", "never"])))
        #expect(!colored(try PseudoTerminal.run(["--color", "never"] + args)))
        let piped = try CLI.run(args + ["--color", "always"])
        #expect(piped.stdout.contains("\u{1B}["), "\(piped.transcript)")
        #expect(!(try CLI.run(args + ["--color", "auto"])).stdout.contains("\u{1B}["))
        #expect(try CLI.run(args + ["--color", "sometimes"]).exit == 64)
    }

    /// Long human output on a terminal goes through PAGER; `--no-pager`, `--json` and a pipe do not.
    @Test func longOutputOnATerminalGoesThroughThePager() throws {
        let pager = ["PAGER": "sed s/^/PAGED:/"]
        let long = ["log", "tail", "-n", "80"] + store
        let paged = try PseudoTerminal.run(long, environment: pager)
        #expect(paged.exit == 0 && paged.rows.first?.hasPrefix("PAGED:") == true, "\(paged.transcript)")
        let direct = try PseudoTerminal.run(long + ["--no-pager"], environment: pager)
        #expect(direct.exit == 0 && !direct.raw.contains("PAGED:"), "\(direct.transcript)")
        let short = try PseudoTerminal.run(["log", "tail", "-n", "2"] + store, environment: pager)
        #expect(!short.raw.contains("PAGED:"), "a short answer is printed: \(short.transcript)")
        let piped = try CLI.run(long, environment: pager)
        #expect(!piped.stdout.contains("PAGED:"))
        // The default pager is `less -FRX`.
        let less = try PseudoTerminal.run(["history", "--window", "all", "--limit", "100"] + store, environment: ["PAGER": ""])
        #expect(less.exit == 0)
    }

    @Test func aStatusFilterTakesAnyCase() throws {
        let upper = try CLI.run(["customers", "--status", "ONBOARDED", "--json"] + store)
        let lower = try CLI.run(["customers", "--status", "onboarded", "--json"] + store)
        #expect(upper.exit == 0 && lower.stdout == upper.stdout, "\(lower.transcript)")
        let wrong = try CLI.run(["customers", "--status", "done"] + store)
        #expect(wrong.exit == 64 && wrong.stderr.contains("ONBOARDED"), "\(wrong.transcript)")
    }

    @Test func aNegativeCountIsToldSo() throws {
        let r = try CLI.run(["log", "tail", "-n", "-1"] + store)
        #expect(r.exit == 64 && r.stderr.contains("-n must be at least 1, got -1") && !r.stderr.contains("Missing value"), "\(r.transcript)")
    }
}
