import VeritrailKit

/// The human form of the answers: the same facts as the JSON, laid out for reading (cli.md §1):
/// aligned tables, the status colours, relative times, the goal ring.
enum Human {
    // MARK: Generic

    /// One `key: value` per line, nested objects indented, lists as numbered items.
    static func render(_ value: JSONValue, now: Timestamp) -> String {
        var lines: [String] = []
        emit(value, indent: "", into: &lines)
        return lines.joined(separator: "\n")
    }

    private static func emit(_ value: JSONValue, indent: String, into lines: inout [String]) {
        switch value {
        case .object(let o):
            // In the order of the `--json` answer (RFC 8785: keys by UTF-16 code units), so that a rendering of
            // the JSON a server sends (`--server`, which answers canonically) is the rendering of the library's.
            for (key, v) in o.members.sorted(by: { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }) {
                if isScalar(v) { lines.append("\(indent)\(key): \(scalar(v))") } else {
                    lines.append("\(indent)\(key):")
                    emit(v, indent: indent + "  ", into: &lines)
                }
            }
        case .array(let items):
            if items.isEmpty { lines.append("\(indent)(none)") }
            for (i, item) in items.enumerated() {
                if isScalar(item) { lines.append("\(indent)- \(scalar(item))") } else {
                    lines.append("\(indent)\(i + 1).")
                    emit(item, indent: indent + "   ", into: &lines)
                }
            }
        default:
            lines.append(indent + scalar(value))
        }
    }

    private static func isScalar(_ v: JSONValue) -> Bool {
        switch v {
        case .object, .array: false
        default: true
        }
    }

    static func scalar(_ v: JSONValue?) -> String {
        switch v {
        case nil, .null?: "—"
        case .bool(let b)?: b ? "yes" : "no"
        case .number(let n)?: n.canonicalText
        case .string(let s)?: Escaped.text(s)
        case .object?, .array?: ""
        }
    }

    static func int(_ v: JSONValue?) -> Int64 {
        if case .number(let n)? = v { return n.integerValue ?? Int64(n.doubleValue) }
        return 0
    }

    static func double(_ v: JSONValue?) -> Double {
        if case .number(let n)? = v { return n.doubleValue }
        return 0
    }

    static func items(_ v: JSONValue?) -> [JSONObject] {
        guard case .array(let a)? = v else { return [] }
        return a.compactMap { if case .object(let o) = $0 { o } else { nil } }
    }

    /// With `--utc`, times are shown as the log writes them instead (set once, before rendering, by the
    /// command: one process answers one command).
    nonisolated(unsafe) static var absoluteTimes = false

    /// "3 min ago", "in 42 s", "2 days ago"; with `--utc` the time itself, as the log writes it.
    static func relative(_ text: JSONValue?, now: Timestamp) -> String {
        guard case .string(let s)? = text, let t = Timestamp(s) else { return "—" }
        if absoluteTimes { return t.description }
        let seconds = (now.microseconds - t.microseconds) / 1_000_000
        let magnitude = abs(seconds)
        let amount: String
        switch magnitude {
        case ..<60: amount = "\(magnitude) s"
        case ..<3600: amount = "\(magnitude / 60) min"
        case ..<86_400: amount = "\(magnitude / 3600) h"
        default: amount = "\(magnitude / 86_400) day\(magnitude / 86_400 == 1 ? "" : "s")"
        }
        if magnitude == 0 { return "now" }
        return seconds > 0 ? "\(amount) ago" : "in \(amount)"
    }

    // MARK: Scans

    /// Scan ids as a table on a terminal shows them: the shortest start `show` takes (`Scans.shortIds`); empty
    /// when the ids are written whole (a pipe, a file).
    nonisolated(unsafe) static var shortScanIds: [String: String] = [:]

    static func scanTable(_ scans: [JSONObject], now: Timestamp) -> String {
        var table = Table("WHEN", "RESULT", "PRODUCT", "CATEGORY", "BY", "SEEN", "SCAN", cuttable: ["PRODUCT", "CATEGORY"])
        for s in scans {
            let counterfeit = scalar(s["result"]) == "counterfeit"
            let seen = int(s["seenBefore"])
            table.add(Table.Cell(relative(s["at"], now: now)),
                      Table.Cell(counterfeit ? "✗ counterfeit" : "✓ authentic", counterfeit ? .red : .green),
                      Table.Cell(scalar(s["productName"])), Table.Cell(scalar(s["category"])), Table.Cell(scalar(s["actor"])),
                      Table.Cell(seen > 0 ? "\(seen)× before" : "", seen > 0 ? .yellow : nil),
                      Table.Cell((shortScanIds[scalar(s["scanId"])] ?? scalar(s["scanId"])) + (s["report"] != nil ? " ⚑" : "")))
        }
        return table.render()
    }

