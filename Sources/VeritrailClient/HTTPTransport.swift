import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
public import VeritrailCLI

/// `RemoteTransport` over AsyncHTTPClient: the command line's requests to `veritrail serve`. The command
/// line is synchronous; each exchange runs as a task on AsyncHTTPClient's event loops and hands its head and
/// body chunks to the calling thread through a queue, so that a stream (`log tail --follow`) is read as it
/// arrives and an upload (`import`) is read from its file as it is sent.
public final class HTTPTransport: RemoteTransport, @unchecked Sendable {
    private let client: HTTPClient

    /// A client that trusts the system's certificates, or those of `caCertificateFile` (PEM) instead.
    public init(caCertificateFile: String?) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caCertificateFile { tls.trustRoots = .file(caCertificateFile) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(10)), decompression: .disabled)
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The process's one transport: made once, and never shut down before the process ends (a command
    /// line's life), as AsyncHTTPClient's shared client is not.
    nonisolated(unsafe) private static var made: [String: HTTPTransport] = [:]

    public static func shared(caCertificateFile: String?) throws -> HTTPTransport {
        let key = caCertificateFile ?? ""
        if let transport = made[key] { return transport }
        let transport = try HTTPTransport(caCertificateFile: caCertificateFile)
        made[key] = transport
        return transport
    }

    public func exchange(_ request: RemoteRequest, onBody: (RemoteResponseHead, [UInt8]) throws -> Bool) throws -> RemoteResponseHead {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        switch request.body {
        case nil: break
        case .bytes(let bytes)?: outgoing.body = .bytes(ByteBuffer(bytes: bytes))
        case .stream(let next)?:
            let chunks = AsyncThrowingStream<ByteBuffer, any Error>(unfolding: { try next().map { ByteBuffer(bytes: $0) } })
            outgoing.body = .stream(chunks, length: .unknown)
        }
        let queue = Handoff()
        let client = self.client
        let sending = outgoing
        // The time-out is the longest wait for the next piece of the answer (`Handoff.take`), not a deadline for
        // the whole of it: a stream or a large answer goes on as long as pieces keep coming.
        let readTimeout = request.timeout
        let task = Task {
            do {
                let response = try await client.execute(sending, deadline: .distantFuture)
                queue.put(.head(RemoteResponseHead(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) })))
                for try await buffer in response.body {
                    queue.put(.chunk(Array(buffer.readableBytesView)))
                }
                queue.put(.end)
            } catch {
                queue.put(.failed(error))
            }
        }
        defer { task.cancel() }
        guard case .head(let head) = try queue.take(within: readTimeout) else { throw RemoteTransportError.unreachable("no answer") }
        while true {
            switch try queue.take(within: readTimeout) {
            case .chunk(let bytes): if try !onBody(head, bytes) { return head }
            case .end: return head
            case .head: continue
            case .failed: throw RemoteTransportError.unreachable("the connection was closed before the answer ended")
            }
        }
    }
}

/// What the task hands the calling thread: the head, each body chunk, the end, or why it failed.
private enum Piece: @unchecked Sendable {
    case head(RemoteResponseHead)
    case chunk([UInt8])
    case end
    case failed(any Error)
}

/// A queue from the exchange's task to the thread that waits for it.
private final class Handoff: @unchecked Sendable {
    private let condition = NSCondition()
    private var pieces: [Piece] = []

    func put(_ piece: Piece) {
        condition.lock()
        pieces.append(piece)
        condition.signal()
        condition.unlock()
    }

    /// The next piece; a failure is thrown as the transport's error. `seconds` bounds the wait (nil: none).
    func take(within seconds: Int64?) throws -> Piece {
        condition.lock()
        defer { condition.unlock() }
        let limit = seconds.map { Date().addingTimeInterval(Double($0) + 1) }
        while pieces.isEmpty {
            if let limit {
                if !condition.wait(until: limit) && pieces.isEmpty { throw RemoteTransportError.timedOut }
            } else {
                condition.wait()
            }
        }
        let piece = pieces.removeFirst()
        if case .failed(let error) = piece { throw HTTPTransport.transportError(error) }
        return piece
    }
}

extension HTTPTransport {
    /// AsyncHTTPClient's and NIO's errors as the command line says them.
    static func transportError(_ error: any Error) -> RemoteTransportError {
        if let error = error as? HTTPClientError,
           error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout { return .timedOut }
        if error is NIOSSLError || error is BoringSSLError { return .tls("\(error)") }
        let text = String(describing: error)
        if text.contains("SSL") || text.contains("certificate") { return .tls(text) }
        if text.contains("Connection refused") || text.contains("connection reset") || text.contains("ECONNREFUSED") {
            return .unreachable("connection refused")
        }
        return .unreachable(String(text.prefix(300)))
    }
}
