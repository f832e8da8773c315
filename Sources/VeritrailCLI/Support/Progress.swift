/// A progress line on the terminal for long work (import, rebuild): redrawn in place on stderr, at most
/// every 10,000 items, and only when stderr is a terminal.
final class Progress {
    private let label: String
    private let enabled: Bool
    private var shown = false
    private var lastShown = 0

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled
    }

    func tick(_ count: Int) {
        guard enabled, count - lastShown >= 10_000 else { return }
        shown = true
        lastShown = count
        let bytes = Array("\r\(label): \(count) events".utf8)
        bytes.withUnsafeBytes { Output.writeAll(2, $0) }
    }

    func finish() {
        guard shown else { return }
        let bytes = Array("\r\u{1B}[K".utf8)
        bytes.withUnsafeBytes { Output.writeAll(2, $0) }
    }
}
