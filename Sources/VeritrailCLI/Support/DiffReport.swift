import VeritrailKit

/// The human form of `diff`: the two points, the events between them counted, then each projection that
/// changed as "before → after".
enum DiffReport {
    /// The scan figures compared, in the order of projections.md §2 (`byCategory` and `recent` are lists:
    /// their change shows in these).
    static let statsFigures = ["total", "authentic", "counterfeit", "reported", "counterfeitRate", "today", "last7d",
                               "last30d", "firstScanAt", "lastScanAt"]

    static func render(_ answer: JSONValue, utc: Bool) -> String {
        guard case .object(let o) = answer, case .object(let to)? = o["to"], case .object(let from)? = o["from"],
              case .object(let events)? = o["events"], case .object(let changes)? = o["changes"] else {
            return Human.render(answer, now: environmentNow())
        }
        // Relative times are relative to the later side's clock.
        let style = TimeStyle(now: Timestamp(Human.scalar(to["now"])) ?? environmentNow(), utc: utc)
        func point(_ p: JSONObject) -> String {
            Human.int(p["seq"]) == 0 ? "the empty log" : "seq \(Human.int(p["seq"])) (\(style.show(p["at"])))"
        }
        let total = Human.int(events["total"])
        var out = [Terminal.paint("From \(point(from)) to \(point(to)): \(total) event\(total == 1 ? "" : "s")", .bold)]
        if total > 0 {
            out.append("  by type:  " + counts(events["byType"]))
            out.append("  by actor: " + counts(events["byActor"]))
        }
        var changed = false
        if case .object(let stats)? = changes["stats"], case .object(let before)? = stats["before"], case .object(let after)? = stats["after"] {
            let figures = statsFigures.compactMap { key -> String? in
                before[key] == after[key] ? nil : "\(key) \(figure(before[key], style)) → \(figure(after[key], style))"
            }
            if !figures.isEmpty {
                out += ["", Terminal.paint("Scans", .bold)] + figures.map { "  " + $0 }
                changed = true
            }
        }
        let sections: [(String, String, (JSONValue?) -> String)] = [
            ("customers", "Customers' statuses", { Human.scalar($0) }),
            ("lockout", "Passcode gates", gate),
            ("goals", "Goals this month", goalSummary),
        ]
        for (key, title, summary) in sections {
            let rows = Human.items(changes[key])
            guard !rows.isEmpty else { continue }
            changed = true
            var table = Table("ACCOUNT", "BEFORE", "AFTER", cuttable: ["BEFORE", "AFTER"])
            for row in rows {
                table.add(Human.scalar(row["username"]), summary(row["before"]), summary(row["after"]))
            }
            out += ["", Terminal.paint(title, .bold)] + table.render().split(separator: "\n").map { "  " + $0 }
        }
        if !changed { out += ["", "No projection changed."] }
        return out.joined(separator: "\n")
    }

    private static func counts(_ value: JSONValue?) -> String {
        guard case .object(let o)? = value else { return "" }
        return o.members.sorted { Human.int($0.value) > Human.int($1.value) || (Human.int($0.value) == Human.int($1.value) && $0.key < $1.key) }
            .map { "\($0.key) \(Human.int($0.value))" }.joined(separator: ", ")
    }

    private static func figure(_ value: JSONValue?, _ style: TimeStyle) -> String {
        if case .string(let s)? = value, Timestamp(s) != nil { return style.show(value) }
        return Human.scalar(value)
    }

    /// A passcode gate in a few words: "locked (3 failures)", "unlocked", "required, 1 failure".
    private static func gate(_ value: JSONValue?) -> String {
        guard case .object(let g)? = value else { return "—" }
        let failures = Human.int(g["failures"])
        let totals: String
        if case .object(let t)? = g["totals"] {
            totals = "granted \(Human.int(t["granted"])), denied \(Human.int(t["denied"])), locked \(Human.int(t["locked"]))"
        } else { totals = "" }
        return "\(Human.scalar(g["state"]))" + (failures > 0 ? " (\(failures) failure\(failures == 1 ? "" : "s"))" : "") + "; " + totals
    }

    /// A month's goals in a line: "2026-11: jumps 21375/30000 (71 %), scans 4 (no goal)".
    static func goalSummary(_ value: JSONValue?) -> String {
        guard case .object(let goals)? = value else { return "—" }
        let metrics = Human.items(goals["metrics"]).map(ReplayReport.metric)
        return "\(Human.scalar(goals["month"])): " + (metrics.isEmpty ? "nothing" : metrics.joined(separator: ", "))
    }
}
