import VeritrailKit

/// The views of one thing, laid out for people (issue #23.11) rather than as the JSON's keys: a title line with
/// what matters most, then labelled facts aligned, then a table where there is a list.
extension Human {
    /// Labelled facts, the labels aligned; facts without a value are left out.
    static func facts(_ pairs: [(String, String?)]) -> [String] {
        let kept = pairs.compactMap { label, value in value.flatMap { $0.isEmpty ? nil : (label, $0) } }
        let width = kept.map(\.0.count).max() ?? 0
        return kept.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 }
    }

    /// A value as a line shows it, control characters from the log escaped (`Escaped`); nil for none.
    static func text(_ v: JSONValue?) -> String? {
        guard let v, v != .null else { return nil }
        return Escaped.text(scalar(v))
    }

    /// `show`: the verdict and the product first, then where, when and how it was scanned, its report.
    static func scan(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        let counterfeit = scalar(o["result"]) == "counterfeit"
        let verdict = counterfeit ? Terminal.paint("✗ counterfeit", .red) : Terminal.paint("✓ authentic", .green)
        let product = [text(o["productName"]), text(o["brand"]), text(o["category"])].compactMap { $0 }.joined(separator: " · ")
        var lines = [Terminal.paint("Scan \(text(o["scanId"]) ?? "")", .bold) + "  " + verdict, "  " + product]
        let how = [text(o["source"]), text(o["mode"]), o["flash"] == .bool(true) ? "flash on" : "flash off"].compactMap { $0 }
        lines += facts([("code", text(o["code"])),
                        ("scanned", "\(relative(o["at"], now: now)) by \(text(o["actor"]) ?? "") (\(how.joined(separator: ", ")))"),
                        ("where", text(o["location"])), ("batch", text(o["batchId"])), ("notes", text(o["notes"]))])
        if case .object(let r)? = o["report"] {
            let message = text(r["message"]).map { ": \($0)" } ?? ""
            lines.append(Terminal.paint("  reported as counterfeit (\(scalar(r["reason"]))\(message)) by \(text(r["by"]) ?? ""), "
                                        + relative(r["at"], now: now), .red))
        }
        let seen = int(o["seenBefore"])
        if seen > 0 { lines.append(Terminal.paint("  this code was scanned \(seen) time\(seen == 1 ? "" : "s") before", .yellow)) }
        return lines.joined(separator: "\n")
    }

    /// `settings USER`: the four settings in words (the list of windows is the same for everyone: left out).
    static func settings(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        let window = HistoryWindow(rawValue: scalar(o["historyWindow"])).map(describe) ?? scalar(o["historyWindow"])
        return ([Terminal.paint("Settings of \(text(o["username"]) ?? "")", .bold)]
                + facts([("flash", o["flash"] == .bool(true) ? "on" : "off"), ("capture mode", text(o["captureMode"])),
                         ("history window", window), ("scanner colour", text(o["color"]))])).joined(separator: "\n")
    }

    /// `searches USER`: the recent searches, newest first.
    static func searches(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        let recent = (o["recent"]?.arrayValue ?? []).map { scalar($0) }
        let title = Terminal.paint("Recent searches of \(text(o["username"]) ?? "")", .bold)
        guard !recent.isEmpty else { return title + "\n  (none yet)" }
        return ([title + " (newest first)"] + recent.enumerated().map { "  \($0.offset + 1). \(Escaped.text($0.element))" })
            .joined(separator: "\n")
    }

    /// `log status`: how many events over what time, the head to write down, then the events per type.
    static func logStatus(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        var lines = [Terminal.paint("\(int(o["events"])) events", .bold)
                     + (o["firstAt"] == nil || o["firstAt"] == .null ? "" : ", \(relative(o["firstAt"], now: now)) to \(relative(o["lastAt"], now: now))")]
        let head = o["head"]
        lines += facts([("head", "\(int(head?["seq"])):\(scalar(head?["hash"]))"), ("origin", text(o["origin"]))])
        if case .object(let types)? = o["byType"], !types.members.isEmpty {
            var table = Table("TYPE", "EVENTS", cuttable: [])
            // Most first; a tie by name, so that the order is the same whatever order the answer's members came in (a
            // server's answer is canonical JSON, its members sorted by name).
            let sorted = types.members.sorted { int($0.value) != int($1.value) ? int($0.value) > int($1.value) : $0.key < $1.key }
            for (type, count) in sorted { table.add(type, "\(int(count))") }
            lines += ["", table.render()]
        }
        return lines.joined(separator: "\n")
    }

    /// `customer show USER`: name, status in its colour, the details, then the status history as a table.
    static func customer(_ v: JSONValue, now: Timestamp) -> String {
        guard case .object(let o) = v else { return render(v, now: now) }
        let status = scalar(o["status"])
        var lines = [Terminal.paint("\(text(o["name"]) ?? "") (\(text(o["username"]) ?? ""))", .bold) + "  "
                     + Terminal.paint("● " + status, Terminal.statusColor(scalar(o["color"])))]
        var address: String?
        if case .object(let a)? = o["address"] {
            address = [text(a["street"]), text(a["suite"]), [text(a["zipcode"]), text(a["city"])].compactMap { $0 }.joined(separator: " ")]
                .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
        }
        var company: String?
        if case .object(let c)? = o["company"] {
            company = [text(c["name"]), text(c["catchPhrase"]).map { "“\($0)”" }].compactMap { $0 }.joined(separator: " — ")
        }
        let geo = o["geo"].flatMap { g -> String? in
            guard let lat = text(g["lat"]), let lng = text(g["lng"]) else { return nil }
            return "\(lat), \(lng)"
        }
        lines += facts([("e-mail", text(o["email"])), ("phone", text(o["phone"])), ("website", text(o["website"])),
                        ("address", address), ("placed at", geo), ("company", company),
                        ("registered", text(o["registeredAt"]).map { _ in relative(o["registeredAt"], now: now) })])
        var table = Table("WHEN", "STATUS", "BY", "NOTE", cuttable: ["NOTE"])
        for entry in items(o["statusHistory"]) {
            table.add(relative(entry["at"], now: now), scalar(entry["status"]), scalar(entry["by"]), scalar(entry["note"]))
        }
        lines += ["", Terminal.paint("Status history", .bold), table.render()]
        return lines.joined(separator: "\n")
    }
}
