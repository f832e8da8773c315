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
