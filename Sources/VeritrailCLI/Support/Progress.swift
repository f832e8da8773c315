/// A progress bar on the terminal for long work (import, rebuild, batch scans): redrawn in place on stderr
/// when the shown percentage changes, and only when stderr is a terminal.
final class Progress {
    private let label: String
    private let total: Int
    private let unit: String
    private let enabled: Bool
    private var shownPercent = -1

    /// `total` is what `done` counts up to (events, rows, bytes of input); `unit` names what is counted in
    /// the bar's text, or is empty to show only the percentage.
    init(label: String, total: Int, unit: String, enabled: Bool) {
        self.label = label
        self.total = max(total, 1)
        self.unit = unit
        self.enabled = enabled && total > 0
    }

    func tick(_ done: Int) {
        guard enabled else { return }
        let percent = min(100, done * 100 / total)
        guard percent != shownPercent else { return }
        shownPercent = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let count = unit.isEmpty ? "" : "  \(min(done, total))/\(total) \(unit)"
        Array("\r\(label) \(bar) \(percent)%\(count)".utf8).withUnsafeBytes { Output.writeAll(2, $0) }
    }

    /// Clears the bar's line, so that what the command prints next starts on a clean line; call it before
    /// printing the result (stdout and stderr share the terminal). A second call does nothing.
    func finish() {
        guard shownPercent >= 0 else { return }
        shownPercent = -1
        Array("\r\u{1B}[K".utf8).withUnsafeBytes { Output.writeAll(2, $0) }
    }
}
