internal import CMalloc
internal import Glibc

/// The C library's allocator, as the process sets it up.
public enum Allocator {
    /// Lets at most one arena a processor (and at least 2) serve the process's threads: glibc's
    /// `M_ARENA_MAX`, 8 a processor when not told. Called before the process starts any thread.
    ///
    /// Why: a thread that allocates while another holds the arena it would use takes an arena of its own,
    /// and what it frees stays there for later allocations instead of going back to the system. A large
    /// write runs several threads that allocate (the search index's worker, the pager, the decoder): on
    /// 2 processors a batch of a million scans peaked at 446–516 MB with glibc's default, at 382 MB with 2
    /// arenas and 360 MB with 1, in about the same time (docs/BULK.md). A served store's event loops, one a
    /// processor, each keep an arena.
    ///
    /// Returns whether the C library took the setting; when it does not know it, its default stays.
    ///
    /// The corresponding C functions are `sysconf(_SC_NPROCESSORS_ONLN)` and `mallopt`.
    @discardableResult
    public static func limitArenasToProcessors() -> Bool {
        let processors = max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return mallopt(M_ARENA_MAX, Int32(clamping: processors)) == 1
    }

    /// Blocks of at least `largeBlock` bytes are mapped apart and given back to the system when freed: glibc's
    /// `M_MMAP_THRESHOLD`, which glibc otherwise raises (to 32 MiB at most) each time such a block is freed.
    /// Called before the process starts any thread.
    ///
    /// Why: past that raise, the large buffers a write makes again and again (a chunk's sets and pieces
    /// as they are stored, the sorted entries of held indexes) come from the heap, and the heap keeps what
    /// they leave between its other blocks. A batch of a million scans kept ~20 MB less (RssAnon 134 →
    /// 108–115 MB), and an import of a million events peaked at 221 MB instead of 239–242, in the same time
    /// within this host's noise (docs/BULK.md).
    ///
    /// Returns whether the C library took the setting.
    @discardableResult
    public static func mapLargeBlocksApart() -> Bool {
        mallopt(M_MMAP_THRESHOLD, Int32(largeBlock)) == 1
    }

    /// The size from which a block is mapped apart (`mapLargeBlocksApart`).
    public static let largeBlock = 256 << 10
}
