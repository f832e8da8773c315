import VeritrailKit
import SystemCalls

/// Reads passcodes from the terminal with echo off, or one line per prompt from stdin with
/// `--passcode-stdin` (cli.md §4). Never from an argument or the environment.
struct PasscodeReader {
    let fromStdin: Bool

    /// Whether a passcode can be read at all: stdin was chosen, or there is a terminal to ask on.
    var canRead: Bool {
        if fromStdin { return true }
        guard let terminal = try? TerminalDevice.openControlling() else { return false }
        terminal.close()
        return true
    }

    /// Asks `prompt` and returns what was typed, without its line end; nil at the end of input.
    func read(_ prompt: String) throws(Failure) -> String? {
        if fromStdin { return readLine(strippingNewline: true).map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 } }
        guard let terminal = try? TerminalDevice.openControlling() else {
            throw Failure.notAllowed("a passcode is needed and there is no terminal: use --passcode-stdin")
        }
        defer { terminal.close() }
        return TerminalDevice.withoutEcho(terminal) {
            let promptBytes = Array(prompt.utf8)
            promptBytes.withUnsafeBytes { Output.writeAll(terminal.rawValue, $0) }
            var line: [UInt8] = []
            var byte: UInt8 = 0
            // The end of input, or a terminal that can not be read, ends the line as a line end does.
            while (try? withUnsafeMutableBytes(of: &byte) { buffer throws(SystemError) in try terminal.read(into: buffer) }) == 1,
                  byte != 0x0A, byte != 0x0D { line.append(byte) }
            [UInt8(0x0A)].withUnsafeBytes { Output.writeAll(terminal.rawValue, $0) }
            return String(decoding: line, as: UTF8.self)
        }
    }

    /// Asks for a new passcode twice; both must match and be 4–8 digits. On a terminal a short or
    /// mismatched passcode is asked again, up to three times; from stdin the first refusal is final.
    func readNew(for username: String) throws(Failure) -> String {
        let tries = fromStdin ? 1 : 3
        for attempt in 1...tries {
            let retry = attempt < tries
            guard let first = try read("New passcode for \(username) (4–8 digits): ") else {
                throw Failure.refused("no passcode given (expected two lines on stdin)")
            }
            guard VeritrailStore.isWellFormedPasscode(first) else {
                if retry { Output.note("a passcode must be 4–8 digits; try again"); continue }
                throw Failure.refused("a passcode must be 4–8 digits")
            }
            guard let second = try read("Repeat the passcode: ") else { throw Failure.refused("the passcode was not repeated") }
            guard first == second else {
                if retry { Output.note("the two passcodes differ; try again"); continue }
                throw Failure.refused("the two passcodes differ; nothing was changed")
            }
            return first
        }
        throw Failure.refused("no passcode was set")
    }
}

extension PasscodeReader {
    /// The library's `PasscodeProvider`: asks for `actor`'s passcode, or says in the command line's words
    /// why it can not (no terminal and no --passcode-stdin, or nothing typed).
    var provider: PasscodeProvider {
        { actor in
            guard canRead else {
                throw Failure.notAllowed("\(actor) is not unlocked: run `veritrail unlock --as \(actor)` or pass --passcode-stdin")
            }
            guard let passcode = try read("Passcode for \(actor): ") else { throw Failure.notAllowed("no passcode given for \(actor)") }
            return passcode
        }
    }
}
