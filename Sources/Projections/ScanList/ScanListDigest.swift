import Domain

/// An order-free digest of the scan list and its two indexes (`Models.scanListTables`): per table, the
/// wrapping sum of a keyed hash of each entry. A rebuild adds up the entries it recomputes as it goes, and
/// sums the stored tables in one pass on another thread (`init(of:)`); equal digests mean the stored list
/// is the recomputed one, so the rebuild neither reads nor writes the list entry by entry.
///
/// An entry's hash is made of the hashes of its parts (`EntryHash`): a row's key, header and tail; a
/// scanId and its ordinal; an actor, the scan's number among its scans, and its ordinal. The thread that
/// decodes hashes the long parts (a row's header), so the thread applying events hashes only a few bytes.
public struct ScanListDigest: Equatable, Sendable {
    private var scans: UInt64 = 0
    private var scanIds: UInt64 = 0
    private var scansByActor: UInt64 = 0

    public init() {}

    /// The digest of the stored tables, from one pass over each; nil when a lookup of a key would not find
    /// it where the pass does (`StoredTables.forEachReachableEntry`): a list whose entries sum right but that
    /// lookups can not read is not the log's either.
    public init?(of tables: StoredTables) throws {
        let reachable = try tables.forEachReachableEntry(.scans) { key, value in
            let header = try ScanRowHeader(value, reportsThrough: .max)
            scans &+= ScanListDigest.row(key: EntryHash.of(key), header: EntryHash.of(value[..<header.end]),
                                         tail: EntryHash.of(value[header.end...]))
            return true
        } && tables.forEachReachableEntry(.scanIds) { key, value in
            scanIds &+= ScanListDigest.scanId(EntryHash.of(key), ordinal: EntryHash.of(value))
            return true
        } && tables.forEachReachableEntry(.scansByActor) { key, value in
            guard key.count >= 5 else { throw FieldError(path: "scansByActor", rule: "damaged key") }
            scansByActor &+= ScanListDigest.actorScan(actor: EntryHash.of(key[..<(key.count - 5)]),
                                                      n: EntryHash.of(key[(key.count - 4)...]), ordinal: EntryHash.of(value))
            return true
        }
        if !reachable { return nil }
    }

    /// Adds a row of the scan list, from the hashes of its parts.
    mutating func addRow(key: UInt64, header: UInt64, tail: UInt64) {
        scans &+= ScanListDigest.row(key: key, header: header, tail: tail)
    }

    /// Takes out a row added before (a scan's row before its report).
    mutating func removeRow(key: UInt64, header: UInt64, tail: UInt64) {
        scans &-= ScanListDigest.row(key: key, header: header, tail: tail)
    }

    mutating func addScanId(_ scanId: UInt64, ordinal: UInt64) {
        scanIds &+= ScanListDigest.scanId(scanId, ordinal: ordinal)
    }

    mutating func addActorScan(actor: UInt64, n: UInt64, ordinal: UInt64) {
        scansByActor &+= ScanListDigest.actorScan(actor: actor, n: n, ordinal: ordinal)
    }

    private static func row(key: UInt64, header: UInt64, tail: UInt64) -> UInt64 {
        EntryHash.combine(EntryHash.combine(key, header), tail)
    }

    private static func scanId(_ scanId: UInt64, ordinal: UInt64) -> UInt64 { EntryHash.combine(scanId, ordinal) }

    private static func actorScan(actor: UInt64, n: UInt64, ordinal: UInt64) -> UInt64 {
        EntryHash.combine(EntryHash.combine(actor, n), ordinal)
    }
}

/// A fast keyed 64-bit hash of bytes, for `ScanListDigest`: the wyhash construction (each 16 bytes folded
/// in by a 128-bit multiply with fixed constants), under a seed drawn at random for each process, so stored
/// tables that differ from the recomputed ones sum to the same digest only by a chance of about 2⁻⁶⁴, and
/// the seed is not known ahead to anyone shaping damage to fit. It is not a cryptographic MAC; nothing in
/// the read models is (the hash chain is what proves the log unaltered, and the models are made from it).
/// Swift's `Hasher` (SipHash) did the same job at a fifth of the speed, which a million rows notice.
enum EntryHash {
    private static let seed = UInt64.random(in: .min ... .max)
    private static let secret0: UInt64 = 0xa076_1d64_78bd_642f
    private static let secret1: UInt64 = 0xe703_7ed1_a0b4_28db

    /// The hash of `bytes`.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 { of(bytes, seed: seed) }

    /// The hash of `bytes` under `seed` (a fixed one: a stored check, `SealedValue`).
    static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let n = bytes.count
        var s = seed ^ mix(seed ^ secret0, secret1)
        var a: UInt64 = 0, b: UInt64 = 0
        func word(_ i: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }
        func half(_ i: Int) -> UInt64 { UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self))) }
        if n <= 16 {
            if n >= 4 {
                let step = (n >> 3) << 2
                a = half(0) << 32 | half(step)
                b = half(n - 4) << 32 | half(n - 4 - step)
            } else if n > 0 {
                a = UInt64(bytes[0]) << 16 | UInt64(bytes[n >> 1]) << 8 | UInt64(bytes[n - 1])
            }
        } else {
            var i = 0
            while n - i > 16 {
                s = mix(word(i) ^ secret1, word(i + 8) ^ s)
                i += 16
            }
            a = word(n - 16)
            b = word(n - 8)
        }
        return mix(secret1 ^ UInt64(n), mix(a ^ secret1, b ^ s))
    }

    static func of(_ bytes: Slice<UnsafeRawBufferPointer>) -> UInt64 { of(UnsafeRawBufferPointer(rebasing: bytes)) }

    static func of(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { of($0) } }

    static func of(_ value: UInt32) -> UInt64 { withUnsafeBytes(of: value.bigEndian) { of($0) } }

    /// The hash of a code's stored key (`CodeDigest.storedKey`).
    static func of(_ code: CodeDigest) -> UInt64 { withUnsafeBytes(of: (code.high.bigEndian, code.low.bigEndian)) { of($0) } }

    /// Two hashes as one; the order counts.
    static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 { mix(a ^ secret0, b ^ secret1 ^ seed) }

    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
