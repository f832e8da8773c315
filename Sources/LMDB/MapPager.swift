internal import SystemCalls

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
/// highest address written is where the next pages will come from. When the writer stops reporting, it is
/// writing elsewhere: LMDB may be spilling (`spilledBehind`), or the end of an import writing the indexes it
/// kept in memory. The pager then drops the pages where those go every millisecond, and every page every
/// 10 ms when the process holds more than `PageRelease.residentWhileWriting`. Populated pages the
/// transaction does not use end up zero-filled in the file, at most `ahead` bytes, where the next write
/// transaction takes its pages from.
///
/// Linux only (`Environment` makes none elsewhere); `stop()` must be called before the transaction ends.
final class MapPager: @unchecked Sendable {
    /// How far beyond the writer the pages are faulted in, at most (at first, as far as it has come): tens of
    /// milliseconds of writing. What is faulted in counts in the resident set until it is dropped behind the
    /// writer; 16 MiB, before, added to a 1M import's peak and made it no faster (docs/BULK.md).
    static let ahead: UInt = 4 << 20
    /// The most the pager faults in with one system call, so that it reads the writer's news often.
    private static let step: UInt = 1 << 20
    /// How far below the writer's frontier LMDB touches pages again when it spills: a write transaction
    /// holds at most 131,072 dirty pages (`MDB_IDL_UM_MAX`), and when they run out LMDB "spills" the
    /// newest eighth of them, 16,384 pages, clearing each one's dirty flag (with `MDB_WRITEMAP` it writes
    /// nothing else). The pager had dropped those pages, so the spill maps 64 MiB again in a few tens of
    /// milliseconds, while the writer sends no news: the spikes of a large import's resident set
    /// (docs/BULK.md). 64 MiB for the spill, and the 16 MiB the pager may lag behind.
    static let spilledBehind: UInt = 80 << 20

    private enum Phase { case writing, committing, stopping }

    /// Guards the state shared with the writer, and wakes the pager thread.
    private let condition = ConditionLock()
    /// The pager thread, set once it started (nil when it could not: the writer then pages alone).
    private var thread: SystemThread?

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
    /// Waits of `PageRelease.whileWriterSilent` that found nothing to do since the pager last did some. News
    /// from the writer that gives it nothing to do (a few KB further) does not reset them, so that what the
    /// writer writes away from its frontier is dropped whole at least every 10 of them: reset by any news, a
    /// 1M import's peak was up to 192 MB against 178 (docs/BULK.md).
    private var silentWaits = 0

    /// Starts the pager for a write transaction over the map `map` whose allocated pages end at `firstNew`.
    init(map: UnsafeRawBufferPointer, firstNew: Int, pageSize: Int) {
        let start = UInt(bitPattern: map.baseAddress)
        self.mapStart = start
        self.mapEnd = start + UInt(map.count)
        self.pageSize = UInt(pageSize)
        self.firstNew = min(start + UInt(firstNew), mapEnd)
        self.frontier = self.firstNew
        self.populated = self.firstNew
        // The thread holds the pager until it returns.
        let started = try? SystemThread.start { [self] in run() }
        precondition(started != nil, "can not start the map pager's thread")
        thread = started
    }

    /// The writer has written up to `address`.
    func advance(to address: UInt) {
        condition.lock()
        if address > frontier {
            frontier = address
            if waiting { condition.signal() }
        }
        condition.unlock()
    }

    /// The writer is about to commit: from now on, keep dropping every page.
    func committing() { enter(.committing) }

    /// Stops the pager and waits for its thread to end. Call it before the transaction ends for good,
    /// and before the map may move.
    func stop() {
        enter(.stopping)
        thread?.join()
    }

