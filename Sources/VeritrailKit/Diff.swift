public import Domain
import Engine
import Projections
public import StrictJSON

extension VeritrailStore {
    /// What changed between two points of the log (`veritrail diff`): the events in between, counted by
    /// type and by actor, and the projections (scan figures, customers' statuses, passcode gates, goals)
    /// where they differ, before and after.
    ///
    /// Each side is exactly what `replay(asOf:)` answers at that point, its clock included, so a diff
    /// never disagrees with the two replays. `to` nil is the head, taken as its seq: its clock is the
    /// head's `at`, not the store's, so that a diff says what the events changed, the same whenever it is
    /// asked. A `viewer` that is unknown or deleted (as of the store's clock) is refused (`.unknown`);
    /// `from` after `to` is `.malformed`.
    public func diff(from: AsOf, to: AsOf? = nil, viewer: String? = nil) throws(VeritrailError) -> JSONValue {
        if let viewer { try answer(asOf: nil, now: nil, viewer: viewer) { _ in } }
        return try VeritrailError.catching { try store.diff(from: from, to: to, fallbackNow: clock) }
    }

    /// `diff --from SEQ:HASH` (cli.md §8): the digest an auditor wrote down is checked first, that the log's
    /// event SEQ has that hash (`.unknown`, exit 65, when not, as `log verify --digest` finds it broken), then
    /// the diff runs from SEQ.
    public func diff(fromDigest digest: LogDigest, to: AsOf? = nil, viewer: String? = nil) throws(VeritrailError) -> JSONValue {
        let head = try self.head(asOf: nil)
        guard digest.seq <= head.seq else {
            throw .unknown("the log holds only \(head.seq) events, the digest names seq \(digest.seq): it is not of this log", cause: nil)
        }
        guard try self.head(asOf: .seq(digest.seq)).hash == digest.hash else {
            throw .unknown("the digest's hash differs from the log's hash at seq \(digest.seq): the log is not the one the digest was taken of", cause: nil)
        }
        return try diff(from: .seq(digest.seq), to: to, viewer: viewer)
    }
}
