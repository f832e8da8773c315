import LMDB
/// Whose scans a stats record counts.
public enum StatsScope: Hashable, Sendable {
    case all
    case actor(String)

    public init(actor: String?) { self = actor.map(StatsScope.actor) ?? .all }

    /// The key in the `stats` table: "*" for every scan, "@" ++ actor for one actor's.
    var storedKey: [UInt8] {
        switch self {
        case .all: return Array("*".utf8)
        case .actor(let actor): return Array("@".utf8) + Array(actor.utf8)
        }
    }
}

/// One user's month: the key of a `UserMonthRecord`.
struct UserMonthKey: Hashable {
    var username: String
    var month: Int

    /// The key in the `userMonths` table: username ++ 0 ++ month (4 bytes big-endian).
    var storedKey: [UInt8] {
        var key = Array(username.utf8)
        key.append(0)
        UInt32(month).withBigEndianBytes { key.append(contentsOf: $0) }
        return key
    }
}
