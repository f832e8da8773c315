public import Domain
import EventLog
public import Projections

extension Store {
    /// Answers a query as projections.md §0 says: the kept events are those with `seq ≤ N` or `at ≤ T`
    /// (`--as-of`) and `at ≤ now`; `now` is `--now`, else the `--as-of` time, else the `at` of event N,
    /// else `fallbackNow` (`VERITRAIL_NOW` or the wall clock).
    ///
    /// When every event is kept, the stored read models answer at once; otherwise the kept prefix is
    /// replayed into memory.
    public func query<R>(asOf: AsOf?, now explicitNow: Timestamp?, fallbackNow: () -> Timestamp,
                         _ body: (QueryContext) throws -> R) throws -> R {
        try read { reader, stored in
            let head = try reader.head()
            var seqLimit = head.seq
            var timeLimit: Timestamp?
            var now = explicitNow
            switch asOf {
            case .seq(let n)?:
                seqLimit = min(n, head.seq)
                if now == nil, seqLimit > 0 { now = try reader.event(at: seqLimit)?.event.at }
            case .time(let t)?:
                timeLimit = t
                if now == nil { now = t }
            case nil:
                break
            }
            let clock = now ?? fallbackNow()
            let notAfter = timeLimit.map { min($0, clock) } ?? clock
            if seqLimit == head.seq, head.at.map({ $0 <= notAfter }) ?? true {
                return try body(QueryContext(models: stored, now: clock, lastSeq: head.seq, lastAt: head.at))
            }
            let (models, last) = try replay(reader, over: stored, through: seqLimit, notAfter: notAfter)
            return try body(QueryContext(models: models, now: clock, lastSeq: last?.seq ?? 0, lastAt: last?.at))
        }
    }
}
