import ArgumentParser
import VeritrailKit

/// Lets the global options come before the command's name too (cli.md §1 welcomes it):
/// `veritrail --store DIR --json stats` is read as `veritrail stats --store DIR --json`.
enum GlobalOptionsFirst {
    /// The global options that take a value.
    private static let valued: Set<String> = ["--store", "--as", "--now", "--as-of", "--color"]
    private static let flags: Set<String> = ["--json", "--no-pager"]

    /// `arguments` (without the program name) with any leading global options moved after the command.
    static func reorder(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flags.contains(argument) || (valued.contains(name) && argument.contains("=")) {
                leading.append(argument)
                i += 1
            } else if valued.contains(argument), i + 1 < arguments.count {
                leading += [argument, arguments[i + 1]]
                i += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, i < arguments.count else { return arguments }
        return Array(arguments[i...]) + leading
    }
}

extension Veritrail {
    /// Runs the command line, with global options accepted before the command's name, a mistyped command
    /// answered with a suggestion (exit 64) and dash-led values taken as values (`CommandLineRepair`).
    public static func runCommandLine() {
        VeritrailStore.exitOnStoreFault(withCode: Failure.storeFailed, prefix: "veritrail: ")
        let arguments = GlobalOptionsFirst.reorder(Array(CommandLine.arguments.dropFirst()))
        do {
            mainFitted(try CommandLineRepair.repair(arguments))
        } catch {
            Output.error(error.message)
            Veritrail.exit(withError: ExitCode(error.code))
        }
    }
}
