/// `--as-of`: a seq (all digits) or a time (projections.md §0), typed as people type times (cli.md §8:
/// `Timestamp(typed:)`).
public enum AsOf: Sendable, Equatable {
    case seq(UInt64)
    case time(Timestamp)

    /// Parses the option's value, or nil when it is neither form.
    public init?(_ text: String) {
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // A seq past 2^64 - 1 is past the head too: it keeps every event, as any seq past the head does.
            self = .seq(UInt64(text) ?? .max)
        } else if let t = Timestamp(typed: text) {
            self = .time(t)
        } else {
            return nil
        }
    }
}
