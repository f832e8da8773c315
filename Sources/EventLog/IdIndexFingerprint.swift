import LMDB

/// A fingerprint of a multiset of (id, seq) entries, so that `log verify` can check the id index against the
/// log with one walk of each, in whatever order each is stored, instead of one lookup in the index per event.
///
/// It is a polynomial identity test over GF(p), p = 2^61 − 1, with two points drawn at random for each
/// verify: each entry is encoded without ambiguity (the id's length, its bytes seven at a time, the seq's
/// eight stored bytes in two halves) and hashed to `g(e) = Σ word_k · r^k`; the multiset is `Π (z − g(e))`.
/// Two different multisets of n entries of at most L words give different polynomials in (z, r) (their
/// factors differ), so by Schwartz–Zippel they agree at the random point with probability at most
/// n·(L + 1)/p: about 3·10⁻¹¹ for ten million events of short ids. The points are drawn when the check
/// runs, after any damage was done, so no damage can be made to pass it more often than that.
///
/// The index's walk and the log's are fingerprinted with the same `Key`; with as many entries on each side,
/// equal fingerprints say the index maps every event's id to its seq and holds nothing else, as one lookup
/// per event does (when they differ, `LogVerifier` looks each id up to say which event is first affected).
public struct IdIndexFingerprint: Equatable, Sendable {
    /// The two random points of one verify, shared by every fingerprint compared.
    public struct Key: Sendable {
        let r: UInt64
        let z: UInt64

        public init() {
            var generator = SystemRandomNumberGenerator()
            r = UInt64.random(in: 2..<Field.p, using: &generator)
            z = UInt64.random(in: 2..<Field.p, using: &generator)
        }
    }

    private var product: UInt64 = 1
    public private(set) var count = 0

    public init() {}

    /// Adds the entry of `id` (its UTF-8 bytes) and the 8 bytes its seq is stored as in the index.
    @inline(__always)
    public mutating func add(id: UnsafeRawBufferPointer, seqBytes: UnsafeRawBufferPointer, key: Key) {
        var h = UInt64(id.count) &+ 1
        var i = 0
        while i + 7 <= id.count {
            var word: UInt64 = 0
            for j in 0..<7 { word |= UInt64(id[i + j]) << (8 * UInt64(j)) }
            h = Field.add(Field.mul(h, key.r), word)
            i += 7
        }
        if i < id.count {
            var word: UInt64 = 0
            for j in 0..<(id.count - i) { word |= UInt64(id[i + j]) << (8 * UInt64(j)) }
            h = Field.add(Field.mul(h, key.r), word)
        }
        // The seq's bytes, whatever they are (a value of another length is damage too), after a marker of
        // their count, in halves of 32 bits (each < p).
        h = Field.add(Field.mul(h, key.r), UInt64(seqBytes.count) | 1 << 40)
        var j = 0
        while j < seqBytes.count {
            var word: UInt64 = 0
            for k in 0..<min(4, seqBytes.count - j) { word |= UInt64(seqBytes[j + k]) << (8 * UInt64(k)) }
            h = Field.add(Field.mul(h, key.r), word)
            j += 4
        }
        product = Field.mul(product, Field.add(key.z, Field.p - h))
        count += 1
    }

    /// Adds the entry an event gives: its id and its seq as the index stores it (8 bytes big-endian).
    @inline(__always)
    public mutating func add(id: UnsafeRawBufferPointer, seq: UInt64, key: Key) {
        withUnsafeBytes(of: seq.bigEndian) { add(id: id, seqBytes: $0, key: key) }
    }

    /// The fingerprint of both multisets together (a range of the log swept apart from another).
    public mutating func merge(_ other: IdIndexFingerprint) {
        product = Field.mul(product, other.product)
        count += other.count
    }

    /// Arithmetic modulo the Mersenne prime 2^61 − 1, on values below it.
    enum Field {
        static let p: UInt64 = (1 << 61) - 1

        @inline(__always)
        static func reduce(_ x: UInt64) -> UInt64 {
            let y = (x & p) &+ (x >> 61)
            return y >= p ? y &- p : y
        }

        @inline(__always)
        static func mul(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let (high, low) = a.multipliedFullWidth(by: b)
            return reduce((low & p) &+ ((low >> 61) | (high << 3)))
        }

        /// `a` below p, `b` below 2^62.
        @inline(__always)
        static func add(_ a: UInt64, _ b: UInt64) -> UInt64 { reduce(a &+ reduce(b)) }
    }
}

extension LogReader {
    /// The fingerprint of the id index's entries (every one, in key order: one walk of its pages).
    public func idIndexFingerprint(_ key: IdIndexFingerprint.Key) throws -> IdIndexFingerprint {
        var fingerprint = IdIndexFingerprint()
        let cursor = try transaction.cursor(log.ids)
        var entry = try cursor.first()
        while let (id, value) = entry {
            fingerprint.add(id: id, seqBytes: value, key: key)
            if fingerprint.count % PageRelease.logRecords == 0 { transaction.releaseReadPages() }
            entry = try cursor.next()
        }
        transaction.releaseReadPages()
        return fingerprint
    }
}
