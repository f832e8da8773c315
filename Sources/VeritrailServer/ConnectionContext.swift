import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's own, and the end of the request's connection. Hummingbird does
/// not tell a response's body that its client has gone (the body's task goes on: hummingbird#618), so an event
/// stream, which waits between commits, learnt it only when its next heartbeat failed to be written, up to 15 s
/// later, holding the follower's ticks and counted as open until then. A stream ends when its connection does.
struct ConnectionContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Completes when the request's connection is closed, by either side.
    let connectionClosed: EventLoopFuture<Void>

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connectionClosed = source.channel.closeFuture
    }
}
