import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ServiceLifecycle
import SystemCalls
import UnixSignals
import VeritrailKit

/// The HTTP server of one store (server.md): Hummingbird's HTTP/1.1 server with one responder that
/// matches the routes, turns every refusal into a problem, and writes the access log; run in a service
/// group that stops it on SIGTERM or SIGINT after the requests in flight (at most 10 s).
struct VeritrailServer {
    let store: VeritrailStore
    let settings: ServerSettings
    let metrics: ServerMetrics

    func run() async throws {
        var logger = Logger(label: "veritrail") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = .info
        let sessions = try SessionStore(directory: store.directory)
        let pool = NIOThreadPool(numberOfThreads: 64)
        pool.start()
        let follower = try LogFollower(store: store)
        let state = ServerState(store: store, sessions: sessions, settings: settings, logger: logger, pool: pool, follower: follower,
                                metrics: metrics)
        follower.start(state)
        defer { follower.stop() }
        let responder = VeritrailResponder(state: state, routes: Routes.all())
        let address = BindAddress.hostname(settings.address.host, port: settings.address.port)
        var server: HTTPServerBuilder = .http1(configuration: .init(additionalChannelHandlers: [ConnectionEdges.Installer()], idleTimeout: .seconds(60)))
        if let tls = settings.tls { server = try .tls(server, tlsConfiguration: tls) }
        let announcer = logger
        var quiet = logger
        quiet.logLevel = .warning
        let app = Application(responder: responder, server: server,
                              configuration: ApplicationConfiguration(address: address, serverName: nil),
                              onServerRunning: { channel in
                                  let bound = channel.localAddress.map { "\($0)" } ?? "\(settings.address.host):\(settings.address.port)"
                                  announcer.info("serving \(store.directory) on \(bound)")
                              },
                              logger: quiet)
        var configuration = ServiceGroupConfiguration(
            // Shut down in reverse: the streams end first, then the server finishes the other requests.
            services: [.init(service: app), .init(service: StreamCloser(follower: follower), successTerminationBehavior: .ignore)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: quiet)
        configuration.maximumGracefulShutdownDuration = .seconds(10)
        let group = ServiceGroup(configuration: configuration)
        try await group.run()
        try await pool.shutdownGracefully()
    }
}

/// The one responder: route, answer or refuse, log.
struct VeritrailResponder: HTTPResponder {
    typealias Context = ConnectionContext
    let state: ServerState
    let routes: RouteTable

    func respond(to request: Request, context: ConnectionContext) async throws -> Response {
        let start = ContinuousClock.now
        var routeName = "-"
        var call: Call?
        var response: Response
        do {
            let (route, parameters) = try routes.match(request.method, request.uri.path)
            routeName = route.pattern
            let made = Call(request: request, parameters: parameters, query: try QueryParameters(request.uri.query), state: state,
                            connectionClosed: context.connectionClosed)
            call = made
            response = try await route.handler(made)
        } catch let problem as Problem {
            response = Responses.problem(problem)
        } catch let error as VeritrailError {
            response = Responses.problem(.from(error))
        } catch let error as HTTPParserError {
            // A body whose framing NIO's parser refused (a chunk size, a transfer coding): the request's fault.
            response = Responses.problem(.badRequest("the request's body could not be read as HTTP/1.1: \(error)"))
        } catch {
            state.logger.warning("\(request.method) \(routeName): \(error)")
            response = Responses.problem(.unavailable("the request could not be answered: \(error)"))
        }
        if request.method == .head {
            // No body, but the length a GET's would have (RFC 9110 §9.3.2): setting the body resets the header.
            let length = response.headers[.contentLength]
            response.body = ResponseBody()
            if let length { response.headers[.contentLength] = length }
        }
        let elapsed = ContinuousClock.now - start
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        // The user may be one that a request named and no account has, and the header is the client's: both are
        // escaped, so that neither can forge a line of the log or move a terminal's cursor.
        let client = state.settings.behindProxy
            ? request.headers[HTTPField.Name("X-Forwarded-For")!].map { " for=\(escapedForMessage($0, limit: 100))" } ?? "" : ""
        let user = call?.user.map { escapedForMessage($0, limit: 64) } ?? "-"
        state.logger.info("\(request.method) \(routeName) \(response.status.code) \(micros)µs \(user)\(client)")
        state.metrics.request(route: routeName, method: request.method.rawValue, status: response.status.code, nanoseconds: micros * 1_000)
        return response
    }
}

/// Ends the event streams when the server is asked to stop, so that they do not hold it for the 10 s given
/// to the requests in flight; and ends the process when those requests have not finished 11 s later.
///
/// A request whose work runs on the blocking pool (a large import's write, the writes queued behind it) can not
/// be cancelled there, and the server waited for it whatever the 10 s (a probe: 45 s, its committed writes'
/// answers cut off). The process now exits 0 instead, as server.md §1 says it does: a write that has not
/// committed is not written, as after a kill, which the store is made for. It exits with the store open, so
/// that no map is let go under a transaction.
struct StreamCloser: Service {
    let follower: LogFollower

    func run() async throws {
        try? await gracefulShutdown()
        follower.stop()
        Task.detached {
            try? await Task.sleep(for: .seconds(11))
            FileHandle.standardError.write(Data("veritrail: stopped with writes still running 10 s after the signal; they are not written\n".utf8))
            CurrentProcess.exit(0)
        }
    }
}
