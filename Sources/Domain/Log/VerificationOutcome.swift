/// The answer of a check of the hash chain (`log verify`, `verify FILE`): ok with the events checked and
/// the head, or the first bad seq and why. A chain that does not hold is an answer, not an error.
public enum VerificationOutcome: Sendable, Equatable {
    /// Every event checked holds; `head` is the last of them.
    case ok(events: UInt64, head: LogHead)
    /// The first event that does not hold (or the first the check could not reach), and why.
    case broken(firstBadSeq: UInt64, reason: String)
}
