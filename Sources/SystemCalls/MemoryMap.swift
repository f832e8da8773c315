public import Glibc

/// Calls on the process's memory maps: LMDB's map of the store, and files read through a map.
public enum MemoryMap {
    /// What the kernel is told of a range of a map.
    public struct Advice: Sendable {
        @usableFromInline let rawValue: Int32
        @usableFromInline init(_ rawValue: Int32) { self.rawValue = rawValue }

        /// Drop the pages from the process's resident set. For a shared map of a file nothing is lost: the
        /// pages, changes included, stay in the page cache and are mapped again by the next access.
        /// (`MADV_DONTNEED`)
        public static let dontNeed = Advice(Int32(MADV_DONTNEED))
        /// Fault the pages in for writing now, ahead of the writer. Kernels before 5.14 refuse it with
        /// `Errno.invalidArgument`. (`MADV_POPULATE_WRITE`)
        public static let populateWrite = Advice(Int32(MADV_POPULATE_WRITE))
        /// The range will be read front to back: read ahead more. (`MADV_SEQUENTIAL`)
        public static let sequential = Advice(Int32(MADV_SEQUENTIAL))
        /// No advice: the kernel reads ahead some, and maps the cached pages around each one touched
        /// (fault-around). (`MADV_NORMAL`)
        public static let normal = Advice(Int32(MADV_NORMAL))
        /// Pages are read at random: no read-ahead, and one fault for each page touched. (`MADV_RANDOM`)
        public static let random = Advice(Int32(MADV_RANDOM))
    }

    /// The size of a memory page in bytes.
    ///
    /// The corresponding C function is `sysconf(_SC_PAGESIZE)`.
    public static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Gives `advice` for the `count` bytes at `start` (page-aligned). Fails only for a range that is not
    /// mapped, or advice the kernel does not know.
    ///
    /// The corresponding C function is `madvise`.
    @inlinable
    public static func advise(_ start: UnsafeMutableRawPointer, count: Int, _ advice: Advice) throws(SystemError) {
        try nothingOrErrno("madvise") { madvise(start, count, advice.rawValue) }
    }

    /// Maps the first `count` bytes of the file `fd` for reading, shared (the page cache's own pages).
    /// Release it with `unmap`.
    ///
    /// The corresponding C function is `mmap`.
    public static func mapForReading(_ fd: FileDescriptor, count: Int) throws(SystemError) -> UnsafeRawBufferPointer {
        guard let base = mmap(nil, count, PROT_READ, MAP_SHARED, fd.rawValue, 0), base != MAP_FAILED else {
            throw SystemError("mmap", errno: .current)
        }
        return UnsafeRawBufferPointer(start: base, count: count)
    }

    /// Removes a map made by `mapForReading`. Fails only for a range that is not mapped, which leaves
    /// nothing to remove, so its result is not reported.
    ///
    /// The corresponding C function is `munmap`.
    public static func unmap(_ map: UnsafeRawBufferPointer) {
        guard let base = map.baseAddress else { return }
        _ = munmap(UnsafeMutableRawPointer(mutating: base), map.count)
    }

    /// Puts fresh zero-filled memory, readable and writable and of this process alone, in place of the `count`
    /// bytes at `start` (whole pages of a map): what `LMDB.MapFaults` puts where a data file cut shorter under its
    /// map no longer has pages. False when the kernel refuses. Async-signal-safe.
    ///
    /// The corresponding C function is `mmap` with `MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS`.
    @inlinable @inline(__always)
    public static func replaceWithZeros(_ start: UInt, count: Int) -> Bool {
        guard let address = UnsafeMutableRawPointer(bitPattern: start) else { return false }
        let placed = mmap(address, count, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        return placed != nil && placed != MAP_FAILED
    }

    /// The `size` bytes from the start of the shared mapping that holds `address`, read from
    /// `/proc/self/maps`; nil when the mapping is not shared or smaller, or can not be found (off Linux).
    /// LMDB tells where its map begins only for a fixed map, and this is how its pager finds it.
    ///
    /// The corresponding C functions are `fopen`, `fgets` and `fclose` on `/proc/self/maps`.
    public static func sharedMapping(containing address: UnsafeRawPointer, size: Int) -> UnsafeRawBufferPointer? {
        guard let maps = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(maps) }
        let target = UInt(bitPattern: address)
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            // start-end perms offset dev inode path: the map is a shared mapping ("rw-s") of the data file.
            let text = line.withUnsafeBytes { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            let bounds = fields.first?.split(separator: "-") ?? []
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                  start <= target, target < end else { continue }
            guard fields.count >= 2, fields[1].hasSuffix("s"), end - start >= UInt(size),
                  let base = UnsafeRawPointer(bitPattern: start) else { return nil }
            return UnsafeRawBufferPointer(start: base, count: size)
        }
        return nil
    }
}

/// The C library's byte search, vectorised: faster than a Swift loop over long spans (a search of every
/// scan's text), where a few bytes are compared in Swift instead (`bytesEqual` in StrictJSON).
public enum ByteSearch {
    /// The offset of the first `byte` in `span`, or nil.
    ///
    /// The corresponding C function is `memchr`.
    @inlinable @inline(__always)
    public static func firstIndex(of byte: UInt8, in span: UnsafeRawBufferPointer) -> Int? {
        guard let base = span.baseAddress, let hit = memchr(base, Int32(byte), span.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// The offset of the first place in `span` that holds `needle` (not empty), or nil: `memchr` finds
    /// each place of its first byte, and its last byte then the rest are compared (glibc's `memmem` is not
    /// declared to Swift without `_GNU_SOURCE`).
    @inlinable
    public static func firstIndex(of needle: UnsafeRawBufferPointer, in span: UnsafeRawBufferPointer) -> Int? {
        guard !needle.isEmpty, needle.count <= span.count, let base = span.baseAddress, let n = needle.baseAddress else { return nil }
        let first = needle[0], tail = needle.count - 1, last = needle[tail]
        let lastStart = span.count - needle.count
        var offset = 0
        while offset <= lastStart {
            guard let hit = firstIndex(of: first, in: UnsafeRawBufferPointer(start: base + offset, count: lastStart - offset + 1)) else { return nil }
            let at = offset + hit
            if span[at + tail] == last && (tail < 2 || equal(base + at + 1, n + 1, count: tail - 1)) { return at }
            offset = at + 1
        }
        return nil
    }

    /// Whether the `count` bytes at `a` and at `b` are the same.
    ///
    /// The corresponding C function is `memcmp`.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }

    /// How the `count` bytes at `a` sort against those at `b`, as unsigned bytes: negative, 0 or positive.
    ///
    /// The corresponding C function is `memcmp`.
    @inlinable @inline(__always)
    public static func order(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Int {
        Int(memcmp(a, b, count))
    }
}
