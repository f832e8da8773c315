import ArgumentParser
import Foundation

/// What the command line is checked and mended for before ArgumentParser reads it: a mistyped command gets
/// a suggestion (as a mistyped option does), and a value that starts with `-` where a command takes a scan
/// id or text as its argument (`show -NI`, `search -0002`) is taken as that value, not as an option. `-h`
/// alone stays the help, as everywhere: a scan id `-h` is asked for after `--` (`show -- -h`), and options
/// may follow it there (`show -- -h --store DIR`).
enum CommandLineRepair {
    /// The commands whose one argument is an id or text that may start with `-`, with their options that
    /// take a value (so that such a value is not taken for the argument). Each is a command of the root, keyed
    /// by its name: a key of the command's words made every start look up `Array: Hashable` in the runtime's
    /// conformances.
    static let dashArguments: [String: Set<String>] = [
        "show": ["--store", "--as", "--as-of", "--now"],
        "report": ["--store", "--as", "--reason", "--message"],
        "search": ["--store", "--as", "--window", "--limit"],
    ]

    /// `arguments` (without the program name, global options already after the command) with a leading
    /// `-` argument of a command of `dashArguments` moved after `--`; or the usage failure for an unknown
    /// command, with the nearest known one.
    static func repair(_ arguments: [String], root: any ParsableCommand.Type = Veritrail.self) throws(Failure) -> [String] {
        var command: any ParsableCommand.Type = root
        var path: [String] = []
        var i = 0
        // Walk down the command names.
        while i < arguments.count {
            let subcommands = command.configuration.subcommands
            let word = arguments[i]
            // `help` is ArgumentParser's own (`veritrail help history`).
            guard !subcommands.isEmpty, !word.hasPrefix("-"), word != "help" else { break }
            if let next = subcommands.first(where: { $0._commandName == word }) {
                command = next
                path.append(word)
                i += 1
                continue
            }
            // A command with a default subcommand (`settings USER`) takes its argument here.
            if command.configuration.defaultSubcommand != nil { break }
            let names = subcommands.map { $0._commandName }
            let prefix = (["veritrail"] + path).joined(separator: " ")
            var message = "'\(word)' is not a command of \(prefix)"
            if let near = nearest(word, names) { message += ": did you mean \(near)?" }
            throw Failure.usage(message + " ('\(prefix) --help' lists them)")
        }
        var arguments = arguments
        if path == ["settings", "set"] { arguments = scannerColor(arguments, from: i) }
        guard path.count == 1, let valued = dashArguments[path[0]] else { return arguments }
        var rest = Array(arguments[i...])
        var j = 0
        while j < rest.count {
            let word = rest[j]
            if word == "--" {
                // `show -- -h --store DIR`: the one argument after `--`, and the options after it put before.
                guard j + 2 < rest.count else { break }
                let argument = rest[j + 1]
                return Array(arguments[..<i]) + rest[..<j] + rest[(j + 2)...] + ["--", argument]
            }
            if valued.contains(word) { j += 2; continue }
            if word.hasPrefix("-") && !word.hasPrefix("--") && word.count > 1 && word != "-h" {
                rest.remove(at: j)
                return Array(arguments[..<i]) + rest + ["--", word]
            }
            if !word.hasPrefix("-") { break }   // the argument itself
            j += 1
        }
        return arguments
    }

    /// `settings set --color white`: a value that is not one of `--color`'s (auto, always, never) is the
    /// scanner's colour, `--scanner-color`.
    static func scannerColor(_ arguments: [String], from start: Int) -> [String] {
        var arguments = arguments
        let output = Set(ColorChoice.allCases.map(\.rawValue))
        var j = start
        while j < arguments.count, arguments[j] != "--" {
            if arguments[j] == "--color", j + 1 < arguments.count, !output.contains(arguments[j + 1]) {
                arguments[j] = "--scanner-color"
            } else if arguments[j].hasPrefix("--color="), !output.contains(String(arguments[j].dropFirst(8))) {
                arguments[j] = "--scanner-color=" + arguments[j].dropFirst(8)
            }
            j += 1
        }
        return arguments
    }

    /// Refuses a long option that the command `arguments` name (as `repair` left them) does not know, naming
    /// it (and the nearest it knows), in place of ArgumentParser's message: ArgumentParser checks a command's
    /// values before it looks for unknown options, so `scan --resut authentic` would otherwise be told that
    /// `--result` is needed. Asked only when the arguments do not parse (`mainFitted`).
    static func checkLongOptions(_ arguments: [String], root: any ParsableCommand.Type) throws(Failure) {
        var command: any ParsableCommand.Type = root
        var path: [String] = []
        var i = 0
        while i < arguments.count, let next = command.configuration.subcommands.first(where: { $0._commandName == arguments[i] }) {
            command = next
            path.append(arguments[i])
            i += 1
        }
        try checkLongOptions(Array(arguments[i...]), of: command, path: path)
    }

    static func checkLongOptions(_ rest: [String], of command: any ParsableCommand.Type, path: [String]) throws(Failure) {
        guard command.configuration.subcommands.isEmpty, rest.contains(where: { $0.hasPrefix("--") && $0 != "--" }) else { return }
        let known = longOptions(of: command)
        guard !known.isEmpty else { return }
        // ArgumentParser's own: hidden from the command's description, answered before it is parsed.
        let builtIn: Set<String> = ["help", "version", "experimental-dump-help", "generate-completion-script"]
        var j = 0
        while j < rest.count {
            let word = rest[j]
            if word == "--" { return }
            // `---completion` (three dashes) is how a completion script asks for values.
            guard word.hasPrefix("--"), !word.hasPrefix("---") else { j += 1; continue }
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            if builtIn.contains(name) { return }
            if let takesValue = known[name] {
                j += takesValue && !word.contains("=") ? 2 : 1
                continue
            }
            let prefix = (["veritrail"] + path).joined(separator: " ")
            var message = "unknown option '--\(name)' for \(prefix)"
            if let near = nearest(name, Array(known.keys)) { message += ": did you mean --\(near)?" }
            throw Failure.usage(message + " ('\(prefix) --help' lists the options)")
        }
    }

    /// The long option names of `command`, each with whether it takes a value, from ArgumentParser's own
    /// description of the command (its `--experimental-dump-help` JSON).
    static func longOptions(of command: any ParsableCommand.Type) -> [String: Bool] {
        guard let dump = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any],
              let info = dump["command"] as? [String: Any], let arguments = info["arguments"] as? [[String: Any]] else { return [:] }
        var known: [String: Bool] = [:]
        for argument in arguments {
            let takesValue = argument["kind"] as? String == "option"
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                if let text = name["name"] as? String { known[text] = takesValue }
            }
        }
        return known
    }

    /// The name closest to `word` by edit distance, when it is close enough to be a likely typo.
    static func nearest(_ word: String, _ names: [String]) -> String? {
        let scored = names.map { ($0, distance(Array(word), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return nil }
        return best.0
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit (`histroy` → `history`).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
