import Glibc
import SystemCalls
import Testing

/// `ResidentSet.mappedFileBytes` and `residentBytes` against memory the test maps and lets go of itself.
/// Other tests run in the same process meanwhile, so the figures are compared with room for what they map.
struct ResidentSetTests {
    @Test func countsSharedPagesAsTheyAreMappedAndLetGo() throws {
        let count = 32 << 20, room = 8 << 20
        // Shared anonymous memory is shared memory (`RssShmem`), which the measure takes in with files' pages.
        let map = try #require(mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0))
        #expect(map != MAP_FAILED)
        defer { munmap(map, count) }
        let before = try #require(ResidentSet.mappedFileBytes())
        for offset in stride(from: 0, to: count, by: MemoryMap.pageSize) { map.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        let touched = try #require(ResidentSet.mappedFileBytes())
        #expect(touched >= before + count - room, "\(before) → \(touched) bytes")
        try MemoryMap.advise(map, count: count, .dontNeed)
        let dropped = try #require(ResidentSet.mappedFileBytes())
        #expect(dropped <= touched - count + room, "\(touched) → \(dropped) bytes")
    }

    /// Private memory counts in the whole resident set (`residentBytes`, which a large write's pager reads),
    /// not in the mapped files' pages: the two measures are two fields of `statm`, not one.
    @Test func countsPrivatePagesInTheWholeResidentSetOnly() throws {
        let count = 32 << 20, room = 8 << 20
        let map = try #require(mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(map != MAP_FAILED)
        defer { munmap(map, count) }
        let (resident, shared) = (try #require(ResidentSet.residentBytes()), try #require(ResidentSet.mappedFileBytes()))
        for offset in stride(from: 0, to: count, by: MemoryMap.pageSize) { map.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        let (residentAfter, sharedAfter) = (try #require(ResidentSet.residentBytes()), try #require(ResidentSet.mappedFileBytes()))
        #expect(residentAfter >= resident + count - room, "resident \(resident) → \(residentAfter) bytes")
        #expect(sharedAfter < shared + count - room, "shared \(shared) → \(sharedAfter) bytes")
        #expect(residentAfter >= sharedAfter)
    }
}
