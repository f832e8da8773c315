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

    /// Drops the span's pages from the resident set, widened to the 2 MiB around it within `bounds` (the map,
    /// or its pages in use: a damaged record can point anywhere), and starts a new span. Where the page cache
    /// holds the file in large folios, a fault maps the whole folio around the page read (up to 2 MiB with
    /// transparent huge pages), and a drop of part of it leaves the rest mapped (docs/VERIFY-SPEED.md, "Peak
    /// memory whatever the page cache holds").
    mutating func release(within bounds: (start: UInt, end: UInt)) {
        defer { self = MappedSpan() }
        // An empty span (nothing read since the last release) has `low` at `UInt.max`.
        guard low < high else { return }
        let folio = UInt(MappedSpan.largestFolio)
        let first = max(bounds.start, low & ~(folio - 1))
        let end = min(bounds.end, high > UInt.max - folio ? high : (high + folio - 1) & ~(folio - 1))
        // The map's bounds are whole pages; a span outside them leaves nothing to drop.
        guard first < end, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        // Fails only for a range that is not mapped, which leaves nothing to release.
        try? MemoryMap.advise(start, count: Int(end - first), .dontNeed)
    }

    /// The most a fault maps of a file's large folio: a huge page's 2 MiB (x86-64, arm64 with 4 KiB pages).
    static let largestFolio = 2 << 20
}
