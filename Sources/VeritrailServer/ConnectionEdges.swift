import NIOCore
import NIOHTTP1
import VeritrailKit

/// What Hummingbird's HTTP/1.1 server leaves undone at the edges of a connection, mended where NIO's request parts
/// still carry the request's version: right after NIO's request decoder, before Hummingbird's codec turns them
/// into HTTPTypes, which do not (`Installer` puts it there):
///
/// - A request that does not keep its connection (HTTP/1.0 without `Connection: keep-alive`, or `Connection: close`
///   in any case and beside other tokens) ends it once answered, with `Connection: close` (RFC 9112 §9.3, §9.6).
///   Hummingbird closes only on the exact value `close`, so an HTTP/1.0 client, which reads its answer to the end
///   of the connection, waited for the 60 s idle timeout. An HTTP/1.0 request is answered in HTTP/1.0, without
///   chunks: a body of unknown length (a stream) ends with the connection.
/// - A request NIO's parser refuses (a control character in a header, a request line that is not HTTP, a length and a
///   chunked coding together) is answered with a problem of server.md §7 (400, exit 64), and the connection closed.
///   Hummingbird answered a bare 400 without a body. Requests before it on the connection are answered first. A
///   parse error in a request's body goes on to Hummingbird, whose route reading the body refuses it as a problem;
///   that answer says `Connection: close`, since nothing after it on the connection can be read.
/// - `Expect: 100-continue` is answered with a 100 before the body is read.
/// - A client that closes its side of the connection (a FIN: Hummingbird allows half-closed connections) while an
///   endless answer is under way (an event stream, which marks its head with `endlessMark`, taken out here) has
///   gone: the connection is closed, which ends the stream (`ConnectionContext`). Hummingbird would keep it until
///   a write failed, which for a stream waiting between commits is its next heartbeat, up to 15 s later.
final class ConnectionEdges: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What each request read and not yet answered asked of its connection, oldest first (answers go out in the
    /// order the requests came, pipelined or not).
    private var asked: [Asked] = []

    private struct Asked {
        /// An HTTP/1.0 request: its answer says `HTTP/1.0`, so that NIO's encoder never frames a body of unknown
        /// length in chunks, which HTTP/1.0 does not know (RFC 9112 §7.1); such a body then ends with the connection.
        var http10: Bool
        /// The connection ends after the answer.
        var close: Bool
    }

    /// A request's head was read and its end not yet: a parse error now is its body's.
    private var reading = false
    /// The answer being sent is endless (its head carried `endlessMark`).
    private var endless = false

    /// The header by which a route says its answer never ends by itself (an event stream); never sent.
    static let endlessMark = "Veritrail-Endless"
    /// A request that could not be parsed after others that are still being answered: refused after them.
    private var unparsed: HTTPParserError?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var part = unwrapInboundIn(data)
        if case .end = part { reading = false }
        if case .head(var head) = part {
            reading = true
            let request = Asked(http10: head.version == .http1_0, close: !head.isKeepAlive)
            asked.append(request)
            // A client that sent `Expect: 100-continue` waits for a 100 before it sends the body (RFC 9110 §10.1.1:
            // the server must send it or a final answer; Hummingbird sends neither). Sent at once when nothing
            // else is being answered on the connection; a refusal comes once the body is read, as for any request.
            if head.version == .http1_1, asked.count == 1,
               head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
            }
            if request.close {
                // Hummingbird ends the connection after the answer only on this exact header.
                head.headers.replaceOrAdd(name: "Connection", value: "close")
                part = .head(head)
            }
        }
        context.fireChannelRead(wrapInboundOut(part))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch part {
        case .head(var head):
            endless = head.headers.contains(name: Self.endlessMark)
            head.headers.remove(name: Self.endlessMark)
            if var request = asked.first, request.http10 {
                head.version = .http1_0
                // A body of unknown length is delimited by the end of the connection.
                if !request.close && !head.headers.contains(name: "Content-Length") {
                    request.close = true
                    asked[0] = request
                }
                if !request.close { head.headers.replaceOrAdd(name: "Connection", value: "keep-alive") }
            }
            if asked.first?.close == true { head.headers.replaceOrAdd(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            endless = false
            let answered = asked.isEmpty ? nil : asked.removeFirst()
            guard answered?.close == true else {
                context.write(data, promise: promise)
                if asked.isEmpty, let unparsed { refuse(unparsed, context: context) }
                return
            }
            // Ended here once the answer is out: Hummingbird ends it too when the request said `close`, but not
            // when only the answer needs it (an HTTP/1.0 body of unknown length).
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            context.write(data, promise: written)
        case .body:
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if endless, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError, !reading else {
            // A body NIO could not frame ends its connection once refused, and the refusal says so.
            if error is HTTPParserError, !asked.isEmpty { asked[asked.count - 1].close = true }
            context.fireErrorCaught(error)
            return
        }
        // Nothing more is read from the connection (NIO's decoder stops at its first error): the requests before
        // it are answered, then it is refused, and the connection ends.
        if asked.isEmpty { refuse(parse, context: context) } else { unparsed = parse }
    }

    private func refuse(_ parse: HTTPParserError, context: ChannelHandlerContext) {
        unparsed = nil
        asked.append(Asked(http10: false, close: true))
        let problem = Problem.badRequest("the request could not be read as HTTP/1.1 (\(parse)): check its request line, "
                                         + "its headers (no control characters) and how its body is framed")
        let body = Responses.problemBody(problem)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: Responses.problemType)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

extension ConnectionEdges {
    /// Puts a `ConnectionEdges` right after the connection's request decoder. Hummingbird adds the handlers it is
    /// given after its own codec, where the parts are HTTPTypes; this one is given instead, and passes every part
    /// on as it came (NIO's default `channelRead`, which does not look into it).
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            guard let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return }
            try? pipeline.addHandler(ConnectionEdges(), position: .after(decoder))
        }
    }
}
