/// How often the engine lets go of the mapped pages behind a long read or write: one policy for every
/// module, instead of a constant in each file that reads at length.
///
/// LMDB reads through a memory map, so every page a command passes counts in its resident set until it
/// is released (`Transaction.releaseReadPages`, `MapPager`). Releasing costs a system call and, for a page
/// needed again, a fault; not releasing shows a log larger than memory as the process's memory. These
/// intervals keep the pages held to a few tens of MB (docs/BENCHMARKS.md has the peaks they give).
public enum PageRelease {
    /// Records a read of the log front to back passes between releases (about 25 MB of log).
    public static let logRecords = 65_536
    /// Events a rebuild or a replay applies between releases of the pages it read at random (a report
    /// reads its scan's row and event).
    public static let appliedEvents = 65_536
    /// Rows of the tables read front to back (the scan list and its per-actor index, which a search reads
    /// whole) between releases: rows are larger than index entries, so sooner than the log's records.
    public static let scanRows = 16_384
    /// Bytes of the map a write transaction goes past before it tells its pager (`MapPager`), which
    /// faults in the pages ahead and drops those behind.
    public static let pagerStep: UInt = 65_536
    /// Bytes of a mapped input file (an import's NDJSON, a batch of scans) read front to back between
    /// drops of the pages already read: an input of any size streams through in a few MB (they count in
    /// the peak of an import, whose bar is tight at a million events: docs/BULK.md).
    public static let inputBytes = 4 << 20
    /// Bytes a large write (`MapPager`) goes past between two drops of the pages behind it. Each drop
    /// unmaps the pages the writer keeps coming back to as well (branch pages, the leaves of the id index,
    /// which takes ids in any order), and mapping them again costs the writer a fault each: dropping after
    /// every megabyte made an import 10 % slower, while 16 MiB is as fast as 32 MiB and keeps an import's
    /// peak lower (docs/BENCHMARKS.md).
    static let writtenBytes: UInt = 16 << 20
    /// Bytes below a large write's frontier that a drop leaves mapped: the pages LMDB is filling and the
    /// branch pages above them.
    static let keptBehindWriter: UInt = 8 << 20
    /// Microseconds of waits that found nothing to do (`MapPager.silentWaits`) after which a large write's
    /// pager drops every page of the map if the process holds more than `residentWhileWriting`: the writer
    /// is then writing elsewhere than it reports (the end of an import writes the indexes it kept in memory).
    static let whenWriterIdle = 10_000
    /// Bytes of resident set (`ResidentSet.residentBytes`) under which a large write's pager does not drop
    /// every page of the map, while the writer is silent or commits. Such a drop walks the page tables of the
    /// whole map (12 GB at ten million events), and every page a reader in the same process had mapped takes
    /// a fault again: a rebuild's readers let go of their own pages, and dropping them all every 10 ms as
    /// well cost a 10M rebuild about a tenth of its time (docs/BULK.md, "A rebuild's applying thread, and
    /// what its pager drops"). Measured as the whole resident set, not the mapped pages alone: the
    /// memory bars are on the whole (a 10M import holds about 200 MB of heap, and drops as often as before).
    /// Under issue 12's 200 MB bar for a 1M import, with room for what 10 ms of writing maps.
    static let residentWhileWriting = 160 << 20
    /// Microseconds between two drops of the places a large write's pages go while the writer sends no
    /// news (`MapPager.rangesWhileSilent`): a spill maps its 64 MiB again over tens of milliseconds, so each
    /// drop finds a few MB of it.
    static let whileWriterSilent = 1_000
    /// Microseconds between two drops of every page while a large write commits (LMDB's commit touches
    /// every page the transaction dirtied once more).
    static let whileCommitting = 250

    /// Whether a count that has just grown by `batch` to `count` passed a multiple of `interval`: a loop
    /// that counts in batches releases once per interval, wherever the batches end.
    @inline(__always)
    public static func passed(_ interval: Int, count: UInt64, batch: Int) -> Bool {
        count / UInt64(interval) != (count - UInt64(batch)) / UInt64(interval)
    }
}
