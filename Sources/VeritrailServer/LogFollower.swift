import Foundation
import Logging
import VeritrailKit

/// What the log gained in one step of the follower: the out form of each new event, the signed checkpoint
/// of the new head, and the head.
struct LogGrowth: Sendable {
    var lines: [(seq: UInt64, line: [UInt8])]
    var checkpoint: String
    var head: StoreHead
}

/// What a stream hears: the log's growth, or after 15 s of nothing, a heartbeat with the time.
enum LogTick: Sendable {
    case growth(LogGrowth)
    case heartbeat(Timestamp)
}

/// Watches the store's head and tells every open stream what was committed (server.md §5), whoever wrote
/// it: this server, a command line or an import in another process. The head is a read of one LMDB page;
/// it is looked at every 20 ms, so an event reaches the streams well within the 100 ms of the spec without
/// depending on who committed it. Each step reads the new events once, for every stream.
final class LogFollower: @unchecked Sendable {
    typealias Subscriber = AsyncStream<LogTick>.Continuation

    private let store: VeritrailStore
    private let lock = NSLock()
    private var subscribers: [UUID: Subscriber] = [:]
    private var seen: UInt64
    private var task: Task<Void, Never>?
    /// When the streams were last told anything.
    private var quietSince = ContinuousClock.now

    init(store: VeritrailStore) throws {
        self.store = store
        seen = try store.head().seq
    }

    var count: Int { lock.withLock { subscribers.count } }

    /// The last seq the streams were told of.
    var head: UInt64 { lock.withLock { seen } }

    /// Starts looking at the head, on `state`'s threads, until `stop`.
    func start(_ state: ServerState) {
        task = Task.detached { [self] in
            var failing = FailureReport()
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(20))
                do {
                    if let growth = try await state.blocking({ try self.step() }) {
                        publish(.growth(growth))
                    } else if ContinuousClock.now - lock.withLock({ quietSince }) >= .seconds(15) {
                        publish(.heartbeat(store.clock()))
                    }
                    if let lasted = failing.recovered() {
                        state.logger.notice("following the log again, after \(lasted) failed steps")
                    }
                } catch is CancellationError {
                    return  // the server is stopping
                } catch {
                    if let line = failing.failed(with: "\(error)") { state.logger.warning("following the log: \(line)") }
                }
            }
        }
    }

    func stop() {
        task?.cancel()
        // Finished outside the lock: finishing calls `onTermination`, which takes it.
        let ending = lock.withLock { () -> [Subscriber] in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for subscriber in ending { subscriber.finish() }
    }

    /// A stream of what is committed from now on, and the last seq already committed when it began (the
    /// events up to it are for the caller to read): no seq is skipped or told twice.
    func subscribe() -> (AsyncStream<LogTick>, UInt64) {
        let (stream, continuation) = AsyncStream<LogTick>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: id) } }
        let since = lock.withLock { () -> UInt64 in
            subscribers[id] = continuation
            return seen
        }
        return (stream, since)
    }

    /// Reads what was committed since the last step, or nil when nothing was.
    private func step() throws -> LogGrowth? {
        let (from, listened) = lock.withLock { (seen, !subscribers.isEmpty) }
        let head = try store.head()
        guard head.seq > from else { return nil }
        // Without a stream, only the head moves on: nobody needs the events.
        guard listened else {
            lock.withLock { if subscribers.isEmpty { seen = max(seen, head.seq) } }
            return nil
        }
        var lines: [(UInt64, [UInt8])] = []
        var next = from + 1
        try store.tail(LogFilter(from: from + 1, through: head.seq)) { line in
            lines.append((next, line))
            next += 1
        }
        let checkpoint = try store.checkpoint(size: head.seq).note
        return LogGrowth(lines: lines, checkpoint: checkpoint, head: head)
    }

    private func publish(_ tick: LogTick) {
        lock.withLock {
            if case .growth(let growth) = tick { seen = growth.head.seq }
            quietSince = ContinuousClock.now
            for subscriber in subscribers.values { subscriber.yield(tick) }
        }
    }
}

/// When a failing step of the follower is worth a line in the server's log: the first failure, a new kind of
/// failure, and the same one once a minute while it lasts. The follower steps every 20 ms, so logging every
/// failure would write 50 lines a second for as long as the store stays unreadable.
struct FailureReport {
    private var message: String?
    private var reportedAt = ContinuousClock.now
    private var count = 0

    /// The line to log for this failure, or nil when it was reported recently.
    mutating func failed(with error: String) -> String? {
        count += 1
        let now = ContinuousClock.now
        guard error != message || now - reportedAt >= .seconds(60) else { return nil }
        defer { message = error; reportedAt = now }
        return error != message ? error : "\(error) (still, \(count) failed steps)"
    }

    /// How many steps had failed when a step succeeds again after failures; nil when none had.
    mutating func recovered() -> Int? {
        guard count > 0 else { return nil }
        defer { count = 0; message = nil }
        return count
    }
}
