import Crypto
import SystemCalls

/// Random (version 4) UUIDs in lower case: the one way the engine and the library draw an id
/// (`EventID.random()` draws one). The random bytes are read from the kernel (`/dev/urandom`) for as many
/// ids as are asked for at once, not a system call per byte, which was most of the time a batch of scans
/// took.
///
/// A write made under a given event id (`--id`, the retry of a commit that may have failed) draws nothing:
/// its ids come from that id (`init(derivedFrom:purpose:)`), so that the retry builds the very events the
/// first try did, and finds them logged instead of writing them twice.
public struct RandomIDs {
    private var pool: [UInt8] = []
    private var used = 0
    /// How many random bytes one read of the kernel fetches: 16 per id.
    private let poolSize: Int
    /// The write's id and what the ids are for, when they are derived rather than drawn.
    private var derivation: (seed: [UInt8], block: UInt64)?
    /// How many ids are spread in ascending order, and how many were given, for ids drawn for a batch
    /// (`init(derivedFrom:purpose:ascendingOver:)`).
    private var spread: (count: UInt64, given: UInt64)?

    /// A source for `count` ids (or more: it reads again when they are used up).
    public init(count: Int = 4_096) {
        poolSize = 16 * max(count, 1)
        derivation = nil
    }

    /// The same ids for the same `id` and `purpose` every time: SHA-256 over the purpose, the id and a
    /// block counter, 16 bytes an id, in the form of a version 4 UUID. Different purposes (a scan id, a
    /// batch id) give unrelated ids.
    public init(derivedFrom id: String, purpose: String) {
        poolSize = 32
        derivation = (Array("veritrail retry\u{0}\(purpose)\u{0}\(id)".utf8), 0)
    }

    /// `count` ids derived from `id` (`init(derivedFrom:purpose:)`) that come in ascending order, each in its
    /// own `1/count` of the space: the id's first 48 bits are its slot's start plus a random offset in the slot,
    /// its other 74 bits random as any id's. A batch's scan ids are written to the index of scan ids in
    /// the order the batch is read; drawn at random, each row's lookup and insert descended to a random page
    /// of an index that grows with the batch, and the write touched all of it again and again (a 1M-row batch
    /// peaked at ~450 MB, mostly mapped pages). In ascending order the write sweeps the index once, like a
    /// merge. Spread over the whole space, and not counted up from one random start, they keep differing in
    /// their first characters, so a short scan id (`ScanIdPrefix.shortest`) stays as short as a drawn one's.
    /// Past `count` ids, the ids are random.
    public init(derivedFrom id: String, purpose: String, ascendingOver count: Int) {
        self.init(derivedFrom: id, purpose: purpose)
        spread = (UInt64(max(count, 1)), 0)
    }

    /// A random id, or with `eventID` (a write retried under it) the first id derived from it for `purpose`.
    public static func one(for eventID: String?, purpose: String) -> String {
        guard let eventID else { return EventID.random() }
        var ids = RandomIDs(derivedFrom: eventID, purpose: purpose)
        return ids.next()
    }

    /// The next id.
    public mutating func next() -> String {
        if used + 16 > pool.count { refill() }
        var b = Array(pool[used..<used + 16])
        used += 16
        if let (count, given) = spread, given < count {
            let width = (UInt64(1) << 48) / count
            let first = b[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let place = given * width + first % width
            for i in 0..<6 { b[i] = UInt8(truncatingIfNeeded: place >> (40 - 8 * UInt64(i))) }
            spread = (count, given + 1)
        }
        b[6] = b[6] & 0x0F | 0x40
        b[8] = b[8] & 0x3F | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func refill() {
        if let (seed, block) = derivation {
            var hash = SHA256()
            hash.update(data: seed)
            withUnsafeBytes(of: block.bigEndian) { hash.update(bufferPointer: $0) }
            pool = Array(hash.finalize())
            derivation = (seed, block + 1)
            used = 0
            return
        }
        pool = [UInt8](repeating: 0, count: poolSize)
        var filled = 0
        if let random = try? FileDescriptor.open("/dev/urandom", .readOnly, options: .closeOnExec) {
            defer { random.close() }
            while filled < pool.count {
                let n = (try? pool.withUnsafeMutableBytes { buffer throws(SystemError) in
                    try random.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }) ?? 0
                if n > 0 { filled += n } else { break }
            }
        }
        if filled < pool.count {
            // No /dev/urandom (a bare container): the standard generator, a system call at a time.
            var generator = SystemRandomNumberGenerator()
            for i in filled..<pool.count { pool[i] = UInt8.random(in: 0...255, using: &generator) }
        }
        used = 0
    }
}
