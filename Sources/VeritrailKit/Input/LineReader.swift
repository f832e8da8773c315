import EventLog
import LMDB
#if canImport(Glibc)
import Glibc
#endif

/// Reads NDJSON input line by line (an import, a batch of scans). Lines end in `\n`; a `\r` before it is
/// dropped.
///
/// The input is mapped and its lines are handed out in place: no copy into a buffer, none from the kernel.
/// The pages read are dropped from the process as it goes (every `PageRelease.inputBytes`), so a file of
/// any size streams through in little memory; they stay in the page cache. Input that can not be mapped (a
/// pipe) is first spooled to an unlinked temporary file, and checked as it streams in (`InputCheck`), so
/// that endless or binary input is refused at once. No line longer than `InputCheck.maxLineBytes` is
/// searched for its end. Like any mapped file, the input must not be cut short while it is read.
///
/// It can start over (`rewind`), because a write transaction runs its body again when the store grows.
///
/// The system calls here (open, read, write, mkstemp, fstat, mmap, madvise, munmap) are to move to the
/// system-calls target.
final class LineReader {
    private var fd: Int32
    private var ownsDescriptor: Bool
    /// What a refusal calls the input: its path, or `the input` for a descriptor.
    private let name: String
    /// The whole input, mapped read-only; nil when it is empty.
    private var map: UnsafeRawBufferPointer?
    /// Where the next line starts.
    private var position = 0
    /// How far the pages read have been dropped from the process.
    private var dropped = 0
    /// The number of the last line returned (1-based).
    private(set) var lineNumber = 0
    /// How many bytes of the input have been read so far.
    private(set) var bytesRead = 0

    /// The size of the input in bytes (of a pipe's, once spooled).
    var size: Int { map?.count ?? 0 }

    /// Whether a write of this input is paged (`Store.write(large:)`): faster for a large input, and its
    /// written pages do not stay in the process's resident set. An empty map is taken as large too.
    var isLarge: Bool { size == 0 || size >= 1 << 20 }

    /// Opens `path`.
    convenience init(path: String) throws(VeritrailError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unknown("can not read \(path): \(String(cString: strerror(errno)))", cause: nil) }
        try self.init(fd, owning: true, name: path)
    }

    /// Reads `fd` (from its start when it is a regular file), which stays open.
    convenience init(fileDescriptor fd: Int32) throws(VeritrailError) {
        try self.init(fd, owning: false, name: "the input")
    }

    private init(_ fd: Int32, owning: Bool, name: String) throws(VeritrailError) {
        self.fd = fd
        ownsDescriptor = owning
        self.name = name
        var info = stat()
        if fstat(fd, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG { try spool() }
        guard fstat(self.fd, &info) == 0, info.st_size > 0 else { return }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, self.fd, 0), base != MAP_FAILED else {
            throw .unknown("can not read \(name): \(String(cString: strerror(errno)))", cause: nil)
        }
        _ = madvise(base, size, MADV_SEQUENTIAL)
        map = UnsafeRawBufferPointer(start: base, count: size)
    }

    /// Copies the input that is not a regular file to an unlinked temporary file and reads from that instead.
    private func spool() throws(VeritrailError) {
        var template = Array("/tmp/veritrail-input-XXXXXX".utf8CString)
        let copy = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard copy >= 0 else { throw .unknown("can not buffer the input: \(String(cString: strerror(errno)))", cause: nil) }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        defer { if fd != copy { close(copy) } }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var check = InputCheck()
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unknown("can not read the input: \(String(cString: strerror(errno)))", cause: nil) }
            if n == 0 { break }
            let failure: VeritrailError? = chunk.withUnsafeBytes { bytes in
                let read = UnsafeRawBufferPointer(rebasing: bytes[0..<n])
                do throws(VeritrailError) { try check.check(read) } catch { return error }
                guard LineReader.writeAll(copy, read) else {
                    return .storeFailure(underlying: StoreError("can not buffer the input in /tmp: \(String(cString: strerror(errno)))"))
                }
                return nil
            }
            if let failure { throw failure }
        }
        try check.finish()
        if ownsDescriptor { close(fd) }
        fd = copy
        ownsDescriptor = true
    }

    /// Starts again from the first line.
    func rewind() {
        position = 0
        dropped = 0
        lineNumber = 0
        bytesRead = 0
    }

    deinit {
        if let map, let base = map.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), map.count) }
        if ownsDescriptor { close(fd) }
    }

    /// Calls `body` with the next line's bytes (without its line end), or returns false at the end. The
    /// bytes live only for the call.
    func next(_ body: (UnsafeRawBufferPointer) throws(VeritrailError) -> Void) throws(VeritrailError) -> Bool {
        guard let map, position < map.count, let base = map.baseAddress else { return false }
        let lineEnd: Int
        // The search for the line's end stops past the longest line accepted: a file of gigabytes without a
        // line end is refused after reading one MiB of it.
        let searched = min(map.count - position, InputCheck.maxLineBytes + 2)
        if let newline = memchr(base + position, 0x0A, searched) {
            lineEnd = UnsafeRawPointer(newline) - base
        } else if searched == map.count - position {
            lineEnd = map.count
        } else {
            throw .malformed("the line is longer than \(InputCheck.maxLineBytes >> 20) MiB, far more than any event; nothing was imported",
                             line: lineNumber + 1)
        }
        var end = lineEnd
        if end > position && map[end - 1] == 0x0D { end -= 1 }
        lineNumber += 1
        bytesRead = min(lineEnd + 1, map.count)
        try body(UnsafeRawBufferPointer(rebasing: map[position..<end]))
        position = lineEnd + 1
        if position - dropped >= PageRelease.inputBytes { dropRead() }
        return true
    }

    /// Writes all of `bytes` to `fd`; false on an error (`errno` says which).
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Drops the whole pages before the next line from the process (not from the page cache).
    private func dropRead() {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let through = position / page * page
        guard through > dropped, let base = map?.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + dropped), through - dropped, MADV_DONTNEED)
        dropped = through
    }
}

/// Whether a line is empty or only JSON white space (space, tab, CR): such lines are skipped.
func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
}
