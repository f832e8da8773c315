// The library speaks the catalogue's words: `Domain` (event types, their fields and rules, timestamps, the
// gate's refusals) and `StrictJSON` (the JSON every query answers) come with `import VeritrailKit`, as
// NIOCore's types come with NIOPosix. The engine's own modules (Engine, EventLog, Projections, Proofs,
// LMDB) do not; the two errors of LMDB that a caller may catch by code are named below.
@_exported public import Domain
@_exported public import StrictJSON
public import LMDB

/// The head of the log: its last seq, its hash and the last event's time.
public typealias StoreHead = LogHead
/// An error LMDB reported, with its code (`MDB_*` or an `errno`).
public typealias LMDBError = LMDB.LMDBError
/// A commit that failed and may have committed all the same: check, or retry with the same ids.
public typealias CommitFailed = LMDB.CommitFailed
