import Foundation
import Logging
import VeritrailKit

/// What the log gained in one step of the follower: the out form of each new event, up to `seq`, and when a
/// commit ends there, its signed checkpoint and the head it made (`seq` and the time of its last event). A step
/// reads one commit, or at most `LogFollower.stepLimit` events of one: a large commit reaches the streams in
/// several steps, the last of which ends it.
struct LogGrowth: Sendable {
    var lines: [(seq: UInt64, line: [UInt8])]
    var seq: UInt64
    var checkpoint: String?
    var head: StoreHead?
    /// Whether `seq` was the head when the step read it: when not, the next step comes at once.
    var reachesHead: Bool
    /// What the growth holds in memory while a stream has not sent it.
    var bytes: Int
}

/// What a stream hears: the log's growth, or after 15 s of nothing, a heartbeat with the time.
enum LogTick: Sendable {
    case growth(LogGrowth)
    case heartbeat(Timestamp)

    var bytes: Int {
        if case .growth(let growth) = self { return growth.bytes }
        return 0
    }
}

/// One open stream's side of the follower: what it hears, from after `since` (the last seq committed when it
/// began; the events up to it are for the stream to read itself). Each tick it has sent is given back with
/// `LogFollower.sent`.
struct Subscription: Sendable {
    let ticks: AsyncStream<LogTick>
    let since: UInt64
    fileprivate let id: UUID
}

/// Watches the store's head and tells every open stream what was committed (server.md §5), whoever wrote
/// it: this server, a command line or an import in another process. The head is a read of one LMDB page;
/// it is looked at every 20 ms, so an event reaches the streams well within the 100 ms of the spec without
/// depending on who committed it. Each step reads the new events once, for every stream.
///
/// Memory stays bounded whatever the log's growth and however slowly a client reads: a step reads at most
/// `stepLimit` events (an import of millions reaches the streams a slice at a time, with no pause between
/// slices), and a stream that has more than `behindLimit` bytes of ticks it has not sent is ended rather than
/// left to hold them; its client asks again from the seq after the last one it read (the backlog is then
/// read from the store a window at a time). No tick is ever dropped from a stream that goes on.
final class LogFollower: @unchecked Sendable {
    /// The most events one step reads.
    static let stepLimit: UInt64 = 4_096
    /// The bytes of ticks a stream may hold unsent before it is ended; it is always given one tick, however large.
    static let behindLimit = 8 << 20

    private struct Subscriber {
        let continuation: AsyncStream<LogTick>.Continuation
        var unsent = 0
    }

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
            var behind = false
            while !Task.isCancelled {
                // Behind the head after a step that read its most, the next step comes at once.
                if !behind { try? await Task.sleep(for: .milliseconds(20)) }
                behind = false
                do {
                    if let growth = try await state.blocking({ try self.step() }) {
                        behind = !growth.reachesHead
                        let ended = publish(.growth(growth))
                        if ended > 0 {
                            state.logger.notice("ended \(ended) stream(s) more than \(Self.behindLimit >> 20) MiB behind; their clients follow again from their last seq")
                        }
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
        for subscriber in ending { subscriber.continuation.finish() }
    }

    /// A stream of what is committed from now on: no seq is skipped or told twice.
    func subscribe() -> Subscription {
        // Unbounded here, bounded by `behindLimit` in `publish`: a buffer policy that drops would skip seqs.
        let (stream, continuation) = AsyncStream<LogTick>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: id) } }
        let since = lock.withLock { () -> UInt64 in
            subscribers[id] = Subscriber(continuation: continuation)
            return seen
        }
        return Subscription(ticks: stream, since: since, id: id)
    }

    /// Ends `subscription`'s ticks (its stream's client has gone): the stream stops waiting, and is no longer
    /// counted or told anything. Nothing when it has ended already.
    func end(_ subscription: Subscription) {
        // Finished outside the lock: finishing calls `onTermination`, which takes it.
        lock.withLock { subscribers[subscription.id]?.continuation }?.finish()
    }

    /// Says that a stream has sent (or skipped) `tick`, which it no longer holds.
    func sent(_ tick: LogTick, on subscription: Subscription) {
        let bytes = tick.bytes
        guard bytes > 0 else { return }
        lock.withLock { subscribers[subscription.id]?.unsent -= bytes }
    }

    /// Reads what was committed since the last step, one commit at a time and at most `stepLimit` events, or
    /// nil when nothing was. Where each commit ends is recorded by the store (`VeritrailStore.firstCommit`), so
    /// that commits that came between two steps are still told apart, each with its own checkpoint and head
    /// (server.md §5), whoever made them; a commit of a version that did not record it ends at the next one
    /// recorded, or the head.
    private func step() throws -> LogGrowth? {
        let (from, listened) = lock.withLock { (seen, !subscribers.isEmpty) }
        let head = try store.head()
        guard head.seq > from else { return nil }
        // Without a stream, only the head moves on: nobody needs the events.
        guard listened else {
            lock.withLock { if subscribers.isEmpty { seen = max(seen, head.seq) } }
            return nil
        }
        var through = min(head.seq, from + Self.stepLimit)
        let commit = try store.firstCommit(after: from, through: through)
        if let commit { through = commit }
        let endsCommit = commit != nil || through == head.seq
        var lines: [(UInt64, [UInt8])] = []
        var next = from + 1
        var bytes = 0
        try store.tail(LogFilter(from: from + 1, through: through)) { line in
            lines.append((next, line))
            next += 1
            bytes += line.count
        }
        let checkpoint = endsCommit ? try store.checkpoint(size: through).note : nil
        let made = through == head.seq ? head : (endsCommit ? try store.head(asOf: .seq(through)) : nil)
        return LogGrowth(lines: lines, seq: through, checkpoint: checkpoint, head: made, reachesHead: through == head.seq,
                         bytes: bytes + (checkpoint?.utf8.count ?? 0))
    }

    /// Tells every stream `tick`, and ends those it would put more than `behindLimit` behind; returns how many.
    @discardableResult
    private func publish(_ tick: LogTick) -> Int {
        let bytes = tick.bytes
        let ending = lock.withLock { () -> [Subscriber] in
            if case .growth(let growth) = tick { seen = growth.seq }
            quietSince = ContinuousClock.now
            var ending: [Subscriber] = []
            for (id, subscriber) in subscribers {
                if subscriber.unsent > 0 && subscriber.unsent + bytes > Self.behindLimit {
                    subscribers.removeValue(forKey: id)
                    ending.append(subscriber)
                } else {
                    subscribers[id]?.unsent += bytes
                    subscriber.continuation.yield(tick)
                }
            }
            return ending
        }
        // Outside the lock, as in `stop`. The stream sends what it holds, then ends.
        for subscriber in ending { subscriber.continuation.finish() }
        return ending.count
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
