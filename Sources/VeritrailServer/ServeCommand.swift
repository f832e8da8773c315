public import ArgumentParser
import Foundation
import NIOSSL
import SystemCalls
import VeritrailKit

/// `veritrail serve`: serves one store over HTTP until SIGTERM or SIGINT (server.md §1).
public struct ServeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over HTTP: sessions, queries, writes, the log and its proofs (server.md).",
        discussion: """
        Listens on loopback unless given --tls-cert and --tls-key (HTTPS), or --behind-proxy (a TLS-terminating \
        proxy in front). Stops on SIGTERM or SIGINT, finishing the requests in flight (at most 10 s).

        Examples:
          veritrail serve --store demo-store
          veritrail serve --store demo-store --listen 127.0.0.1:9000
        """
    )

    @Option(help: ArgumentHelp("The store directory (default ./.veritrail; env VERITRAIL_STORE).", valueName: "dir"))
    var store: String?
    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host:port"))
    var listen: String = "127.0.0.1:8420"
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("The certificate chain (PEM), to serve HTTPS.", valueName: "file"))
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The private key (PEM), to serve HTTPS.", valueName: "file"))
    var tlsKey: String?
    @Flag(name: .customLong("behind-proxy"), help: "A TLS-terminating proxy is in front: listen beyond loopback over plain HTTP.")
    var behindProxy = false
    @Option(help: ArgumentHelp("The clock, for tests and demos (default: VERITRAIL_NOW, or now).", valueName: "time"))
    var now: String?
    @Flag(name: .customLong("commit-each"), help: "One commit per write instead of group commit (for comparison).")
    var commitEach = false

    public init() {}

    public func validate() throws {
        guard let address = ListenAddress(listen) else {
            throw ValidationError("--listen must be HOST:PORT (a port 1–65535), got \"\(listen)\"")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together: give both to serve HTTPS")
        }
        if !address.isLoopback && tlsCert == nil && !behindProxy {
            throw ValidationError("""
                \(address.host) is not a loopback address: serving beyond this machine needs --tls-cert FILE --tls-key FILE \
                (HTTPS), or --behind-proxy when a TLS-terminating proxy is in front
                """)
        }
        if tlsCert != nil && behindProxy {
            throw ValidationError("--behind-proxy is for a proxy that terminates TLS: give it or --tls-cert/--tls-key, not both")
        }
        if store?.isEmpty == true { throw ValidationError("--store must name a directory, got an empty path") }
        if let now, Timestamp(now) == nil { throw ValidationError("--now must be a time like 2026-11-20T09:00:00Z, got \"\(now)\"") }
        if let env = CurrentProcess.setting("VERITRAIL_NOW"), Timestamp(env) == nil {
            throw ValidationError("VERITRAIL_NOW must be a time like 2026-11-20T09:00:00Z, got \"\(env)\"")
        }
    }

    public func run() throws {
        let directory = store ?? CurrentProcess.setting("VERITRAIL_STORE") ?? "./.veritrail"
        var tls: TLSConfiguration?
        if let tlsCert, let tlsKey {
            do {
                tls = try TLSFiles.configuration(cert: tlsCert, key: tlsKey)
            } catch {
                FileHandle.standardError.write(Data("veritrail: \(error)\n".utf8))
                throw ExitCode(64)
            }
        }
        let fixed = now.flatMap { Timestamp($0) } ?? CurrentProcess.setting("VERITRAIL_NOW").flatMap { Timestamp($0) }
        let clock: @Sendable () -> Timestamp
        if let fixed { clock = { fixed } } else { clock = VeritrailStore.wallClock }
        let opened: VeritrailStore
        do {
            opened = try VeritrailStore.open(at: directory, clock: clock)
        } catch {
            FileHandle.standardError.write(Data("veritrail: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
        let metrics = ServerMetrics()
        if !commitEach { opened.groupCommits { size, micros in metrics.commit(size: size, microseconds: micros) } }
        guard let address = ListenAddress(listen) else { throw ExitCode(64) }
        let settings = ServerSettings(address: address, tls: tls, behindProxy: behindProxy,
                                      fixedNow: fixed, commitEach: commitEach)
        let outcome = Outcome()
        let semaphore = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await VeritrailServer(store: opened, settings: settings, metrics: metrics).run()
            } catch {
                outcome.fail("\(error)")
            }
            semaphore.signal()
        }
        semaphore.wait()
        if let failure = outcome.failure {
            FileHandle.standardError.write(Data("veritrail: the server stopped: \(failure)\n".utf8))
            throw ExitCode(74)
        }
    }
}

/// How the server ended, handed from its task to the command's thread.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    func fail(_ text: String) { lock.withLock { message = text } }
    var failure: String? { lock.withLock { message } }
}

/// `--listen HOST:PORT`: an IPv4 address, a bracketed IPv6 address, or a host name.
struct ListenAddress: Sendable, Equatable {
    var host: String
    var port: Int

    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), portText.count <= 5,
              let port = Int(portText), (1...65535).contains(port) else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { return nil }
        self.host = host
        self.port = port
    }

    /// 127.0.0.0/8, ::1 and localhost: the addresses only this machine reaches.
    var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }
}

/// What `serve` was told, for the server.
struct ServerSettings: Sendable {
    var address: ListenAddress
    /// `--tls-cert` and `--tls-key`, read and checked (`TLSFiles`): the server speaks HTTPS.
    var tls: TLSConfiguration?
    var behindProxy: Bool
    /// `--now` or VERITRAIL_NOW: the clock is fixed (tests of expiry restart the server with a later one).
    var fixedNow: Timestamp?
    var commitEach: Bool
}
