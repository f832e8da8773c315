/// `--as-of`: a seq (all digits) or a time (projections.md §0).
public enum AsOf: Sendable, Equatable {
    case seq(UInt64)
    case time(Timestamp)

    /// Parses the option's value, or nil when it is neither form.
    public init?(_ text: String) {
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard let n = UInt64(text) else { return nil }
            self = .seq(n)
        } else if let t = Timestamp(text) {
            self = .time(t)
        } else {
            return nil
        }
    }
}
