public import Domain
import EventLog
import Projections
public import StrictJSON

/// `diff --from X --to Y`: what changed between two points of the log — the events in between, counted
/// by type and by actor, and the projections of `replay` side by side where they differ.
///
/// Each side is exactly what `replay --as-of X` answers (`Store.query`, the same cut and the same clock:
/// `now` is the `--as-of` time, or the `at` of event N), so a diff never disagrees with the two replays.
extension Store {
    /// One side of a diff: the point it stands for and the answers compared.
    private struct Side {
        var seq: UInt64
        var at: Timestamp?
        var now: Timestamp
        var stats: JSONValue
        /// By username, for the accounts that are not deleted.
        var statuses: [String: JSONValue] = [:]
        var lockouts: [String: JSONValue] = [:]
        var goals: [String: JSONValue] = [:]

        init(_ context: QueryContext) throws {
            seq = context.lastSeq
            at = context.lastAt
            now = context.now
            stats = try Projections.stats(by: nil, context)
            if case .object(let answer) = try customers(status: nil, context), case .array(let list)? = answer["customers"] {
                for case .object(let customer) in list {
                    if case .string(let username)? = customer["username"] { statuses[username] = customer["status"] }
                }
            }
            for account in try context.models.allAccounts(history: .last) where !account.deleted {
                lockouts[account.username] = try lockout(account.username, context)
                // The month of the side's clock and its metrics: the `goals` answer without `months`.
                if case .object(let answer) = try Projections.goals(account.username, month: nil, context) {
                    goals[account.username] = J.object(["month": answer["month"] ?? .null, "metrics": answer["metrics"] ?? .array([])])
                }
            }
        }

        var point: JSONValue {
            J.object(["seq": J.int(seq), "at": J.timeOrNull(at), "now": J.time(now)])
        }
    }

    /// The diff's JSON answer (README, "diff"). `to` nil is the head, taken as `--as-of HEAD_SEQ` (its clock
    /// is the head's `at`, not the wall clock: a diff shows what the events changed, the same whenever it
    /// is asked). `fallbackNow` is the clock when a side keeps no event, as for any query.
    public func diff(from: AsOf, to: AsOf?, fallbackNow: () -> Timestamp) throws -> JSONValue {
        let before = try query(asOf: from, now: nil, fallbackNow: fallbackNow) { try Side($0) }
        let after = try query(asOf: to ?? .seq(.max), now: nil, fallbackNow: fallbackNow) { try Side($0) }
        guard before.seq <= after.seq else {
            throw QueryError.usage("--from (seq \(before.seq)) is after --to (seq \(after.seq)): give the earlier point first")
        }
        var byType: [EventType: Int] = [:], byActor: [String: Int] = [:]
        try read { reader, _ in
            try reader.forEachRecord(from: before.seq + 1, through: after.seq) { seq, bytes in
                let header = try StoredHeader(bytes, seq: seq, reader)
                byType[header.type, default: 0] += 1
                byActor[header.actor, default: 0] += 1
                return true
            }
        }
        var changes: [(String, JSONValue)] = []
        if before.stats != after.stats {
            changes.append(("stats", J.object(["before": before.stats, "after": after.stats])))
        }
        changes.append(("customers", Self.changed(before.statuses, after.statuses)))
        changes.append(("lockout", Self.changed(before.lockouts, after.lockouts)))
        changes.append(("goals", Self.changed(before.goals, after.goals, same: Self.sameGoals)))
        return J.object([
            ("from", before.point), ("to", after.point),
            ("events", J.object([
                ("total", J.int(after.seq - before.seq)),
                ("byType", J.object(EventType.choices.compactMap { t in byType[t].map { (t.rawValue, J.int($0)) } })),
                ("byActor", J.object(byActor.keys.sorted().map { ($0, J.int(byActor[$0] ?? 0)) })),
            ])),
            ("changes", J.object(changes)),
        ])
    }

    /// `[{"username", "before", "after"}]` for every account whose answer differs, by username; null on the
    /// side where the account is not there (not yet registered, deleted, or not a customer).
    private static func changed(_ before: [String: JSONValue], _ after: [String: JSONValue],
                                same: (JSONValue?, JSONValue?) -> Bool = { $0 == $1 }) -> JSONValue {
        let names = Set(before.keys).union(after.keys).sorted().filter { !same(before[$0], after[$0]) }
        return J.array(names.map { name in
            J.object([("username", J.string(name)), ("before", before[name] ?? .null), ("after", after[name] ?? .null)])
        })
    }

    /// Goals are unchanged when their metrics are, or when neither side shows any (a new month, or a new
    /// account, with nothing to show is not a change of goals).
    private static func sameGoals(_ before: JSONValue?, _ after: JSONValue?) -> Bool {
        func metrics(_ goals: JSONValue?) -> JSONValue {
            if case .object(let o)? = goals, let m = o["metrics"] { return m }
            return .array([])
        }
        if metrics(before) == .array([]) && metrics(after) == .array([]) { return true }
        return before == after
    }
}
