import ArgumentParser
import VeritrailCLI
import VeritrailClient
import VeritrailServer

/// The `veritrail` program: the command line with `serve` added. The command line's target does not link
/// the HTTP server (SwiftNIO, Hummingbird); this root composes the two, so that each target keeps to its
/// own dependencies and the commands' help lists `serve` beside the others; likewise it hands the command
/// line its HTTP client for `--server` (VeritrailClient).
struct VeritrailProgram: ParsableCommand {
    static let configuration = Veritrail.configuration(adding: [ServeCommand.self])
}

Remote.makeTransport = { try HTTPTransport.shared(caCertificateFile: $0) }
Veritrail.runCommandLine(root: VeritrailProgram.self)
