import Domain
import LMDB

/// Short scan ids (cli.md §7): `show` and `report` take any prefix of a scan id of at least
/// `ScanIdPrefix.minimumLength` characters that matches exactly one scan; an exact id always wins.
public enum ScanIdPrefix {
    public static let minimumLength = 4
    /// How many candidates a refusal lists.
    public static let listed = 10

    /// The scan id `given` stands for in `context`: itself when a scan has that id, else the one scan whose id
    /// starts with it. Refused (65) when none does, or when several do (naming them).
    public static func resolve(_ given: String, _ context: QueryContext) throws -> String {
        if try context.models.scanOrdinal(given) != nil { return given }
        guard given.count >= minimumLength else {
            throw QueryError.refused("no such scan \"\(escapedForMessage(given, quotes: true))\" (a short scan id needs at least \(minimumLength) characters)")
        }
        let found = try context.models.scanIds(prefix: given, limit: listed + 1)
        switch found.count {
        case 0: throw QueryError.refused("no such scan \"\(escapedForMessage(given, quotes: true))\"")
        case 1: return found[0]
        default:
            let more = found.count > listed ? ", …" : ""
            throw QueryError.refused("\"\(given)\" is the start of several scan ids: "
                + found.prefix(listed).joined(separator: ", ") + more + "; give more of the id")
        }
    }
}

extension ScanIdPrefix {
    /// The shortest start of `id`, of `minimumLength` characters at least, that `resolve` takes for it: one no
    /// other kept scan id starts with (as `git log --oneline` shortens hashes). The whole id when none is shorter.
    public static func shortest(_ id: String, _ models: Models) throws -> String {
        var length = minimumLength
        while length < id.count {
            let prefix = String(id.prefix(length))
            if try models.scanIds(prefix: prefix, limit: 2).count == 1 { return prefix }
            length += 1
        }
        return id
    }
}

extension Models {
    /// The ids of the kept scans that start with `prefix`, in byte order, at most `limit`: a cursor seek on the
    /// index of scan ids, so a prefix costs a few pages however many scans there are.
    public func scanIds(prefix: String, limit: Int) throws -> [String] {
        let kept = try scanCount()
        var ids: [String] = []
        try tables.forEach(.scanIds, prefix: Array(prefix.utf8)) { key, value in
            // A borrowed list (a replay as of a point) holds later scans too: those are not kept.
            if let ordinal = UInt32(bigEndianBytes: value), ordinal <= kept {
                ids.append(String(decoding: key, as: UTF8.self))
            }
            return ids.count < limit
        }
        return ids
    }
}
