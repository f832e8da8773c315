import SystemCalls

/// Runs a producer on a second thread that hands its items over in order, in batches, while the caller
/// consumes them: reading and decoding on one core, applying on the other (`import`, rebuild, replay).
///
/// The producer calls `emit` for each item; `emit` returns false once the consumer has cancelled, and the
/// producer should then stop. An error the producer throws reaches the consumer from `next()` after every
/// item emitted before it.
///
/// A batch goes back to the producer's thread when the consumer asks for the next one, and the items left
/// in it are destroyed there. A consumer that reads items in place (`Batch.forEach`) so has the blocks the
/// producer allocated freed on the thread that allocated them: with glibc, a block freed on another thread
/// waits for the lock of its arena, which the producer holds for its own allocations.
public final class Pipeline<Item>: @unchecked Sendable {
    private let condition = ConditionLock()
    private var ready: [Batch<Item>] = []
    /// The batch the consumer has, and those it is done with, which the producer empties and fills again.
    private var lent: Batch<Item>?
    private var returned: [Batch<Item>] = []
    private var failure: (any Error)?
    private var done = false
    private var cancelled = false
    private let batchSize: Int
    private let maxBatches: Int
    /// Used by the producer's thread only (which is why the class may be `@unchecked Sendable`).
    private let produce: (_ emit: (consuming Item) -> Bool) throws -> Void

    /// Starts `produce` on its own thread. At most `maxBatches` batches of `batchSize` items wait at once.
    public init(batchSize: Int = 1024, maxBatches: Int = 32, produce: @escaping (_ emit: (consuming Item) -> Bool) throws -> Void) {
        self.batchSize = batchSize
        self.maxBatches = maxBatches
        self.produce = produce
        // A thread of its own with a stack of 4 MiB; it holds the pipeline until `run` returns. When the system
        // will not start one (out of threads or memory), the pipeline is over before it began: `next` throws
        // why, and the consumer does not wait for items no one produces.
        do {
            try SystemThread.start(stackSize: 1 << 22, detached: true) { [self] in run() }
        } catch {
            failure = error
            done = true
        }
    }

    deinit { cancel() }

    /// The next batch, in order, or nil at the end; throws the producer's error once every item before it
    /// was taken. The batch returned before is the producer's again: it must not be used after this call.
    public func next() throws -> Batch<Item>? {
        condition.lock()
        defer { condition.unlock() }
        if let lent {
            returned.append(lent)
            self.lent = nil
        }
        while ready.isEmpty && !done { condition.wait() }
        guard ready.isEmpty else {
            condition.broadcast()
            let batch = ready.removeFirst()
            lent = batch
            return batch
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
        var batch = Batch<Item>(capacity: batchSize)
        func push() -> Bool {
            condition.lock()
            while ready.count >= maxBatches && !cancelled { condition.wait() }
            if cancelled {
                condition.unlock()
                return false
            }
            ready.append(batch)
            condition.broadcast()
            let empty = returned.popLast()
            condition.unlock()
            // Emptied here, outside the lock: on this thread, which allocated what its items hold.
            if let empty {
                empty.empty()
                batch = empty
            } else {
                batch = Batch(capacity: batchSize)
            }
            return true
        }
        var error: (any Error)?
        do {
            try produce { (item: consuming Item) in
                batch.append(item)
                return batch.count < batchSize || push()
            }
        } catch let thrown {
            error = thrown
        }
        if batch.count > 0 { _ = push() }
        condition.lock()
        failure = error
        done = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Items handed over together: filled in order by the producer, then taken in order by the consumer, each
/// moved in and out rather than copied (a copy of a decoded event retains, and later releases, every
/// string it holds).
public final class Batch<Item> {
    private let items: UnsafeMutablePointer<Item>
    private let capacity: Int
    // Changed for every item, by this class's own code only, and never while another access is under way:
    // unchecked for overlapping access at run time, as `Models`' caches are (docs/BULK.md).
    /// How many items were put in.
    @exclusivity(unchecked) public private(set) var count = 0
    /// How many were taken out.
    @exclusivity(unchecked) private var taken = 0

    init(capacity: Int) {
        self.capacity = capacity
        items = .allocate(capacity: capacity)
    }

    deinit {
        (items + taken).deinitialize(count: count - taken)
        items.deallocate()
    }

    /// Destroys the items not taken, to be filled again.
    fileprivate func empty() {
        (items + taken).deinitialize(count: count - taken)
        count = 0
        taken = 0
    }

    func append(_ item: consuming Item) {
        precondition(count < capacity, "a batch holds at most its capacity")
        (items + count).initialize(to: item)
        count += 1
    }

    /// Lends `body` each item not taken, in order, and leaves it in the batch, to be destroyed on the
    /// producer's thread (see `Pipeline`).
    public func forEach(_ body: (borrowing Item) throws -> Void) rethrows {
        for i in taken..<count { try body(items[i]) }
    }

    /// Takes the next item out, or nil when every item was taken.
    public func take() -> Item? {
        guard taken < count else { return nil }
        defer { taken += 1 }
        return (items + taken).move()
    }
}
