/// A text table whose columns are aligned by display width and cut to fit the terminal.
struct Table {
    var headers: [String]
    var rows: [[Cell]] = []

    struct Cell {
        var text: String
        var color: Terminal.Color?
        init(_ text: String, _ color: Terminal.Color? = nil) { self.text = text; self.color = color }
    }

    init(_ headers: String...) { self.headers = headers }

    mutating func add(_ cells: Cell...) { rows.append(cells) }
    mutating func add(_ texts: String...) { rows.append(texts.map { Cell($0) }) }

    func render(width: Int = Terminal.width) -> String {
        guard !rows.isEmpty else { return "(none)" }
        var widths = headers.map(displayWidth)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], displayWidth(cell.text)) } }
        // Shrink the widest column until the table fits.
        while widths.reduce(0, +) + 2 * (widths.count - 1) > width, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 8 {
            widths[widest] -= 1
        }
        func line(_ cells: [Cell]) -> String {
            cells.enumerated().map { i, cell in
                let text = fit(cell.text, widths[i])
                let padded = text + String(repeating: " ", count: max(0, widths[i] - displayWidth(text)))
                return cell.color.map { Terminal.paint(padded, $0) } ?? padded
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let header = Terminal.paint(line(headers.map { Cell($0) }), .bold)
        return ([header] + rows.map(line)).joined(separator: "\n")
    }

    private func fit(_ text: String, _ width: Int) -> String {
        guard displayWidth(text) > width else { return text }
        var out = ""
        for c in text {
            if displayWidth(out) + displayWidth(String(c)) > width - 1 { break }
            out.append(c)
        }
        return out + "…"
    }
}

/// Columns a string takes on a terminal: wide (East Asian, emoji) characters take two.
func displayWidth(_ s: String) -> Int {
    s.reduce(0) { total, c in
        guard let v = c.unicodeScalars.first?.value else { return total }
        let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
        return total + (wide ? 2 : 1)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
