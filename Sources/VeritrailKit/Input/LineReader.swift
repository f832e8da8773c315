import EventLog
import LMDB
import SystemCalls

/// Reads NDJSON input line by line (an import, a batch of scans). Lines end in `\n`; a `\r` before it is
/// dropped.
///
/// The input is mapped and its lines are handed out in place: no copy into a buffer, none from the kernel.
/// The pages read are dropped from the process as it goes (every `PageRelease.inputBytes`), so a file of
/// any size streams through in little memory; they stay in the page cache. Input that can not be mapped (a
/// pipe) is first spooled to an unlinked temporary file in `TMPDIR` (or `/tmp`), and checked as it streams
/// in (`InputCheck`), so that binary input is refused at once; the spool is bounded (`spoolLimit`), so that
/// an endless stream of valid lines is refused too, before it fills the disk. No line longer than `InputCheck.maxLineBytes` is
/// searched for its end. Like any mapped file, the input must not be cut short while it is read.
///
/// It can start over (`rewind`), because a write transaction runs its body again when the store grows.
final class LineReader {
    private var file: FileDescriptor
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
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw .unknown("can not read \(path): \(error.reason)", cause: error)
        }
        try self.init(file, owning: true, name: path)
    }

    /// Reads `fd` (from its start when it is a regular file), which stays open.
    convenience init(fileDescriptor fd: Int32) throws(VeritrailError) {
        try self.init(FileDescriptor(rawValue: fd), owning: false, name: "the input")
    }

    /// Reads `fd` whose lines need not be JSON objects (a scan batch's CSV rows from a pipe).
    convenience init(fileDescriptor fd: Int32, linesAreObjects: Bool) throws(VeritrailError) {
        try self.init(FileDescriptor(rawValue: fd), owning: false, name: "the input", linesAreObjects: linesAreObjects)
    }

    /// Whether a pipe's lines are checked to be JSON objects as they are spooled (`InputCheck`).
    private let linesAreObjects: Bool

    private init(_ file: FileDescriptor, owning: Bool, name: String, linesAreObjects: Bool = true) throws(VeritrailError) {
        self.linesAreObjects = linesAreObjects
        self.file = file
        ownsDescriptor = owning
        self.name = name
        if (try? file.status().isRegularFile) != true { try spool() }
        do {
            let size = try self.file.status().size
            guard size > 0 else { return }
            let map = try MemoryMap.mapForReading(self.file, count: size)
            if let base = map.baseAddress {
                try? MemoryMap.advise(UnsafeMutableRawPointer(mutating: base), count: size, .sequential)
            }
            self.map = map
        } catch {
            throw .unknown("can not read \(name): \(error.reason)", cause: error)
        }
    }

    /// The most a spool may hold: 16 GiB (some forty million events), and never more than three quarters of
    /// the space free where it is kept when it starts, so that a spool leaves room for the store and others.
    static func spoolLimit(freeSpace: Int) -> Int { min(16 << 30, freeSpace / 4 * 3) }

    /// Copies the input that is not a regular file to an unlinked temporary file in the temporary directory
    /// and reads from that instead. Input longer than `spoolLimit` is refused (nothing was imported).
    private func spool() throws(VeritrailError) {
        let directory = FileSystem.temporaryDirectory
        let copy: FileDescriptor
        let limit: Int
        do {
            copy = try FileSystem.makeUnlinkedTemporaryFile(directory + "/veritrail-input-XXXXXX")
            limit = LineReader.spoolLimit(freeSpace: try FileSystem.freeSpace(directory))
        } catch {
            throw .storeFailure(underlying: StoreError("can not buffer the input in \(directory) (TMPDIR): \(error.reason)"))
        }
        var spooled = 0
        defer { if file != copy { copy.close() } }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        var check = InputCheck()
        check.linesAreObjects = linesAreObjects
        while true {
            let n: Int
            do {
                n = try file.read(into: chunk)
            } catch {
                throw .unknown("can not read the input: \(error.reason)", cause: error)
            }
            if n == 0 { break }
            let read = UnsafeRawBufferPointer(rebasing: chunk[0..<n])
            try check.check(read)
            spooled += n
            guard spooled <= limit else {
                // Refused input (exit 65), as a line that can not be an event is.
                throw .unknown("""
                    the input is more than \(limit >> 20) MiB, more than can be kept in \(directory) (TMPDIR) to be read: \
                    nothing was written; give a file instead of a pipe, or set TMPDIR to a directory with more room
                    """, cause: nil)
            }
            do {
                try copy.writeAll(read)
            } catch {
                throw .storeFailure(underlying: StoreError("can not buffer the input in \(directory) (TMPDIR): \(error.reason)"))
            }
        }
        try check.finish()
        if ownsDescriptor { file.close() }
        file = copy
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
        if let map { MemoryMap.unmap(map) }
        if ownsDescriptor { file.close() }
    }

    /// Calls `body` with the next line's bytes (without its line end), or returns false at the end. The
    /// bytes live only for the call.
    func next(_ body: (UnsafeRawBufferPointer) throws(VeritrailError) -> Void) throws(VeritrailError) -> Bool {
        guard let map, position < map.count, let base = map.baseAddress else { return false }
        let lineEnd: Int
        // The search for the line's end stops past the longest line accepted: a file of gigabytes without a
        // line end is refused after reading one MiB of it.
        let searched = min(map.count - position, InputCheck.maxLineBytes + 2)
        if let newline = ByteSearch.firstIndex(of: 0x0A, in: UnsafeRawBufferPointer(start: base + position, count: searched)) {
            lineEnd = position + newline
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

    /// Drops the whole pages before the next line from the process (not from the page cache).
    private func dropRead() {
        let through = position / MemoryMap.pageSize * MemoryMap.pageSize
        guard through > dropped, let base = map?.baseAddress else { return }
        // A failed drop only leaves the pages resident until the map goes: nothing to report.
        try? MemoryMap.advise(UnsafeMutableRawPointer(mutating: base + dropped), count: through - dropped, .dontNeed)
        dropped = through
    }
}

/// Whether a line is empty or only JSON white space (space, tab, CR): such lines are skipped.
func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
}
