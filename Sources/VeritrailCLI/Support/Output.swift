import SystemCalls
import VeritrailKit

/// Where commands write: stdout for answers, stderr for errors and prompts (cli.md §1).
enum Output {
    /// Writes `bytes` to stdout, all of them.
    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in writeAll(FileDescriptor.standardOutput.rawValue, buffer) }
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

    /// An error on stderr, `veritrail: …`. Control characters that reached the message from user text are
    /// shown escaped (`\u001b`), so that a message can not move the terminal's cursor or forge a line; the
    /// message's own line breaks stay.
    static func error(_ message: String) {
        let bytes = Array(("veritrail: " + escapedLines(message) + "\n").utf8)
        bytes.withUnsafeBytes { writeAll(FileDescriptor.standardError.rawValue, $0) }
    }

    /// `message` with each line escaped (`Escaped.text`) and its own line breaks kept: a message that quotes
    /// user text (an error, a parse error's echo of what was typed).
    static func escapedLines(_ message: some StringProtocol) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { Escaped.text(String($0)) }.joined(separator: "\n")
    }

    /// A line for the person at the terminal, on stderr (prompts, notes, progress).
    static func note(_ message: String) {
        let bytes = Array((message + "\n").utf8)
        bytes.withUnsafeBytes { writeAll(FileDescriptor.standardError.rawValue, $0) }
    }

    /// A question on stderr, without a line end.
    static func prompt(_ text: String) {
        Array(text.utf8).withUnsafeBytes { writeAll(FileDescriptor.standardError.rawValue, $0) }
    }

    /// Writes all of `buffer` to `fd`. A write that fails ends the command: a closed pipe (`| head`) quietly,
    /// as git does (by SIGPIPE, exit 141), any other error (a full disk, `/dev/full`, an I/O error) with a
    /// message and exit 74, so that a command never reports success for output it could not write.
    /// Writes to stderr (messages, prompts, progress) do not end it: there is nowhere left to say so.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) {
        let descriptor = FileDescriptor(rawValue: fd)
        do {
            try descriptor.writeAll(buffer)
        } catch {
            guard descriptor != .standardError else { return }
            writeFailed(descriptor, error.errno)
        }
    }

    /// Ends the process after a failed write to `fd` (see `writeAll`).
    private static func writeFailed(_ fd: FileDescriptor, _ code: Errno) -> Never {
        if code == .brokenPipe {
            Signals.restoreDefault(.brokenPipe)
            Signals.raise(.brokenPipe)
            CurrentProcess.exit(141)
        }
        let target = fd == .standardOutput ? "the output" : "the output file"
        error("can not write \(target): \(code)")
        CurrentProcess.exit(Failure.storeFailed)
    }

    static var stdoutIsTerminal: Bool { FileDescriptor.standardOutput.isTerminal }
    static var stderrIsTerminal: Bool { FileDescriptor.standardError.isTerminal }
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
