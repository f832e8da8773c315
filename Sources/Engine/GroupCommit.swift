import Domain
import EventLog
import LMDB
import SystemCalls

/// Group commit (server.md §3): writes that arrive together, from many threads, share one write
/// transaction, one flush and one signed checkpoint.
///
/// The first writer to find no group under way leads: it takes every write queued so far, runs them in
/// one transaction in the order they came, commits, signs, and hands each writer its own outcome; the
/// writes that queued meanwhile form the next group. Each write sees the state its predecessors in the
/// group left. A write that is refused (a broken rule, the gate) must leave the others untouched, and
/// LMDB's nested transactions, which would undo it alone, are not available with `MDB_WRITEMAP`: so the
/// transaction is aborted and the group run again without it (each round leaves out at least one write,
/// and a refusal costs a round only in the group it falls in). Nothing is answered before the commit and
/// the checkpoint are on disk; an error of the store itself fails the whole group.
final class GroupCommitter: @unchecked Sendable {
    /// One queued write: its body, and once its group is done, its outcome.
    final class Entry {
        /// Dropped before the writer is told its group is done: the writer may lend a closure it must get back.
        var body: ((inout Appender) throws -> Void)?
        var error: (any Error)?
        var done = false
        init(_ body: @escaping (inout Appender) throws -> Void) { self.body = body }
    }

    private let store: Store
    private let lock = ConditionLock()
    private var queue: [Entry] = []
    private var leading = false
    /// The sizes of the groups committed, for whoever measures (`Store.onGroupCommit`).
    var onCommit: (@Sendable (_ size: Int, _ microseconds: Int64) -> Void)?

    init(store: Store) { self.store = store }

    /// Runs `body` in the next group's transaction and returns once that group has committed; throws what
    /// `body` threw (nothing of it is written) or the group's store error.
    func run(_ body: @escaping (inout Appender) throws -> Void) throws {
        let entry = Entry(body)
        lock.lock()
        queue.append(entry)
        while !entry.done {
            if leading {
                lock.wait()
                continue
            }
            leading = true
            let group = queue
            queue.removeAll()
            lock.unlock()
            let started = SystemClock.monotonicNanoseconds()
            commit(group)
            onCommit?(group.count, Int64((SystemClock.monotonicNanoseconds() - started) / 1_000))
            lock.lock()
            for member in group {
                member.body = nil
                member.done = true
            }
            leading = false
            lock.broadcast()
        }
        lock.unlock()
        if let error = entry.error { throw error }
    }

    /// Commits `group`, leaving out the writes that are refused.
    private func commit(_ group: [Entry]) {
        var remaining = group
        while !remaining.isEmpty {
            var refused: Int?
            do {
                try store.write { appender in
                    refused = nil
                    for (index, entry) in remaining.enumerated() {
                        do {
                            try entry.body?(&appender)
                        } catch where GroupCommitter.isRefusal(error) {
                            entry.error = error
                            refused = index
                            appender.rollBack()
                            return
                        }
                    }
                }
            } catch {
                for entry in remaining { entry.error = error }
                return
            }
            guard let refused else {
                for entry in remaining { entry.error = nil }
                return
            }
            remaining.remove(at: refused)
        }
    }

    /// Whether `error` refuses one write (its rules, its gate, its input) rather than the store: only a
    /// refusal is left out of the group; anything else fails the group.
    static func isRefusal(_ error: any Error) -> Bool {
        !(error is LMDBError || error is StoreError || error is CommitFailed)
    }
}
