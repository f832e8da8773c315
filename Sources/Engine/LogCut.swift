public import Domain
public import EventLog

/// The log cut at a point, for the log commands' `--as-of` (cli.md §7) and the time filters of `export`
/// and `log tail`.
///
/// Time never runs backwards in the log, so "the events with `at ≤ T`" and "the events with `at ≥ T`" are
/// a prefix and a suffix: a binary search over the stored `at`s finds their bounds in a few reads, whatever
/// the log's size.
extension LogReader {
    /// The seq of the last event `asOf` keeps (projections.md §0): the head without it, or when it lies
    /// beyond the head; 0 when it keeps nothing.
    public func lastSeq(keptBy asOf: AsOf?) throws -> UInt64 {
        let head = try head()
        switch asOf {
        case nil: return head.seq
        case .seq(let n)?: return min(n, head.seq)
        case .time(let t)?: return try lastSeq(atOrBefore: t, head: head.seq)
        }
    }

    /// The head as it was just after event `seq` (the real head when `seq` is at or past it).
    public func head(through seq: UInt64) throws -> LogHead {
        let head = try head()
        guard seq < head.seq else { return head }
        guard seq > 0 else { return .empty }
        guard let hash = try storedHash(at: seq) else { throw StoreError("event \(seq) is missing from the log") }
        return LogHead(seq: seq, hash: hash, at: try storedAt(at: seq))
    }

    /// The last seq whose `at` is at or before `t` (0 when none is).
    public func lastSeq(atOrBefore t: Timestamp, head: UInt64) throws -> UInt64 {
        // The answer lies in [low, high]: events 1…low are at or before t, events after high are after it.
        var low: UInt64 = 0, high = head
        while low < high {
            let middle = low + (high - low + 1) / 2
            if try at(middle) <= t { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The first seq whose `at` is at or after `t` (`head + 1` when none is).
    public func firstSeq(atOrAfter t: Timestamp, head: UInt64) throws -> UInt64 {
        var low: UInt64 = 1, high = head + 1
        while low < high {
            let middle = low + (high - low) / 2
            if try at(middle) >= t { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private func at(_ seq: UInt64) throws -> Timestamp {
        guard let at = try storedAt(at: seq) else { throw StoreError("event \(seq) is missing from the log") }
        return at
    }
}
