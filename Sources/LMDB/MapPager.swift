#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The companion of a large write transaction (`Environment.write(large:)`): on a thread of its own, it
/// faults in the pages just ahead of the writer and drops the pages behind it from the resident set.
///
/// Two costs of writing hundreds of megabytes through a writable map (`MDB_WRITEMAP`) are what it is for:
/// - The first write to each new page of the file takes a page fault that allocates the page (about 10 µs
///   on a virtual machine whose memory is backed lazily). Made here, ahead of time (`MADV_POPULATE_WRITE`),
///   they leave the writing thread a fault of 0.1 µs.
/// - Every page the transaction writes stays mapped until it commits, so the process's resident set would
///   grow by the whole write. Dropping a written page (`MADV_DONTNEED`) loses nothing: the map is a shared
///   mapping of the file, so the page, changes included, stays in the kernel's page cache, is written back
///   as usual, and is mapped again by the next access. LMDB's commit touches every page the transaction
///   dirtied once more (it clears their dirty flags), so while it commits the pager keeps dropping pages.
///
/// The writer reports how far into the map it has written (`Transaction.reserve` does, every 64 KiB; the log
/// reserves every event it appends): LMDB takes new pages from the end of the used part of the file, so the
/// highest address written is where the next pages will come from. When the writer stops reporting for a
/// while, it is writing elsewhere (the end of an import writes the indexes it kept in memory), and the pager
/// drops every page every 10 ms instead. Populated pages the transaction does not use end up zero-filled in
/// the file, at most `ahead` bytes, where the next write transaction takes its pages from.
///
/// Linux only (`Environment` makes none elsewhere); `stop()` must be called before the transaction ends.
final class MapPager: @unchecked Sendable {
    /// How far beyond the writer the pages are faulted in, at most (at first, as far as it has come).
    static let ahead: UInt = 16 << 20
    /// How much below the writer stays mapped: the pages LMDB is filling and the branch pages above them.
    static let behind: UInt = 8 << 20
    /// The most the pager faults in with one system call, so that it reads the writer's news often.
    private static let step: UInt = 1 << 20
    /// How far the writer moves between two drops. Each drop unmaps the pages the writer keeps coming back
    /// to as well (branch pages, the leaves of the id index, which takes ids in any order), and mapping
    /// them again costs the writer a fault each: dropping after every megabyte made an import 10 % slower,
    /// while 16 MiB is as fast as 32 MiB and keeps an import's peak lower (docs/BENCHMARKS.md).
    static let dropEvery: UInt = 16 << 20

    private enum Phase { case writing, committing, stopping }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread = pthread_t()

    /// The map, and the page-aligned address where the pages the transaction allocates begin.
    private let mapStart: UInt, mapEnd: UInt, firstNew: UInt, pageSize: UInt

    // Shared with the writer, under `mutex`.
    private var phase = Phase.writing
    private var frontier: UInt
    /// Whether the pager thread waits for news from the writer (only then is it woken: waking it costs
    /// the writer a system call).
    private var waiting = false

    // The pager thread's own.
    private var populated: UInt
    private var released: UInt = 0
    private var canPopulate = true

    /// Starts the pager for a write transaction over the map `map` whose allocated pages end at `firstNew`.
    init(map: UnsafeRawBufferPointer, firstNew: Int, pageSize: Int) {
        let start = UInt(bitPattern: map.baseAddress)
        self.mapStart = start
        self.mapEnd = start + UInt(map.count)
        self.pageSize = UInt(pageSize)
        self.firstNew = min(start + UInt(firstNew), mapEnd)
        self.frontier = self.firstNew
        self.populated = self.firstNew
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        // The calls stay outside `precondition`, which `-Ounchecked` removes with its argument.
        let initialized = pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(condition, nil) == 0
        precondition(initialized, "can not make the map pager's lock")
        // The thread holds the pager until it returns.
        let retained = Unmanaged.passRetained(self)
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<MapPager>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, retained.toOpaque())
        if started != 0 { retained.release() }
        precondition(started == 0, "can not start the map pager's thread")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// The writer has written up to `address`.
    func advance(to address: UInt) {
        pthread_mutex_lock(mutex)
        if address > frontier {
            frontier = address
            if waiting { pthread_cond_signal(condition) }
        }
        pthread_mutex_unlock(mutex)
    }

