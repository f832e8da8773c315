#if canImport(Glibc)
import Glibc
#endif

/// Reads NDJSON input line by line in 1 MiB chunks, so that a file of any size streams through
/// (cli.md `import FILE|-`). Lines end in `\n`; a `\r` before it is dropped.
///
/// It can start over (`rewind`), because a write transaction runs its body again when the store grows;
/// input that can not seek (a pipe) is first spooled to an unlinked temporary file.
final class LineReader {
    private var fd: Int32
    private var ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
    private var start = 0
    private var atEnd = false
    /// The number of the last line returned (1-based).
    private(set) var lineNumber = 0
    /// How many bytes of the input have been read so far.
    private(set) var bytesRead = 0

    /// Opens `path`, or stdin for `-`.
    init(path: String) throws(Failure) {
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
        } else {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                throw Failure.refused("can not read \(path): \(String(cString: strerror(errno)))")
            }
            ownsDescriptor = true
        }
        if lseek(fd, 0, SEEK_CUR) < 0 { try spool() }
    }

    /// Copies the unseekable input to an unlinked temporary file and reads from that instead.
    private func spool() throws(Failure) {
        var template = Array("/tmp/veritrail-input-XXXXXX".utf8CString)
        let copy = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard copy >= 0 else { throw Failure.refused("can not buffer the input: \(String(cString: strerror(errno)))") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure.refused("can not read the input: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            chunk.withUnsafeBytes { Output.writeAll(copy, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        if ownsDescriptor { close(fd) }
        fd = copy
        ownsDescriptor = true
        lseek(fd, 0, SEEK_SET)
    }

    /// The size of the input in bytes.
    var size: Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Starts again from the first line.
    func rewind() {
        lseek(fd, 0, SEEK_SET)
        buffer.removeAll(keepingCapacity: true)
        start = 0
        atEnd = false
        lineNumber = 0
        bytesRead = 0
    }

    deinit {
        if ownsDescriptor { close(fd) }
        chunk.deallocate()
    }

    /// Calls `body` with the next line's bytes (without its line end), or returns false at the end.
    func next(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                lineNumber += 1
                try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
                start = newline + 1
                return true
            }
            if atEnd {
                guard start < buffer.count else { return false }
                var end = buffer.count
                if buffer[end - 1] == 0x0D { end -= 1 }
                lineNumber += 1
                try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
                start = buffer.count
                return true
            }
            try fill()
        }
    }

    /// Reads the next chunk into `chunk` (allocated once) and appends what came to the buffer.
    private func fill() throws {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var n: Int
        repeat {
            n = read(fd, chunk.baseAddress!, chunk.count)
        } while n < 0 && errno == EINTR
        guard n >= 0 else { throw Failure.refused("can not read the input: \(String(cString: strerror(errno)))") }
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        bytesRead += n
        if n == 0 { atEnd = true }
    }
}

/// Whether a line is empty or only JSON white space (space, tab, CR): such lines are skipped.
func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
}
