import VeritrailKit

/// The note a human answer gets on stderr when the clock hides events that are in the log (cli.md §8): a
/// `VERITRAIL_NOW` left set from a demo would otherwise make one's own store look empty, with no word why.
enum ClockNote {
    /// Two lines that fit 80 columns: how many, why, and what to do.
    static func hidden(_ count: UInt64, now: Timestamp, clock: ClockOptions) -> String {
        let events = count == 1 ? "1 event" : "\(count) events"
        let (source, fix) = clock.now != nil ? ("--now", "give a later --now") : ("VERITRAIL_NOW", "unset VERITRAIL_NOW")
        return "note: \(events) after \(source)=\(now) left out\n      (\(fix) to see them)"
    }
}
