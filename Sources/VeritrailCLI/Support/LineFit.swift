/// Human answers fitted to the terminal's width (issue #23.4): a line wider than the terminal is broken at a
/// space, and its further lines are indented to where its text column starts (after the last two-space gap
/// before the break: the sentence of a `log tail` row, the facts beside a goal ring), so that nothing wraps
/// at the terminal's edge. Only on a terminal: a pipe or a file gets every line whole (cli.md §7).
enum LineFit {
    static func fit(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { fitLine(String($0), width: width) }.joined(separator: "\n")
    }

    /// One line: its characters with their display widths (escape sequences take none).
    private static func fitLine(_ line: String, width: Int) -> String {
        var cells: [(text: String, width: Int)] = []
        var escape = ""
        for c in line {
            if !escape.isEmpty {
                escape.append(c)
                if c.isLetter { cells.append((escape, 0)); escape = "" }
            } else if c == "\u{1B}" {
                escape = String(c)
            } else {
                cells.append((String(c), displayWidth(String(c))))
            }
        }
        guard cells.reduce(0, { $0 + $1.width }) > width else { return line }
        var out: [String] = []
        var start = 0, indent = 0
        while start < cells.count {
            // The widest run from `start` that fits in what the indent leaves.
            var column = indent, end = start, lastSpace: Int? = nil, gapEnd: Int? = nil
            while end < cells.count, column + cells[end].width <= width {
                if cells[end].text == " " {
                    lastSpace = end
                    if end > start, cells[end - 1].text == " ", column + 1 < width / 2 { gapEnd = column + 1 }
                }
                column += cells[end].width
                end += 1
            }
            if end < cells.count, let space = lastSpace, space > start { end = space }
            let piece = cells[start..<end].map(\.text).joined()
            out.append(String(repeating: " ", count: out.isEmpty ? 0 : indent) + piece.trimmingTrailingSpaces())
            if out.count == 1, let gapEnd { indent = gapEnd } else if out.count == 1 { indent = 2 }
            start = end
            while start < cells.count, cells[start].text == " " { start += 1 }
        }
        return out.joined(separator: "\n")
    }
}
