import Foundation
import Glibc
import SystemCalls
import Testing

/// `FaultAround.turnOff` on real maps of a real file: a read then maps the one page it touches, where Linux
/// otherwise maps the cached pages around it; a map that could not be written is refused with a named error.
struct FaultAroundTests {
    private static let pages = 256

    /// A file of `pages` pages, each filled with its own number, written with `write` (so cached), opened
    /// for reading and writing, and its directory: removed after `body`.
    private func withCachedFile(_ body: (FileDescriptor, String) throws -> Void) throws {
        let directory = try FileSystem.makeTemporaryDirectory("/tmp/faultaround-test-XXXXXX")
        let path = directory + "/data"
        defer { try? FileSystem.unlink(path); try? FileSystem.removeDirectory(directory) }
        let fd = try FileDescriptor.open(path, .readWrite, options: [.create, .closeOnExec], permissions: 0o600)
        defer { fd.close() }
        for page in 0..<FaultAroundTests.pages {
            try fd.writeAll([UInt8](repeating: UInt8(page & 0xFF), count: MemoryMap.pageSize))
        }
        try body(fd, path)
    }

    @Test func aMapWithoutFaultAroundMapsOnlyThePageARead() throws {
        try withCachedFile { fd, _ in
            let count = FaultAroundTests.pages * MemoryMap.pageSize
            let plain = try MemoryMap.mapForReading(fd, count: count)
            defer { MemoryMap.unmap(plain) }
            let sparse = try MemoryMap.mapForReading(fd, count: count)
            defer { MemoryMap.unmap(sparse) }
            let off: FileDescriptor
            do throws(SystemError) {
                off = try FaultAround.turnOff(sparse.baseAddress!, count: count)
            } catch {
                // Linux 6.7 brought what it takes (`UFFD_FEATURE_WP_ASYNC`); before, reads keep fault-around.
                #expect(!linuxHasAsynchronousWriteProtection, "refused: \(error)")
                return
            }
            defer { off.close() }
            let touched = 100 * MemoryMap.pageSize + 7
            #expect(plain[touched] == 100)
            #expect(sparse[touched] == 100)
            // Linux's default fault-around maps the 64 KiB around the page; without it, the page alone.
            #expect(try Smaps.residentBytes(of: sparse) == MemoryMap.pageSize)
            #expect(try Smaps.residentBytes(of: plain) > MemoryMap.pageSize)
        }
    }

    @Test func aMapThatCouldNotBeWrittenIsRefused() throws {
        try withCachedFile { _, path in
            let readOnly = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
            defer { readOnly.close() }
            let count = FaultAroundTests.pages * MemoryMap.pageSize
            let map = try MemoryMap.mapForReading(readOnly, count: count)
            defer { MemoryMap.unmap(map) }
            do throws(SystemError) {
                let off = try FaultAround.turnOff(map.baseAddress!, count: count)
                off.close()
                Issue.record("fault-around turned off for a map of a file opened read-only")
            } catch {
                // Linux registers a shared map only if it could be written (`VM_MAYWRITE`).
                if linuxHasAsynchronousWriteProtection {
                    #expect(error.call == "ioctl(UFFDIO_REGISTER)")
                    #expect(error.errno == Errno(rawValue: EPERM))
                }
            }
            #expect(map[5 * MemoryMap.pageSize] == 5)
        }
    }
}

/// Whether the kernel is Linux 6.7 or later, which brought what `FaultAround` takes (`UFFD_FEATURE_WP_ASYNC`).
let linuxHasAsynchronousWriteProtection = ProcessInfo.processInfo.isOperatingSystemAtLeast(
    OperatingSystemVersion(majorVersion: 6, minorVersion: 7, patchVersion: 0))

/// What `/proc/self/smaps` says of one map.
enum Smaps {
    /// The bytes of the map starting at `map`'s address that are mapped into the process (`Rss`).
    static func residentBytes(of map: UnsafeRawBufferPointer) throws -> Int {
        let start = UInt(bitPattern: map.baseAddress!)
        guard let file = fopen("/proc/self/smaps", "r") else { throw SmapsMissing() }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        var inMap = false
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let dash = text.firstIndex(of: "-"), let from = UInt(text[..<dash], radix: 16) {
                inMap = from == start
            } else if inMap, text.hasPrefix("Rss:") {
                let kilobytes = text.dropFirst(4).split(separator: " ").first.flatMap { Int($0) } ?? -1
                return kilobytes * 1024
            }
        }
        throw SmapsMissing()
    }

    struct SmapsMissing: Error {}
}
