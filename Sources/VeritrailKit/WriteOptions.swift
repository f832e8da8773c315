public import LMDB

/// How a write is made: the id its events are written under, and whether it is only checked.
public struct WriteOptions: Sendable {
    /// The id of the write's first event; its others get `ID.2`, `ID.3`, … Drawn at random when nil.
    /// Give back the id of a write whose commit failed (`UncertainCommit`): the events already logged under
    /// it, for the same data, are not written again, so the retry is safe.
    public var eventID: String?
    /// Checks everything — the rules, who may, the gate — and writes nothing (`veritrail … --dry-run`).
    public var dryRun: Bool

    /// A write under `eventID` (or a new id), committed unless `dryRun`.
    public init(eventID: String? = nil, dryRun: Bool = false) {
        self.eventID = eventID
        self.dryRun = dryRun
    }
}

/// A commit that failed, and may have committed all the same (LMDB reports the failure of the final
/// flush, after which the pages may be on disk).
public struct UncertainCommit: Error, CustomStringConvertible {
    /// The id the write's first event was given: retry with it (`WriteOptions.eventID`).
    public var eventID: String
    /// The failure LMDB reported (its code: `underlying.underlying.code`, or `VeritrailError.lmdbCode`).
    public var underlying: CommitFailed

    /// A commit of the write whose first event is `eventID` that failed with `underlying`.
    public init(eventID: String, underlying: CommitFailed) {
        self.eventID = eventID
        self.underlying = underlying
    }

    /// LMDB's error, in words.
    public var failure: String { "\(underlying.underlying)" }

    /// Says what to do, in the command line's words: LMDB's error, then how to check and retry.
    public var description: String {
        """
        \(failure): the write may have been recorded all the same: check with `veritrail log tail`; \
        to retry it safely, run the same command again with --id \(eventID)
        """
    }
}
