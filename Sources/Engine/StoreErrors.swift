public import LMDB

/// A commit that failed and may have committed all the same (`LMDB.CommitFailed`): the write must be
/// checked, or retried with the same event ids, which makes the retry a no-op if it did commit.
public typealias CommitFailed = LMDB.CommitFailed

/// A transaction tried as often as the store allows (`LMDB.RetriesExhausted`): a damaged store.
public typealias RetriesExhausted = LMDB.RetriesExhausted

/// A write committed, but the signed checkpoint of its new size could not be kept (an I/O error at fsync or
/// rename, a lock or permission refused): its events are in the log. The next write keeps the head's
/// checkpoint before it writes anything, and is refused while it can not (`ProofStore.begin`).
public struct CheckpointNotKept: Error, CustomStringConvertible, Sendable {
    /// The size of the checkpoint that was not kept.
    public var size: UInt64
    /// Why, naming the file.
    public var reason: String

    public init(size: UInt64, reason: String) {
        self.size = size
        self.reason = reason
    }

    public var description: String {
        "the events were recorded (the log holds \(size)) but their signed checkpoint could not be kept: \(reason); "
            + "the next write keeps it first: do not write them again"
    }
}
