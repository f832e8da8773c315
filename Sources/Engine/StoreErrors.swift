public import LMDB

/// A commit that failed and may have committed all the same (`LMDB.CommitFailed`): the write must be
/// checked, or retried with the same event ids, which makes the retry a no-op if it did commit.
public typealias CommitFailed = LMDB.CommitFailed

/// A transaction tried as often as the store allows (`LMDB.RetriesExhausted`): a damaged store.
public typealias RetriesExhausted = LMDB.RetriesExhausted
