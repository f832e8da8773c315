import StrictJSON
#if canImport(Glibc)
import Glibc
#endif

/// Where commands write: stdout for answers, stderr for errors and prompts (cli.md §1).
enum Output {
    /// Writes `bytes` to stdout, all of them.
    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in writeAll(STDOUT_FILENO, buffer) }
    }

    static func print(_ line: String) {
        write(Array((line + "\n").utf8))
    }

    /// One JSON document on stdout, compact, with a line end.
    static func json(_ value: JSONValue) {
        var bytes = canonicalJSON(value)
        bytes.append(0x0A)
        write(bytes)
    }

    static func error(_ message: String) {
        let bytes = Array(("veritrail: " + message + "\n").utf8)
        bytes.withUnsafeBytes { writeAll(STDERR_FILENO, $0) }
    }

    /// A line for the person at the terminal, on stderr (prompts, notes, progress).
    static func note(_ message: String) {
        let bytes = Array((message + "\n").utf8)
        bytes.withUnsafeBytes { writeAll(STDERR_FILENO, $0) }
    }

    /// A question on stderr, without a line end.
    static func prompt(_ text: String) {
        Array(text.utf8).withUnsafeBytes { writeAll(STDERR_FILENO, $0) }
    }

    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

/// A buffered writer for long outputs (`export`, `log tail`): one `write` per 256 KiB, not per line.
final class BufferedOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 18)
    }

    func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 18 { flush() }
    }

    func flush() {
        buffer.withUnsafeBytes { Output.writeAll(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
