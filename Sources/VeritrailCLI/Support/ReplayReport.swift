import VeritrailKit

/// The human form of `replay` (the auditor's view): each section of the answer summed up in a few lines —
/// the scan figures, who is locked out or unlocked, the customers with their statuses, the accounts by
/// role, the goals of the month — rather than hundreds of lines of the JSON laid out.
enum ReplayReport {
    static func render(_ answer: JSONValue, style: TimeStyle) -> String {
        guard case .object(let o) = answer else { return Human.render(answer, now: style.now) }
        var out: [String] = []
        if case .object(let asOf)? = o["asOf"] {
            let seq = Human.int(asOf["seq"])
            let head = seq == 0 ? "no events" : "seq \(seq), \(style.show(asOf["at"]))"
            out.append(Terminal.paint("The log as of \(head)", .bold) + " (now \(Human.scalar(o["now"])))")
        }
        out += ["", Terminal.paint("Scans", .bold)] + scans(o["stats"], style)
        out += ["", Terminal.paint("Passcode gate", .bold)] + lockouts(o["lockout"], style)
        out += ["", Terminal.paint("Customers", .bold)] + customers(o["customers"], style)
        out += ["", Terminal.paint("Accounts", .bold)] + accounts(o["accounts"])
        out += ["", Terminal.paint("Goals this month", .bold)] + goals(o["goals"])
        return out.joined(separator: "\n")
    }

    private static func scans(_ value: JSONValue?, _ style: TimeStyle) -> [String] {
        guard case .object(let s)? = value else { return [] }
        guard Human.int(s["total"]) > 0 else { return ["  none yet"] }
        let rate = (Human.double(s["counterfeitRate"]) * 1000).rounded() / 10
        var lines = [
            "  \(Human.int(s["total"])) scans: \(Human.int(s["authentic"])) authentic, "
                + Terminal.paint("\(Human.int(s["counterfeit"])) counterfeit", .red) + " (\(rate) %), \(Human.int(s["reported"])) reported",
            "  today \(Human.int(s["today"])), last 7 days \(Human.int(s["last7d"])), last 30 days \(Human.int(s["last30d"]))",
            "  first \(style.show(s["firstScanAt"])), last \(style.show(s["lastScanAt"]))",
        ]
        let categories = Human.items(s["byCategory"]).map {
            "\(Human.scalar($0["category"])) \(Human.int($0["total"])) (\(Human.int($0["counterfeit"])) counterfeit)"
        }
        lines.append("  by category: " + categories.joined(separator: ", "))
        return lines
    }

    private static func lockouts(_ value: JSONValue?, _ style: TimeStyle) -> [String] {
        guard case .object(let l)? = value else { return [] }
        var byState: [String: [String]] = [:]
        var lines: [String] = []
        for a in Human.items(l["accounts"]) {
            let name = Human.scalar(a["username"]), state = Human.scalar(a["state"])
            byState[state, default: []].append(name)
            if state == "locked" {
                lines.append("  " + Terminal.paint("\(name) locked", .red) + ": opens \(style.show(a["lockedUntil"]))")
            } else if state == "unlocked" {
                lines.append("  " + Terminal.paint("\(name) unlocked", .green) + ": closes \(style.show(a["unlockedUntil"]))")
            } else if Human.int(a["failures"]) > 0 {
                lines.append("  \(name): \(Human.int(a["failures"])) wrong passcode\(Human.int(a["failures"]) == 1 ? "" : "s") in a row, \(Human.int(a["attemptsLeft"])) left")
            }
        }
        let counts = ["locked", "unlocked", "required", "unset"].map { "\(byState[$0]?.count ?? 0) \($0)" }
        return ["  " + counts.joined(separator: ", ") + " (unset: no passcode)"] + lines
    }

    private static func customers(_ value: JSONValue?, _ style: TimeStyle) -> [String] {
        guard case .object(let c)? = value else { return [] }
        var counts: [String] = []
        if case .object(let n)? = c["counts"] {
            for status in CustomerStatus.choices {
                counts.append(Terminal.paint("\(status.rawValue) \(Human.int(n[status.rawValue]))", Terminal.statusColor(status.color)))
            }
        }
        var table = Table("USERNAME", "NAME", "STATUS", "SINCE", "BY", cuttable: ["NAME"])
        for customer in Human.items(c["customers"]) {
            table.add(Table.Cell(Human.scalar(customer["username"])), Table.Cell(Human.scalar(customer["name"])),
                      Table.Cell("● " + Human.scalar(customer["status"]), Terminal.statusColor(Human.scalar(customer["color"]))),
                      Table.Cell(style.show(customer["since"])), Table.Cell(Human.scalar(customer["changedBy"])))
        }
        return ["  " + counts.joined(separator: "  ")] + table.render().split(separator: "\n").map { "  " + $0 }
    }

    private static func accounts(_ value: JSONValue?) -> [String] {
        guard case .object(let a)? = value else { return [] }
        let all = Human.items(a["accounts"])
        let deleted = all.filter { $0["deleted"] == .bool(true) }.map { Human.scalar($0["username"]) }
        let roles = Role.choices.map { role in
            let count = all.filter { $0["deleted"] != .bool(true) && Human.scalar($0["role"]) == role.rawValue }.count
            return "\(count) \(role.rawValue)\(count == 1 ? "" : "s")"
        }
        var line = "  \(all.count - deleted.count) accounts: " + roles.joined(separator: ", ")
        if !deleted.isEmpty { line += "; \(deleted.count) deleted (\(deleted.joined(separator: ", ")))" }
        return [line]
    }

    private static func goals(_ value: JSONValue?) -> [String] {
        guard case .object(let g)? = value else { return [] }
        var lines: [String] = []
        for (username, answer) in g.members {
            guard case .object(let goals) = answer else { continue }
            let metrics = Human.items(goals["metrics"]).map(metric)
            if !metrics.isEmpty { lines.append("  \(username) (\(Human.scalar(goals["month"]))): " + metrics.joined(separator: ", ")) }
        }
        return lines.isEmpty ? ["  no goals or progress this month"] : lines
    }

    /// One metric of a month's goals: "jumps 21375/30000 (71 %)", "scans 4 (no goal)".
    static func metric(_ m: JSONObject) -> String {
        let metric = Human.scalar(m["metric"]), progress = Human.int(m["progress"])
        guard m["target"] != .null else { return "\(metric) \(progress) (no goal)" }
        let done = m["complete"] == .bool(true) ? " ✓" : ""
        return "\(metric) \(progress)/\(Human.int(m["target"])) (\(Human.int(m["percent"])) %)\(done)"
    }
}
