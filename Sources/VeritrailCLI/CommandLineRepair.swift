import ArgumentParser

/// What the command line is checked and mended for before ArgumentParser reads it: a mistyped command gets
/// a suggestion (as a mistyped option does), and a value that starts with `-` where a command takes a scan
/// id or text as its argument (`show -NI`, `search -0002`) is taken as that value, not as an option.
enum CommandLineRepair {
    /// The commands whose one argument is an id or text that may start with `-`, with their options that
    /// take a value (so that such a value is not taken for the argument).
    static let dashArguments: [[String]: Set<String>] = [
        ["show"]: ["--store", "--as", "--as-of", "--now"],
        ["report"]: ["--store", "--as", "--reason", "--message"],
        ["search"]: ["--store", "--as", "--window", "--limit"],
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
        guard let valued = dashArguments[path] else { return arguments }
        var rest = Array(arguments[i...])
        var j = 0
        while j < rest.count {
            let word = rest[j]
            if word == "--" { break }
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
