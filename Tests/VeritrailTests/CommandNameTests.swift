import ArgumentParser
import Testing
@testable import VeritrailCLI

/// Every command names itself: ArgumentParser otherwise names a command by `String(describing:)` of its type
/// at every start, a protocol-conformance lookup per command that scans every conformance of the binary
/// (docs/SCALE.md, "Process start"). And the check of unknown long options, which runs only when the
/// arguments do not parse, still finds them.
@Suite struct CommandNameTests {
    @Test func everyCommandHasItsName() {
        var unnamed: [String] = []
        func walk(_ command: any ParsableCommand.Type, _ path: String) {
            for sub in command.configuration.subcommands {
                if sub.configuration.commandName == nil { unnamed.append("\(path) \(sub)") }
                walk(sub, "\(path) \(sub._commandName)")
            }
        }
        walk(Veritrail.self, "veritrail")
        #expect(unnamed.isEmpty)
    }

    @Test func anUnknownLongOptionIsNamedWhereverTheCommandIs() {
        #expect(throws: Failure.self) { try CommandLineRepair.checkLongOptions(["scan", "--resut", "authentic"], root: Veritrail.self) }
        #expect(throws: Failure.self) { try CommandLineRepair.checkLongOptions(["log", "verify", "--digst", "1:ab"], root: Veritrail.self) }
        #expect(throws: Never.self) { try CommandLineRepair.checkLongOptions(["log", "verify", "--digest", "1:ab", "--json"], root: Veritrail.self) }
        #expect(throws: Never.self) { try CommandLineRepair.checkLongOptions(["history", "--limit", "5", "--", "--x"], root: Veritrail.self) }
    }
}