    /// The writer is about to commit: from now on, keep dropping every page.
    func committing() { enter(.committing) }

    /// Stops the pager and waits for its thread to end. Call it before the transaction ends for good,
    /// and before the map may move.
    func stop() {
        enter(.stopping)
        pthread_join(thread, nil)
    }

    private func enter(_ next: Phase) {
        pthread_mutex_lock(mutex)
        phase = next
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    private func run() {
        pthread_mutex_lock(mutex)
        while true {
            switch phase {
            case .stopping:
                pthread_mutex_unlock(mutex)
                return
            case .committing:
                pthread_mutex_unlock(mutex)
                drop(from: mapStart, to: mapEnd)
                pthread_mutex_lock(mutex)
                if phase == .committing { wait(microseconds: 250) }
            case .writing:
                let reached = frontier
                pthread_mutex_unlock(mutex)
                let worked = page(around: reached)
                pthread_mutex_lock(mutex)
                guard !worked && phase == .writing && frontier == reached else { continue }
                // Nothing to do: wait for news from the writer. When none comes within 10 ms, it is writing
                // something other than the log (the end of an import writes the indexes it kept in memory),
                // so its pages are not where it reports: drop them all, as while it commits.
                waiting = true
                wait(microseconds: 10_000)
                waiting = false
                if phase == .writing && frontier == reached {
                    pthread_mutex_unlock(mutex)
                    drop(from: mapStart, to: mapEnd)
                    pthread_mutex_lock(mutex)
                }
            }
        }
    }

    /// One step of paging with the writer at `reached`; false when there was nothing to do.
    private func page(around reached: UInt) -> Bool {
        // No further ahead than the writer has come, so that a small write does not fault in (and have
        // written to disk) megabytes it never uses.
        let target = aligned(min(mapEnd, reached + min(MapPager.ahead, reached - firstNew)))
        if canPopulate && populated < target {
            let end = min(target, populated + MapPager.step)
            let start = max(populated, aligned(reached))
            if start < end, let pointer = UnsafeMutableRawPointer(bitPattern: start) {
                #if os(Linux)
                // Kernels before 5.14 do not know the advice; pages are then faulted in by the writer.
                if madvise(pointer, Int(end - start), MADV_POPULATE_WRITE) != 0 && errno == EINVAL { canPopulate = false }
                #else
                canPopulate = false
                #endif
            }
            populated = end
            return true
        }
        let keepFrom = reached > firstNew + MapPager.behind ? aligned(reached - MapPager.behind) : mapStart
        if keepFrom >= released + MapPager.dropEvery {
            drop(from: mapStart, to: keepFrom)
            released = keepFrom
            return true
        }
        return false
    }

    /// Drops the mapped pages of [from, to) from the resident set (nothing is lost: see the type's comment).
    private func drop(from: UInt, to: UInt) {
        let end = aligned(min(to + pageSize - 1, mapEnd))
        guard from < end, let pointer = UnsafeMutableRawPointer(bitPattern: from) else { return }
        // Fails only for a range that is not mapped, which leaves nothing to drop.
        _ = madvise(pointer, Int(end - from), MADV_DONTNEED)
    }

    private func aligned(_ address: UInt) -> UInt { address / pageSize * pageSize }

    /// The `size` bytes from the start of the mapping that holds `address`, from `/proc/self/maps`; nil
    /// when there is none, or off Linux.
    static func mapping(containing address: UnsafeRawPointer, size: Int) -> UnsafeRawBufferPointer? {
        #if os(Linux)
        guard let maps = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(maps) }
        let target = UInt(bitPattern: address)
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            // start-end perms offset dev inode path: the map is a shared mapping of the data file.
            let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            let bounds = fields.first?.split(separator: "-") ?? []
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                  start <= target, target < end else { continue }
            guard fields.count >= 2, fields[1].hasSuffix("s"), end - start >= UInt(size),
                  let base = UnsafeRawPointer(bitPattern: start) else { return nil }
            return UnsafeRawBufferPointer(start: base, count: size)
        }
        return nil
        #else
        return nil
        #endif
    }

    /// Waits on the condition for at most `microseconds` (the mutex held).
    private func wait(microseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var nanoseconds = now.tv_nsec + microseconds * 1000
        var deadline = now
        deadline.tv_sec += nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        _ = pthread_cond_timedwait(condition, mutex, &deadline)
    }
}
