import Domain
import EventLog
import Projections
import SystemCalls

/// Makes the pieces of a served store's full chunks again off its writes (`Models.deferChunkPieces`): on a
/// thread of its own, from a read snapshot, each chunk a write left due (`Models.chunksWithPiecesDue`); the
/// pieces are stored by a write of the store's group commit (`Models.storeRemadePieces`), which merges in
/// the reports made since the snapshot.
///
/// Why: made in the write that fills the chunk, they held every writer waiting on the group commit 170–260
/// ms once every 16,000 served scans, and 80 % of that is reading the chunk's rows and counting their
/// pieces (docs/SERVER.md). Woken by a write that leaves chunks due, and once when it starts (chunks a
/// server killed before left due). A chunk whose pieces fail to be made stays due: its searches read more
/// rows, and the next wake tries again.
final class PieceRemaker: @unchecked Sendable {
    /// Weak: the store owns its remaker, and stops it when it goes (`stop`).
    private weak var store: Store?
    private let lock = ConditionLock()
    private var woken = true
    private var stopped = false

    init(store: Store) throws {
        self.store = store
        try SystemThread.start(stackSize: 1 << 20, detached: true) { [self] in run() }
    }

    /// Has the thread look for chunks due.
    func wake() {
        lock.lock()
        woken = true
        lock.signal()
        lock.unlock()
    }

    /// Ends the thread once it is done with the chunk it is making, if any (the store is going away).
    func stop() {
        lock.lock()
        stopped = true
        lock.signal()
        lock.unlock()
    }

    private func run() {
        while true {
            lock.lock()
            while !woken && !stopped { lock.wait() }
            woken = false
            let stop = stopped
            lock.unlock()
            if stop { return }
            try? remakeDue()
        }
    }

    /// Makes and stores the pieces of every chunk due, one at a time.
    func remakeDue() throws {
        guard let store, let committer = store.committer else { return }
        for chunk in try store.read({ _, models in try models.chunksWithPiecesDue() }) {
            if isStopped { return }
            let pieces = try store.read { reader, models in try models.remadePieces(of: chunk, head: try reader.head().seq) }
            if isStopped { return }
            try committer.run { appender in appender.models.storeRemadePieces(pieces) }
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }
}
