/// Records read once from the model tables and written back by `Models.flush` when changed: a million
/// scans update the same few hundred stats and month records, which are decoded once and encoded once.
struct RecordCache<Key: Hashable, Record> {
    private struct Entry {
        var record: Record
        var changed: Bool
    }

    private var entries: [Key: Entry] = [:]

    subscript(key: Key) -> Record? { entries[key]?.record }

    var keys: Dictionary<Key, some Any>.Keys { entries.keys }

    /// Keeps a record as read from the tables.
    mutating func loaded(_ key: Key, _ record: Record) { entries[key] = Entry(record: record, changed: false) }

    /// Keeps a changed record.
    mutating func put(_ key: Key, _ record: Record) { entries[key] = Entry(record: record, changed: true) }

    /// Changes a kept record in place (one hash lookup, no copy); false when the key is not kept.
    mutating func update(_ key: Key, _ change: (inout Record) -> Void) -> Bool {
        guard let i = entries.index(forKey: key) else { return false }
        entries.values[i].changed = true
        change(&entries.values[i].record)
        return true
    }

    /// Calls `body` with every changed record, and marks them written.
    mutating func writeChanged(_ body: (Key, Record) throws -> Void) rethrows {
        var i = entries.values.startIndex
        while i != entries.values.endIndex {
            if entries.values[i].changed {
                try body(entries.keys[i], entries.values[i].record)
                entries.values[i].changed = false
            }
            i = entries.values.index(after: i)
        }
    }
}

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

/// The first 16 bytes of a code's SHA-256: the key of the `codes` table, held as two words so that a
/// million of them fit in a dictionary without an array each.
struct CodeDigest: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    init(_ code: String) {
        let bytes = Models.digestKey(code, bytes: 16)
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The stored key, big-endian, so that the table's order is the order of `(high, low)`.
    var storedKey: [UInt8] { high.bigEndianBytes + low.bigEndianBytes }

    static func < (a: CodeDigest, b: CodeDigest) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

/// Entries of the index tables that a write transaction adds, held in memory until `Models.flush` and
/// then written in key order: one sorted pass through each B-tree instead of a search from the root for
/// every scan (the codes are random keys, and every actor's scans are a run of their own).
struct PendingIndexes {
    /// Scans per code digest, as the write transaction leaves them (stored counts included).
    var codeCounts: [CodeDigest: UInt32] = [:]
    /// Per actor: the ordinals of the scans it recorded in this transaction, and the `n` of the first one
    /// in `scansByActor`.
    var actorScans: [String: (firstN: UInt32, ordinals: [UInt32])] = [:]

    var isEmpty: Bool { codeCounts.isEmpty && actorScans.isEmpty }

    /// How many codes are held before they are written (about 5 MB).
    static let limit = 131_072
}
