import ArgumentParser
import SystemCalls

/// Help and usage messages fitted to the terminal: ArgumentParser wraps the option list but leaves its
/// `USAGE:` line whole, which runs to 250 columns for a command with many options.
enum HelpText {
    /// `message` with every usage line longer than `width` broken between its options (never inside one),
    /// the further lines indented under the first option.
    static func fitted(_ message: String, width: Int) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let text = String(line)
            guard text.count > width, text.hasPrefix("USAGE: ") || text.hasPrefix("Usage: ") else { return text }
            return wrap(text, width: width)
        }.joined(separator: "\n")
    }

    /// Words of `line` split at spaces outside `[ ]` and `< >`, laid out greedily within `width`.
    private static func wrap(_ line: String, width: Int) -> String {
        var words: [String] = [], word = "", depth = 0
        for c in line {
            if c == "[" || c == "<" { depth += 1 } else if c == "]" || c == ">" { depth -= 1 }
            if c == " " && depth <= 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(c)
            }
        }
        if !word.isEmpty { words.append(word) }
        // "USAGE: veritrail log tail": the options line up after the command's name.
        let head = words.prefix { !$0.hasPrefix("-") && !$0.hasPrefix("[") && !$0.hasPrefix("<") }
        let indent = String(repeating: " ", count: min(head.joined(separator: " ").count + 1, width / 3))
        var lines: [String] = [], current = ""
        for w in words {
            if current.isEmpty {
                current = w
            } else if current.count + 1 + w.count <= width || current.allSatisfy({ $0 == " " }) {
                current += (current.hasSuffix(" ") ? "" : " ") + w
            } else {
                lines.append(current)
                current = indent + w
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    /// The width help is fitted to: the terminal's, else `COLUMNS`, else 80.
    static var width: Int {
        if let columns = TerminalDevice.columns(of: .standardOutput), columns > 20 { return columns }
        if let columns = CurrentProcess.environment("COLUMNS").flatMap({ Int($0) }), columns > 20 { return columns }
        return 80
    }
}

extension ParsableCommand {
    /// `main(arguments)` as ArgumentParser runs it, with its messages fitted (`HelpText`): help on stdout
    /// (exit 0), errors on stderr, each command's own exit code kept. Called on the root command (`Veritrail`,
    /// or a root that adds commands of other targets to it). `whenUnparsed` runs only when the arguments do
    /// not parse, and its failure is said instead of ArgumentParser's message (`CommandLineRepair`'s check of
    /// the long options, which reads the command's whole description: 1–2 ms of every process otherwise).
    static func mainFitted(_ arguments: [String], whenUnparsed: () throws(Failure) -> Void = {}) -> Never {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            do {
                try whenUnparsed()
            } catch {
                Output.error(error.message)
                exit(withError: ExitCode(error.code))
            }
            exitFitted(error)
        }
        do {
            try command.run()
            exit()
        } catch {
            exitFitted(error)
        }
    }

    private static func exitFitted(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error, columns: HelpText.width)
        if !message.isEmpty {
            let fitted = HelpText.fitted(message, width: HelpText.width) + "\n"
            if code == .success {
                Output.write(Array(fitted.utf8))
            } else {
                // A parse error quotes what was typed, which may hold a terminal's control characters.
                Output.note(Output.escapedLines(fitted.dropLast()))
            }
        }
        exit(withError: code == .success ? nil : ExitCode(code.rawValue))
    }
}