    private func enter(_ next: Phase) {
        condition.lock()
        phase = next
        condition.signal()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            switch phase {
            case .stopping:
                condition.unlock()
                return
            case .committing:
                condition.unlock()
                dropAllIfResidentMuch()
                condition.lock()
                if phase == .committing { condition.wait(microseconds: PageRelease.whileCommitting) }
            case .writing:
                let reached = frontier
                condition.unlock()
                let worked = page(around: reached)
                condition.lock()
                guard !worked && phase == .writing && frontier == reached else {
                    silentWaits = 0
                    continue
                }
                // Nothing to do: wait for news from the writer. While none comes, it is writing elsewhere
                // than it reports: LMDB may be spilling, or the end of an import writing the indexes it kept
                // in memory. Each millisecond the pages where those go are dropped (`dropWhileSilent`), and
                // after 10 waits that found nothing to do (`silentWaits`) every page if the process holds
                // much, as while it commits (`dropAllIfResidentMuch`).
                waiting = true
                condition.wait(microseconds: PageRelease.whileWriterSilent)
                waiting = false
                if phase == .writing && frontier == reached {
                    silentWaits += 1
                    let idle = silentWaits * PageRelease.whileWriterSilent >= PageRelease.whenWriterIdle
                    if idle { silentWaits = 0 }
                    condition.unlock()
                    if idle { dropAllIfResidentMuch() } else { dropWhileSilent(reached: reached) }
                    condition.lock()
                }
            }
        }
    }

    /// Drops every page of the map when the process holds more than `PageRelease.residentWhileWriting` (or
    /// that can not be read): below it, what the writer wrote away from its frontier is not yet worth a walk
    /// of the whole map's page tables, and the readers of the same process (a rebuild's) let go of their own
    /// pages.
    private func dropAllIfResidentMuch() {
        if MapPager.dropsEveryPage(resident: ResidentSet.residentBytes()) { drop(from: mapStart, to: mapEnd) }
    }

    /// Whether a process whose resident set is `resident` bytes (nil: not known) is due a drop of every page.
    static func dropsEveryPage(resident: Int?) -> Bool {
        guard let resident else { return true }
        return resident >= PageRelease.residentWhileWriting
    }

    /// Drops, while the writer sends no news, the places its pages then go (`rangesWhileSilent`).
    private func dropWhileSilent(reached: UInt) {
        let ranges = MapPager.rangesWhileSilent(reached: reached, firstNew: firstNew, populated: populated,
                                                map: mapStart..<mapEnd, pageSize: pageSize)
        for range in ranges { drop(from: range.lowerBound, to: range.upperBound) }
    }

    /// The two places a writer at `reached` that sends no news puts its pages, each a range of tens of MB
    /// whose drop is cheap (a drop of the whole map walks the page tables of all of it: 11 GB at ten million
    /// events): the pages a spill touches again just below it (`spilledBehind`, below the `keptBehindWriter`
    /// bytes it fills), and the new pages past those faulted in ahead for it (an import's indexes, written
    /// at its end in key order). What lies between, the pages it fills and those faulted in for it, stays.
    static func rangesWhileSilent(reached: UInt, firstNew: UInt, populated: UInt, map: Range<UInt>,
                                  pageSize: UInt) -> [Range<UInt>] {
        func aligned(_ address: UInt) -> UInt { address / pageSize * pageSize }
        var ranges: [Range<UInt>] = []
        if reached > firstNew + PageRelease.keptBehindWriter {
            let below = aligned(reached - PageRelease.keptBehindWriter)
            let from = below > map.lowerBound + spilledBehind ? below - spilledBehind : map.lowerBound
            if from < below { ranges.append(from..<below) }
        }
        let past = max(populated, aligned(min(reached + ahead, map.upperBound)))
        if past < map.upperBound { ranges.append(past..<map.upperBound) }
        return ranges
    }

    /// One step of paging with the writer at `reached`; false when there was nothing to do.
    ///
    /// Dropping comes first: a writer that copies tens of MB at once (a group of the search index's sets) runs
    /// ahead of the faults made for it, and while the pager only made those, nothing behind was dropped
    /// (64 MB just behind the writer, mapped, in a 1M import's peak).
    private func page(around reached: UInt) -> Bool {
        let behind = PageRelease.keptBehindWriter
        let keepFrom = reached > firstNew + behind ? aligned(reached - behind) : mapStart
        if keepFrom >= released + PageRelease.writtenBytes {
            drop(from: mapStart, to: keepFrom)
            released = keepFrom
            return true
        }
        // No further ahead than the writer has come, so that a small write does not fault in (and have
        // written to disk) megabytes it never uses.
        let target = aligned(min(mapEnd, reached + min(MapPager.ahead, reached - firstNew)))
        if canPopulate && populated < target {
            let end = min(target, populated + MapPager.step)
            let start = max(populated, aligned(reached))
            if start < end, let pointer = UnsafeMutableRawPointer(bitPattern: start) {
                // Kernels before 5.14 do not know the advice; pages are then faulted in by the writer.
                do {
                    try MemoryMap.advise(pointer, count: Int(end - start), .populateWrite)
                } catch {
                    if error.errno == .invalidArgument { canPopulate = false }
                }
            }
            populated = end
            return true
        }
        return false
    }

    /// Drops the mapped pages of [from, to) from the resident set (nothing is lost: see the type's comment).
    private func drop(from: UInt, to: UInt) {
        let end = aligned(min(to + pageSize - 1, mapEnd))
        guard from < end, let pointer = UnsafeMutableRawPointer(bitPattern: from) else { return }
        // Fails only for a range that is not mapped, which leaves nothing to drop.
        try? MemoryMap.advise(pointer, count: Int(end - from), .dontNeed)
    }

    private func aligned(_ address: UInt) -> UInt { address / pageSize * pageSize }
}
