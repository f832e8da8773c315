import Glibc
import SystemCalls
import Testing

/// `ResidentSet.mappedFileBytes` and `residentBytes` against memory the test maps and lets go of itself.
/// Other tests run in the same process meanwhile and map and free memory of their own, so the figures are
/// compared with room for what they do, and a check is tried up to five times: it must hold once. A measure
/// that reads the wrong field of `statm` fails every time.
struct ResidentSetTests {
    private static let count = 32 << 20, room = 8 << 20

    /// Whether `attempt`, given `count` bytes of fresh memory mapped with `flags`, holds in one of five tries;
    /// the last try's reason when none does.
    private func holdsOnce(flags: Int32, _ attempt: (UnsafeMutableRawPointer) throws -> String?) throws -> String? {
        var reason: String?
        for _ in 0..<5 {
            let map = try #require(mmap(nil, Self.count, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0))
            try #require(map != MAP_FAILED)
            defer { munmap(map, Self.count) }
            reason = try attempt(map)
            if reason == nil { return nil }
        }
        return reason
    }

    private func touch(_ map: UnsafeMutableRawPointer) {
        for offset in stride(from: 0, to: Self.count, by: MemoryMap.pageSize) { map.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
    }

    @Test func countsSharedPagesAsTheyAreMappedAndLetGo() throws {
        // Shared anonymous memory is shared memory (`RssShmem`), which the measure takes in with files' pages.
        let failure = try holdsOnce(flags: MAP_SHARED) { map in
            let before = try #require(ResidentSet.mappedFileBytes())
            touch(map)
            let touched = try #require(ResidentSet.mappedFileBytes())
            guard touched >= before + Self.count - Self.room else { return "touched: \(before) → \(touched) bytes" }
            try MemoryMap.advise(map, count: Self.count, .dontNeed)
            let dropped = try #require(ResidentSet.mappedFileBytes())
            return dropped <= touched - Self.count + Self.room ? nil : "dropped: \(touched) → \(dropped) bytes"
        }
        #expect(failure == nil)
    }

    /// Private memory counts in the whole resident set (`residentBytes`, which a large write's pager reads),
    /// not in the mapped files' pages: the two measures are two fields of `statm`, not one.
    @Test func countsPrivatePagesInTheWholeResidentSetOnly() throws {
        let failure = try holdsOnce(flags: MAP_PRIVATE) { map in
            let (resident, shared) = (try #require(ResidentSet.residentBytes()), try #require(ResidentSet.mappedFileBytes()))
            touch(map)
            let (residentAfter, sharedAfter) = (try #require(ResidentSet.residentBytes()), try #require(ResidentSet.mappedFileBytes()))
            guard residentAfter >= resident + Self.count - Self.room else { return "resident \(resident) → \(residentAfter) bytes" }
            guard sharedAfter < shared + Self.count - Self.room else { return "shared \(shared) → \(sharedAfter) bytes" }
            return residentAfter >= sharedAfter ? nil : "resident \(residentAfter) below shared \(sharedAfter) bytes"
        }
        #expect(failure == nil)
    }
}
