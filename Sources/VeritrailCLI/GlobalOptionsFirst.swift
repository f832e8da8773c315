public import ArgumentParser
import SystemCalls
import VeritrailKit

/// Lets the global options come before the command's name too (cli.md §1 welcomes it):
/// `veritrail --store DIR --json stats` is read as `veritrail stats --store DIR --json`.
enum GlobalOptionsFirst {
    /// The global options that take a value.
    private static let valued: Set<String> = ["--store", "--as", "--now", "--as-of", "--secrets", "--color", "--server", "--cacert"]
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
    ///
    /// `root` is `Veritrail` itself, or a root that adds commands of other targets to it (`veritrail serve`,
    /// whose target links the HTTP server): the command line stays free of what those commands need.
    public static func runCommandLine(root: any ParsableCommand.Type = Veritrail.self) {
        Allocator.limitArenasToProcessors()
        Allocator.mapLargeBlocksApart()
        VeritrailStore.exitOnStoreFault(withCode: Failure.storeFailed, prefix: "veritrail: ")
        let arguments = GlobalOptionsFirst.reorder(Array(CommandLine.arguments.dropFirst()))
        do {
            let repaired = try CommandLineRepair.repair(arguments, root: root)
            root.mainFitted(repaired) { () throws(Failure) in try CommandLineRepair.checkLongOptions(repaired, root: root) }
        } catch {
            Output.error(error.message)
            Veritrail.exit(withError: ExitCode(error.code))
        }
    }

    /// This command's configuration with `commands` added to its subcommands: the root of a program that
    /// offers the command line and more.
    public static func configuration(adding commands: [any ParsableCommand.Type]) -> CommandConfiguration {
        var configuration = Veritrail.configuration
        configuration.subcommands += commands
        return configuration
    }
}
