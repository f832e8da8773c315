import Logging
import NIOPosix
import VeritrailKit

/// What every request shares: the one store of the process (LMDB opens an environment once per process),
/// the sessions, the settings, and the threads that run the library's blocking calls off the event loops.
final class ServerState: Sendable {
    /// A single command's body (server.md §7: 413 past it).
    static let singleBodyLimit = 1 << 20

    let store: VeritrailStore
    let sessions: SessionStore
    let settings: ServerSettings
    let logger: Logger
    /// The library's calls block (LMDB reads, commits and their flush): they run here, never on an event loop.
    let pool: NIOThreadPool
    /// Tells the event streams what is committed (server.md §5).
    let follower: LogFollower
    let metrics: ServerMetrics

    init(store: VeritrailStore, sessions: SessionStore, settings: ServerSettings, logger: Logger, pool: NIOThreadPool,
         follower: LogFollower, metrics: ServerMetrics) {
        self.follower = follower
        self.metrics = metrics
        self.store = store
        self.sessions = sessions
        self.settings = settings
        self.logger = logger
        self.pool = pool
    }

    /// Runs `body` on the pool and hands back what it returns or throws.
    func blocking<R: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> R) async throws -> R {
        try await pool.runIfActive { try body() }
    }
}
