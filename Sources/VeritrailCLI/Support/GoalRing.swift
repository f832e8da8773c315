import VeritrailKit

/// The goal ring drawn in the terminal, in the seed's three views: progress, last session, remaining.
enum GoalRing {
    enum View: String, CaseIterable { case progress, lastSession = "last-session", remaining }

    /// The goals answer for people: a ring per metric with its numbers.
    static func render(_ v: JSONValue, view: View, now: Timestamp) -> String {
        guard case .object(let o) = v else { return Human.render(v, now: now) }
        var out = [Terminal.paint("Goals of \(Human.scalar(o["username"])) for \(Human.scalar(o["month"]))", .bold)]
        let metrics = Human.items(o["metrics"])
        if metrics.isEmpty { out.append("no goals and no progress this month") }
        for m in metrics {
            let name = Human.scalar(m["metric"])
            var lines: [String] = []
            if case .object(let ring)? = m["ring"] {
                lines = draw(ring, view: view)
            }
            var facts = ["\(name): \(Human.int(m["progress"]))" + (m["target"] == .null ? "" : " of \(Human.int(m["target"]))")]
            if m["percent"] != .null { facts.append("\(Human.int(m["percent"]))% done, \(Human.int(m["remaining"])) to go") }
            if m["complete"] == .bool(true) { facts.append(Terminal.paint("complete ✓", .green)) }
            if case .string(let message)? = m["message"] { facts.append(Escaped.text(message)) }
            if case .object(let s)? = m["lastSession"] {
                facts.append("last session \(Human.scalar(s["date"])) \(Human.scalar(s["startTime"]))–\(Human.scalar(s["endTime"])) at \(Human.scalar(s["park"])): \(Human.int(s[name]))")
            }
            out.append("")
            let height = max(lines.count, facts.count)
            for i in 0..<height {
                let left = i < lines.count ? lines[i] : String(repeating: " ", count: lines.first.map(displayWidth) ?? 0)
                out.append((left.isEmpty ? "" : left + "   ") + (i < facts.count ? facts[i] : ""))
            }
        }
        if case .array(let months)? = o["months"] {
            out += ["", "months: " + months.map { Human.scalar($0) }.joined(separator: ", ")]
        }
        return out.joined(separator: "\n")
    }

    /// A ring of 9 rows: cells on the band are lit when their angle (clockwise from the top) falls in the
    /// view's arc: progress [0, p], last session [start, end] over the progress, remaining [p, 1].
    private static func draw(_ ring: JSONObject, view: View) -> [String] {
        let p = Human.double(ring["progress"])
        var start = 0.0, end = 0.0
        if case .object(let last)? = ring["lastSession"] { start = Human.double(last["start"]); end = Human.double(last["end"]) }
        let rows = 9, columns = 18
        var lines: [String] = []
        for y in 0..<rows {
            var line = ""
            for x in 0..<columns {
                let dx = (Double(x) + 0.5 - Double(columns) / 2) / 2, dy = Double(y) + 0.5 - Double(rows) / 2
                let r = (dx * dx + dy * dy).squareRoot()
                guard r >= 2.6 && r <= 4.6 else { line += " "; continue }
                var angle = atan2Approx(dx, -dy) / (2 * Double.pi)
                if angle < 0 { angle += 1 }
                let cell: String
                switch view {
                case .progress: cell = angle < p ? Terminal.paint("█", .green) : Terminal.paint("░", .gray)
                case .lastSession:
                    cell = angle >= start && angle < end ? Terminal.paint("█", .yellow)
                        : angle < p ? Terminal.paint("▓", .green) : Terminal.paint("░", .gray)
                case .remaining: cell = angle >= p ? Terminal.paint("█", .blue) : Terminal.paint("░", .gray)
                }
                line += cell
            }
            lines.append(line)
        }
        return lines
    }

    /// atan2 without Foundation.
    private static func atan2Approx(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return atanSeries(y / x) }
        if x < 0 { return atanSeries(y / x) + (y >= 0 ? Double.pi : -Double.pi) }
        return y > 0 ? Double.pi / 2 : y < 0 ? -Double.pi / 2 : 0
    }

    private static func atanSeries(_ z: Double) -> Double {
        if abs(z) > 1 { return (z > 0 ? Double.pi / 2 : -Double.pi / 2) - atanSeries(1 / z) }
        // A rational approximation, accurate to about 0.005 rad: plenty for 18 columns.
        return z * (Double.pi / 4) + 0.273 * z * (1 - abs(z))
    }
}
