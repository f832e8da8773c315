import LMDB
import EventLog

/// The first 16 bytes of a code's SHA-256: the key of the `codes` table, held as two words so that a
/// million of them fit in a table (`HeldCodes`) without an array each.
struct CodeDigest: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    /// The digest of a code given as its UTF-8 bytes.
    init(utf8 code: UnsafeRawBufferPointer) {
        var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digest) { out in
            PrefixedSHA256.hash(prefix: UnsafeRawBufferPointer(start: nil, count: 0), code, into: out.baseAddress!)
        }
        (high, low) = (UInt64(bigEndian: digest.0), UInt64(bigEndian: digest.1))
    }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The digest a stored key holds (`storedKey`).
    init(storedKey bytes: UnsafeRawBufferPointer) {
        high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    /// The stored key, big-endian, so that the table's order is the order of `(high, low)`.
    var storedKey: [UInt8] {
        var key: [UInt8] = []
        appendStoredKey(to: &key)
        return key
    }

    func appendStoredKey(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { bytes.append(contentsOf: $0) }
    }

    static func < (a: CodeDigest, b: CodeDigest) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

/// The `scansByActor` entries that a write transaction adds, held in memory until `Models.flush` or until
/// `limit` are held, and then written in key order: every actor's scans are a run of their own, written in
/// one sorted pass instead of a search from the root for every scan.
struct PendingIndexes {
    /// Per actor: the ordinals of the scans it recorded in this transaction, and the `n` of the first one
    /// in `scansByActor`.
    private(set) var actorScans: [String: (firstN: UInt32, ordinals: [UInt32])] = [:]
    /// How many entries are held.
    private(set) var count = 0

    /// How many entries are held before they are written (4 bytes each, ~30 while written). They were
    /// written with the held codes (`CodeCounts.limit`), which a batch of one actor's scans whose codes
    /// repeat never fills: it held every entry to its end, and a 5,000,000-row batch wrote them from 150 MB
    /// of held ordinals and sorted entries.
    static let limit = 131_072

    var isEmpty: Bool { actorScans.isEmpty }
    var isFull: Bool { count >= PendingIndexes.limit }

    /// Holds `ordinal` as `actor`'s `n`-th scan, the next after those held for it.
    mutating func add(actor: String, _ n: UInt32, ordinal: UInt32) {
        actorScans[actor, default: (firstN: n, ordinals: [])].ordinals.append(ordinal)
        count += 1
    }

    /// The ordinal of `actor`'s `n`-th scan, when it is held here.
    func ordinal(actor: String, _ n: UInt32) -> UInt32? {
        guard let added = actorScans[actor], n >= added.firstN, n - added.firstN < added.ordinals.count else { return nil }
        return added.ordinals[Int(n - added.firstN)]
    }

    /// Writes the held entries to `tables`, in key order.
    func write(to tables: any ModelTables) throws {
        for (actor, added) in actorScans.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            var entries = SortedEntries(keyWidth: actor.utf8.count + 5, valueWidth: 4, capacity: added.ordinals.count)
            for (i, ordinal) in added.ordinals.enumerated() {
                entries.append { bytes in
                    Models.appendActorScanKey(actor, added.firstN + UInt32(i), to: &bytes)
                    ordinal.appendBigEndianBytes(to: &bytes)
                }
            }
            try tables.put(.scansByActor, sorted: entries)
        }
    }
}
