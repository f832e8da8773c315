import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
public import VeritrailCLI

/// `RemoteTransport` over AsyncHTTPClient: the command line's requests to `veritrail serve`. The command
/// line is synchronous; each exchange runs on AsyncHTTPClient's one event loop, whose delegate hands the
/// head and body chunks to the calling thread through a queue, so that a stream (`log tail --follow`) is
/// read as it arrives and an upload (`import`) is read from its file, on a thread of its own, as it is sent.
///
/// Not the `async` API: a command line would start Swift's cooperative threads for one request, and each
/// answer would pass through them, two more threads woken per exchange. On a loaded machine every wake-up
/// waits for a core; with the event loop's delegate a query wakes the loop once and the caller once.
public final class HTTPTransport: RemoteTransport, @unchecked Sendable {
    private let client: HTTPClient
    private let loop: any EventLoop

    /// A client that trusts the system's certificates, or those of `caCertificateFile` (PEM) instead.
    public init(caCertificateFile: String?) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caCertificateFile { tls.trustRoots = .file(caCertificateFile) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(10)), decompression: .disabled)
        configuration.httpVersion = .http1Only
        // One event loop: a command line makes one connection at a time, and NIO's shared group would start a
        // thread per core at every command, on a machine of many cores a cost each remote command pays.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        client = HTTPClient(eventLoopGroup: group, configuration: configuration)
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
        var headers = HTTPHeaders()
        for (name, value) in request.headers { headers.add(name: name, value: value) }
        let body: HTTPClient.Body?
        switch request.body {
        case nil: body = nil
        case .bytes(let bytes)?: body = .bytes(bytes)
        case .stream(let next)?:
            let loop = self.loop
            body = .stream(contentLength: nil) { writer in HTTPTransport.pump(next, into: writer, on: loop) }
        }
        let outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(url: request.url, method: HTTPMethod(rawValue: request.method), headers: headers, body: body)
        } catch {
            throw HTTPTransport.transportError(error)
        }
        let queue = Handoff()
        let task = client.execute(request: outgoing, delegate: Receiver(queue: queue), eventLoop: .delegate(on: loop), deadline: nil)
        task.futureResult.whenComplete { result in
            switch result {
            case .success: queue.put(.end)
            case .failure(let error): queue.put(.failed(error))
            }
        }
        defer { task.cancel() }
        // The time-out is the longest wait for the next piece of the answer (`Handoff.take`), not a deadline for
        // the whole of it: a stream or a large answer goes on as long as pieces keep coming.
        let readTimeout = request.timeout
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

    /// Sends the chunks `next` reads (a file) as the request's body, from a thread of its own: a read of the
    /// file blocks, and the event loop must not. Each chunk waits for the one before to be written.
    private static func pump(_ next: @escaping @Sendable () throws -> [UInt8]?, into writer: HTTPClient.Body.StreamWriter,
                             on loop: any EventLoop) -> EventLoopFuture<Void> {
        let promise = loop.makePromise(of: Void.self)
        let thread = Thread {
            do {
                while let chunk = try next() {
                    try writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).wait()
                }
                promise.succeed(())
            } catch {
                promise.fail(error)
            }
        }
        thread.start()
        return promise.futureResult
    }
}

/// Hands the response's head and body chunks, as the event loop receives them, to the waiting thread.
private final class Receiver: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = Void
    let queue: Handoff

    init(queue: Handoff) { self.queue = queue }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        queue.put(.head(RemoteResponseHead(status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) })))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        queue.put(.chunk(Array(buffer.readableBytesView)))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
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
