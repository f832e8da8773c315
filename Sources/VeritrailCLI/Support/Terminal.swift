import ArgumentParser
import SystemCalls

/// `--color`: `auto` colours on a terminal only, unless `NO_COLOR` is set to a non-empty value (no-color.org).
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never
}

/// What the terminal allows: colour (`--color`; by default only on a terminal, never with `NO_COLOR`) and its
/// width.
enum Terminal {
    /// `--color`, set once the command line is read (`GlobalOptions.validate`).
    nonisolated(unsafe) static var colorChoice = ColorChoice.auto

    static var colors: Bool {
        switch colorChoice {
        case .always: true
        case .never: false
        case .auto: automaticColors
        }
    }

    /// cli.md §1 and §8: on a terminal, unless `NO_COLOR` holds a value (an empty one does not count) or the
    /// terminal is `dumb`.
    private static let automaticColors: Bool = Output.stdoutIsTerminal && (CurrentProcess.environment("NO_COLOR") ?? "").isEmpty
        && CurrentProcess.environment("TERM") != "dumb"

    /// The width tables are cut to: the terminal's when stdout is one, else none (cli.md §7: a table written to
    /// a file or a pipe keeps every value whole).
    static var cutWidth: Int? { Output.stdoutIsTerminal ? width : nil }

    /// The width of stdout's terminal, or 100 when it is not one.
    static var width: Int {
        if let columns = TerminalDevice.columns(of: .standardOutput), columns > 20 { return columns }
        if let columns = CurrentProcess.environment("COLUMNS").flatMap({ Int($0) }), columns > 20 { return columns }
        return 100
    }

    enum Color: String {
        case red = "31", green = "32", yellow = "33", blue = "34", gray = "90", lightRed = "91", lightGreen = "92"
        case darkGreen = "38;5;22", midGreen = "38;5;34", bold = "1"
    }

    static func paint(_ text: String, _ color: Color) -> String {
        colors ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// The terminal colour of a status colour name of projections.md §4.
    static func statusColor(_ name: String) -> Color {
        switch name {
        case "yellow": .yellow
        case "light-red": .lightRed
        case "light-green": .lightGreen
        case "mid-green": .midGreen
        case "dark-green": .darkGreen
        default: .red
        }
    }
}
