/// The counts a write holds per code (`CodeCounts`), by digest: a table of open addressing on the digest's
/// low word, at most half full.
///
/// Why not a `Dictionary`: a digest is the start of a SHA-256, so its low bits are a hash already, while a
/// dictionary hashed its 16 bytes again with the standard library's seeded SipHash, and grew from empty
/// after each write of the held codes: a tenth of a rebuild's CPU at a million events (`perf`,
/// docs/BULK.md). A slot holds the digest and its count side by side, so that a lookup at random reads one
/// cache line.
struct HeldCodes: Sendable {
    private struct Slot {
        var high: UInt64
        var low: UInt64
        /// 0 in an empty slot (a count held is at least 1).
        var count: UInt32
    }

    private static let empty = Slot(high: 0, low: 0, count: 0)
    /// Small at first: every query and every served request makes models, and with them a table that most of
    /// them never fill (4,096 slots zeroed were 5 % of a server's CPU answering `GET /v1/stats`).
    private var slots = Array(repeating: HeldCodes.empty, count: 16)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The count held for `digest`, if any.
    subscript(digest: CodeDigest) -> UInt32? {
        let count = slots[slot(of: digest)].count
        return count == 0 ? nil : count
    }

    /// Holds `value` (at least 1) as the count of `digest`.
    mutating func set(_ digest: CodeDigest, to value: UInt32) {
        precondition(value > 0, "a held count is at least 1")
        if 2 * (count + 1) > slots.count { grow() }
        let i = slot(of: digest)
        if slots[i].count == 0 { count += 1 }
        slots[i] = Slot(high: digest.high, low: digest.low, count: value)
    }

    /// Calls `body` with every digest held and its count, in no order.
    func forEach(_ body: (CodeDigest, UInt32) -> Void) {
        for slot in slots where slot.count != 0 { body(CodeDigest(high: slot.high, low: slot.low), slot.count) }
    }

    /// Every digest held with its count, in the digests' order; the table is left empty, and small: it is
    /// let go of before the sort, so that it is not held beside the sorted copy and what is written from it.
    mutating func takeSorted() -> [(key: CodeDigest, value: UInt32)] {
        var taken: [(key: CodeDigest, value: UInt32)] = []
        taken.reserveCapacity(count)
        for slot in slots where slot.count != 0 { taken.append((CodeDigest(high: slot.high, low: slot.low), slot.count)) }
        self = HeldCodes()
        taken.sort { $0.key < $1.key }
        return taken
    }

    /// The slot that holds `digest`, or the empty one where it would go.
    private func slot(of digest: CodeDigest) -> Int {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: digest.low) & mask
        while slots[i].count != 0 && (slots[i].high != digest.high || slots[i].low != digest.low) { i = (i + 1) & mask }
        return i
    }

    /// Twice the slots, every digest held placed again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: HeldCodes.empty, count: 2 * old.count)
        count = 0
        for slot in old where slot.count != 0 { set(CodeDigest(high: slot.high, low: slot.low), to: slot.count) }
    }
}