    /// The scan table and its count; `viewerWindow` is the viewer's history window when it chose the scans
    /// (no `--window`), said so that a short list is no surprise.
    static func history(_ v: JSONValue, now: Timestamp, viewerWindow: HistoryWindow? = nil) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        let scans = items(o["items"])
        var out = scanTable(scans, now: now) + "\n\(scans.count) of \(int(o["total"])) scans"
        if let window = viewerWindow, window != .all {
            out += "\nyour history window is \(describe(window)): --window all for everything"
        }
        return out
    }

    static func describe(_ window: HistoryWindow) -> String {
        switch window {
        case .today: "today"
        case .sevenDays: "7 days"
        case .thirtyDays: "30 days"
        case .ninetyDays: "90 days"
        case .all: "everything"
        }
    }

    /// One scan (`show`): its fields one a line, then a warning line when its code was seen before.
    static func stats(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        let rate = double(o["counterfeitRate"]) * 100
        var out = [
            Terminal.paint("Scans", .bold),
            "  \(int(o["total"])) in all: \(int(o["authentic"])) authentic, "
                + Terminal.paint("\(int(o["counterfeit"])) counterfeit", .red) + " (\(String(format1(rate)))%), \(int(o["reported"])) reported",
            "  today \(int(o["today"]))   last 7 days \(int(o["last7d"]))   last 30 days \(int(o["last30d"]))",
            "  first \(relative(o["firstScanAt"], now: now)), last \(relative(o["lastScanAt"], now: now))",
            "", Terminal.paint("By category", .bold),
        ]
        var table = Table("CATEGORY", "SCANS", "COUNTERFEIT", cuttable: ["CATEGORY"])
        for c in items(o["byCategory"]) { table.add(scalar(c["category"]), "\(int(c["total"]))", "\(int(c["counterfeit"]))") }
        out.append(table.render())
        out += ["", Terminal.paint("Recent scans", .bold), scanTable(items(o["recent"]), now: now)]
        return out.joined(separator: "\n")
    }

    private static func format1(_ d: Double) -> String {
        let tenths = (d * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
    }

    // MARK: People

    static func lockout(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        let accounts = o["accounts"] != nil ? items(o["accounts"]) : [o]
        var table = Table("ACCOUNT", "STATE", "ATTEMPTS LEFT", "UNTIL", "LAST ATTEMPT", cuttable: ["LAST ATTEMPT", "UNTIL"])
        for a in accounts {
            let state = scalar(a["state"])
            let color: Terminal.Color = state == "locked" ? .red : state == "unlocked" ? .green : .gray
            var until = ""
            if state == "locked" { until = "locked, in \(int(a["remainingSeconds"])) s" }
            if state == "unlocked" { until = "open, closes " + relative(a["unlockedUntil"], now: now) }
            let last = a["lastAttemptAt"].map { relative($0, now: now) + " (" + scalar(a["lastOutcome"]) + ")" } ?? "—"
            table.add(Table.Cell(scalar(a["username"])), Table.Cell(state, color), Table.Cell("\(int(a["attemptsLeft"]))"),
                      Table.Cell(until), Table.Cell(a["lastAttemptAt"] == .null ? "—" : last))
        }
        return table.render()
    }

    static func customers(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        var table = Table("NAME", "USERNAME", "CITY", "STATUS", "SINCE", "BY", cuttable: ["NAME", "CITY"])
        for c in items(o["customers"]) {
            let status = scalar(c["status"])
            table.add(Table.Cell(scalar(c["name"])), Table.Cell(scalar(c["username"])), Table.Cell(scalar(c["city"])),
                      Table.Cell("● " + status, Terminal.statusColor(scalar(c["color"]))),
                      Table.Cell(relative(c["since"], now: now)), Table.Cell(scalar(c["changedBy"])))
        }
        var counts: [String] = []
        if case .object(let c)? = o["counts"] {
            for status in CustomerStatus.choices {
                counts.append(Terminal.paint("\(status.rawValue) \(int(c[status.rawValue]))", Terminal.statusColor(status.color)))
            }
        }
        return table.render() + "\n" + counts.joined(separator: "  ")
    }

    static func accounts(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        var table = Table("USERNAME", "ROLE", "NAME", "E-MAIL", "REGISTERED", cuttable: ["NAME", "E-MAIL"])
        for a in items(o["accounts"]) {
            let deleted = a["deleted"] == .bool(true)
            table.add(Table.Cell(scalar(a["username"]) + (deleted ? " (deleted)" : ""), deleted ? .gray : nil),
                      Table.Cell(scalar(a["role"])), Table.Cell(scalar(a["name"])), Table.Cell(scalar(a["email"])),
                      Table.Cell(relative(a["registeredAt"], now: now)))
        }
        return table.render()
    }
}
