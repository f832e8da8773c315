/// A text table whose columns are aligned by display width. On a terminal, prose columns (names, products,
/// e-mails) are cut to fit its width, widest first; ids and short status or flag columns are never cut, since
/// they are what the next command needs and a cut one hides a fact (`(de…` for a deleted account). When stdout
/// is not a terminal nothing is cut (cli.md §7): every value is written whole.
struct Table {
    var headers: [String]
    /// The headers of the columns that may be cut on a terminal.
    var cuttable: Set<String>
    var rows: [[Cell]] = []

    struct Cell {
        var text: String
        var color: Terminal.Color?
        init(_ text: String, _ color: Terminal.Color? = nil) { self.text = text; self.color = color }
    }

    init(_ headers: String..., cuttable: Set<String>) {
        self.headers = headers
        self.cuttable = cuttable
    }

    mutating func add(_ cells: Cell...) { rows.append(cells) }
    mutating func add(_ texts: String...) { rows.append(texts.map { Cell($0) }) }

    /// The table, cut to `width` columns when one is given (`Terminal.cutWidth`: only on a terminal).
    func render(width: Int? = Terminal.cutWidth) -> String {
        guard !rows.isEmpty else { return "(none)" }
        var widths = headers.map(displayWidth)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], displayWidth(Escaped.text(cell.text))) } }
        // Shrink the widest cuttable column until the table fits (a cut column keeps 5 columns at least).
        let shrinkable = headers.indices.filter { cuttable.contains(headers[$0]) }
        while let width, widths.reduce(0, +) + 2 * (widths.count - 1) > width,
              let widest = shrinkable.max(by: { widths[$0] < widths[$1] }), widths[widest] > 5 {
            widths[widest] -= 1
        }
        func line(_ cells: [Cell]) -> String {
            cells.enumerated().map { i, cell in
                let text = fit(Escaped.text(cell.text), widths[i])
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
