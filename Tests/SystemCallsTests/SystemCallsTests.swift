import CMalloc
import Glibc
import SystemCalls
import Testing

/// The wrappers in a temporary directory of each test's own: a failed call throws a `SystemError` that names
/// the C function and carries its errno and the C library's message.
struct SystemCallsTests {
    /// Runs `body` in a new directory, removed afterwards with what the test left in it.
    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = try FileSystem.makeTemporaryDirectory("/tmp/systemcalls-test-XXXXXX")
        defer {
            for name in (try? FileSystem.entries(of: directory)) ?? [] { try? FileSystem.unlink(directory + "/" + name) }
            try? FileSystem.removeDirectory(directory)
        }
        try body(directory)
    }

    @Test func aFailedCallNamesItsFunctionAndErrno() throws {
        try withTemporaryDirectory { directory in
            let missing = directory + "/missing"
            do throws(SystemError) {
                _ = try FileDescriptor.open(missing, .readOnly)
                Issue.record("opened a file that does not exist")
            } catch {
                #expect(error.call == "open")
                #expect(error.errno == .noEntry)
                #expect(error.reason == "No such file or directory")
                #expect(error.description == "open: No such file or directory")
                #expect(Errno.noEntry ~= error)
            }
        }
    }

    @Test func writesReadsAndRenamesAFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/a"
            let out = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: 0o600)
            try out.writeAll(Array("hello".utf8))
            try out.sync()
            try out.lockExclusively()
            #expect(try out.status().size == 5)
            out.close()
            try FileSystem.rename(path, to: directory + "/b")
            #expect(try FileSystem.status(directory + "/b").isRegularFile)
            let input = try FileDescriptor.open(directory + "/b", .readOnly)
            defer { input.close() }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
            defer { buffer.deallocate() }
            let n = try input.read(into: buffer)
            #expect(String(decoding: buffer[..<n], as: UTF8.self) == "hello")
            #expect(try FileSystem.entries(of: directory) == ["b"])
        }
    }

    @Test func aLinkFailsWhereAFileIsAlready() throws {
        try withTemporaryDirectory { directory in
            let file = try FileDescriptor.open(directory + "/a", .writeOnly, options: .create)
            file.close()
            try FileSystem.link(directory + "/a", to: directory + "/b")
            #expect(throws: SystemError("link", errno: .exists)) { try FileSystem.link(directory + "/a", to: directory + "/b") }
            #expect(throws: SystemError("mkdir", errno: .exists)) { try FileSystem.makeDirectory(directory + "/a", permissions: 0o700) }
            try FileSystem.checkAccess(directory + "/a", .read)
        }
    }

    @Test func anUnlinkedTemporaryFileIsUsableAndLeavesNoName() throws {
        try withTemporaryDirectory { directory in
            let file = try FileSystem.makeUnlinkedTemporaryFile(directory + "/spool-XXXXXX")
            defer { file.close() }
            try file.writeAll(Array("spooled".utf8))
            #expect(try file.status().size == 7)
            #expect(try FileSystem.entries(of: directory).isEmpty)
        }
    }

    /// glibc takes the limit of its arenas (`M_ARENA_MAX`), and threads started after it still allocate.
    @Test func theAllocatorTakesItsArenaLimit() throws {
        #expect(Allocator.limitArenasToProcessors())
        let threads = try (0..<4).map { _ in
            try SystemThread.start(stackSize: 1 << 20) {
                for n in 1...200 { precondition([UInt8](repeating: 1, count: n * 1024).count == n * 1024) }
            }
        }
        for thread in threads { thread.join() }
    }

    /// Once told, glibc maps a block of `Allocator.largeBlock` bytes apart, even after a larger block was
    /// freed (which raises its own threshold). In a process of its own, its heap trimmed first, so that no
    /// other test's allocations leave room in the heap to take the block from. (glibc marks a block it mapped
    /// apart in the size word before it: `IS_MMAPPED`, 2.)
    @Test func largeBlocksAreMappedApartOnceTold() async {
        await #expect(processExitsWith: .success) {
            free(malloc(4 << 20))
            guard Allocator.mapLargeBlocksApart() else { exit(2) }
            malloc_trim(0)
            guard let large = malloc(Allocator.largeBlock) else { exit(3) }
            exit(large.load(fromByteOffset: -8, as: UInt.self) & 2 != 0 ? 0 : 1)
        }
    }

    @Test func aThreadRunsAndIsJoined() throws {
        let lock = ConditionLock()
        nonisolated(unsafe) var ran = false
        let thread = try SystemThread.start(stackSize: 1 << 20) {
            lock.lock()
            ran = true
            lock.signal()
            lock.unlock()
        }
        // Waits at most 5 s, so that a thread that never runs fails the test instead of hanging it.
        lock.lock()
        var waits = 0
        while !ran && waits < 5_000 {
            lock.wait(microseconds: 1000)
            waits += 1
        }
        let seen = ran
        lock.unlock()
        #expect(seen)
        if seen { thread.join() }
    }

    @Test func clocksAndTheEnvironment() {
        let before = SystemClock.monotonicNanoseconds()
        #expect(SystemClock.monotonicNanoseconds() >= before)
        // After 2020-01-01.
        #expect(SystemClock.wallMicroseconds() > 1_577_836_800_000_000)
        #expect(CurrentProcess.environment("PATH") != nil)
        #expect(CurrentProcess.environment("VERITRAIL_SURELY_UNSET_VARIABLE") == nil)
        #expect(CurrentProcess.exists(CurrentProcess.id))
        #expect(MemoryMap.pageSize >= 4096)
    }

    @Test func byteSearch() {
        let bytes: [UInt8] = Array("abcabd".utf8)
        bytes.withUnsafeBytes { span in
            #expect(ByteSearch.firstIndex(of: UInt8(ascii: "d"), in: span) == 5)
            #expect(ByteSearch.firstIndex(of: UInt8(ascii: "z"), in: span) == nil)
            #expect(ByteSearch.equal(span.baseAddress!, span.baseAddress! + 3, count: 2))
            #expect(!ByteSearch.equal(span.baseAddress!, span.baseAddress! + 3, count: 3))
        }
    }
}
