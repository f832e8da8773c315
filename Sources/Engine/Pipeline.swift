import Foundation

/// Runs a producer on a second thread that hands its items over in order, in batches, while the caller
/// consumes them: reading and decoding on one core, applying on the other (`import`, replay).
///
/// The producer calls `emit` for each item; `emit` returns false once the consumer has cancelled, and the
/// producer should then stop. An error the producer throws reaches the consumer from `next()` after every
/// item emitted before it.
public final class Pipeline<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [[Item]] = []
    private var failure: Error?
    private var done = false
    private var cancelled = false
    private let batchSize: Int
    private let maxBatches: Int
    /// Used by the producer's thread only (which is why the class may be `@unchecked Sendable`).
    private let produce: (_ emit: (Item) -> Bool) throws -> Void

    /// Starts `produce` on its own thread. At most `maxBatches` batches of `batchSize` items wait at once.
    public init(batchSize: Int = 1024, maxBatches: Int = 32, produce: @escaping (_ emit: (Item) -> Bool) throws -> Void) {
        self.batchSize = batchSize
        self.maxBatches = maxBatches
        self.produce = produce
        let thread = Thread { [self] in run() }
        thread.stackSize = 1 << 22
        thread.start()
    }

    deinit { cancel() }

    /// The next batch, in order, or nil at the end; throws the producer's error once every item before it
    /// was taken.
    public func next() throws -> [Item]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !done { condition.wait() }
        guard ready.isEmpty else {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure {
            self.failure = nil
            throw failure
        }
        return nil
    }

    /// Stops the producer and waits until it has returned (it may be using something the caller is about
    /// to release, such as a transaction).
    public func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !done { condition.wait() }
        condition.unlock()
    }

    private func run() {
        var batch: [Item] = []
        batch.reserveCapacity(batchSize)
        func push() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while ready.count >= maxBatches && !cancelled { condition.wait() }
            if cancelled { return false }
            ready.append(batch)
            condition.broadcast()
            batch = []
            batch.reserveCapacity(batchSize)
            return true
        }
        var error: Error?
        do {
            try produce { item in
                batch.append(item)
                return batch.count < batchSize || push()
            }
        } catch let thrown {
            error = thrown
        }
        if !batch.isEmpty { _ = push() }
        condition.lock()
        failure = error
        done = true
        condition.broadcast()
        condition.unlock()
    }
}
