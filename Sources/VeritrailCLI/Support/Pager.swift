import Foundation
import SystemCalls

/// Long human output on a terminal goes through a pager, as git's does (cli.md §8): `PAGER`, by default
/// `less -FRX` (which prints a short answer and quits, keeps colours, and leaves the screen as it was).
enum Pager {
    /// `--no-pager` or `--json`, set once the command line is read (`GlobalOptions.validate`).
    nonisolated(unsafe) static var disabled = false

    /// Prints `text` (a human answer, without its final line end): through the pager when stdout is a terminal
    /// and the text has more lines than the terminal has rows, else straight to stdout. A pager that can not
    /// be started is skipped; a pager quit early (`q`) ends the output quietly.
    static func page(_ text: String) {
        let text = Output.stdoutIsTerminal ? LineFit.fit(text, width: Terminal.width) : text
        guard !disabled, Output.stdoutIsTerminal, let command,
              let rows = TerminalDevice.rows(of: .standardOutput), lineCount(text) >= rows else {
            Output.print(text)
            return
        }
        let pager = Process()
        pager.executableURL = URL(fileURLWithPath: "/bin/sh")
        pager.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        pager.environment = environment
        let pipe = Pipe()
        pager.standardInput = pipe
        do {
            try pager.run()
        } catch {
            Output.print(text)
            return
        }
        let input = FileDescriptor(rawValue: pipe.fileHandleForWriting.fileDescriptor)
        // A write the pager no longer reads (it was quit) is not an error of the command's.
        Array((text + "\n").utf8).withUnsafeBytes { _ = try? input.writeAll($0) }
        try? pipe.fileHandleForWriting.close()
        pager.waitUntilExit()
    }

    /// The pager's command line: `PAGER`, else `less -FRX`; none when `PAGER` is empty or `cat`.
    static var command: String? {
        let given = (CurrentProcess.environment("PAGER") ?? "less -FRX").trimmingCharacters(in: .whitespaces)
        return given.isEmpty || given == "cat" ? nil : given
    }

    private static func lineCount(_ text: String) -> Int {
        text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }
}
