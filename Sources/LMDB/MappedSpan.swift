internal import SystemCalls

/// The span of the memory map that a transaction has read since it last let go of it
/// (`Transaction.releaseReadPages`).
///
/// LMDB reads by mapping the store, so every page a scan passes counts in the process's resident set: reading
/// a million events would show the whole log as the process's memory. `release()` drops the pages of the
/// span from the resident set. They stay in the kernel's page cache (changed ones are still written back:
/// the map is shared), and a later read maps them again, so nothing is lost and any transaction may go on.
///
/// The corresponding C function is `madvise(MADV_DONTNEED)` (LMDB does not tell where its map begins, so
/// the span is made from the values read).
struct MappedSpan {
    private var low = UInt.max
    private var high: UInt = 0

    init() {}

    /// Adds the pages under `bytes` (a value read from the map) to the span.
    mutating func include(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let start = UInt(bitPattern: base)
        low = min(low, start)
        high = max(high, start + UInt(bytes.count))
    }

    /// Drops the span's whole pages from the resident set and starts a new span; with `bounds`, only the
    /// part of the span inside them (a damaged record can point anywhere).
    mutating func release(within bounds: (start: UInt, end: UInt)? = nil) {
        defer { self = MappedSpan() }
        if let bounds {
            low = max(low, bounds.start)
            high = min(high, bounds.end)
        }
        // An empty span (nothing read since the last release) has `low` at `UInt.max`, where rounding up
        // would overflow.
        guard low < high else { return }
        let page = UInt(MemoryMap.pageSize)
        let first = (low + page - 1) / page * page
        let end = high / page * page
        guard first < end, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        // Fails only for a range that is not mapped, which leaves nothing to release.
        try? MemoryMap.advise(start, count: Int(end - first), .dontNeed)
    }
}
