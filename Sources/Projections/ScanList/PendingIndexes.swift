import LMDB
import Crypto

/// The first 16 bytes of a code's SHA-256: the key of the `codes` table, held as two words so that a
/// million of them fit in a dictionary without an array each.
struct CodeDigest: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    /// The digest of a code given as its UTF-8 bytes.
    init(utf8 code: UnsafeRawBufferPointer) {
        (high, low) = SHA256.hash(data: code).withUnsafeBytes { d in
            (UInt64(bigEndian: d.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: d.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
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

    /// The ordinal of `actor`'s `n`-th scan, when it is held here.
    func ordinal(actor: String, _ n: UInt32) -> UInt32? {
        guard let added = actorScans[actor], n >= added.firstN, n - added.firstN < added.ordinals.count else { return nil }
        return added.ordinals[Int(n - added.firstN)]
    }

    /// Writes the held entries to `tables`, in key order; returns the codes written, in order.
    func write(to tables: any ModelTables) throws -> [(key: CodeDigest, value: UInt32)] {
        let codes = codeCounts.sorted { $0.key < $1.key }
        var codeEntries = SortedEntries(keyWidth: 16, valueWidth: 4, capacity: codes.count)
        for (digest, count) in codes {
            codeEntries.append { bytes in
                digest.appendStoredKey(to: &bytes)
                count.appendBigEndianBytes(to: &bytes)
            }
        }
        try tables.put(.codes, sorted: codeEntries)
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
        return codes
    }

    /// How many codes are held before they are written (about 5 MB).
    static let limit = 131_072
}
