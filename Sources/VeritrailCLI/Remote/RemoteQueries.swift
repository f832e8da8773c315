import VeritrailKit

/// The queries of cli.md §2 against a server (server.md §4): the route and parameters of each, and the
/// clock of the answer, so that the command renders the server's JSON (byte for byte its `--json`) as it
/// renders the library's. The viewer is the acting account, whose token the request carries.
extension ServerConnection {
    func answer(_ query: Query, _ clock: ClockOptions, human: Bool) throws -> Answer {
        var parameters: [(String, String)] = []
        let (path, own) = route(query, &parameters)
        if let asOf = clock.asOf { parameters.append(("asOf", asOf)) }
        // The answer's clock (projections.md §0) as the command line settles it: `--now`, else the `--as-of`
        // time or event's (the server settles it), else the command line's clock (VERITRAIL_NOW or this
        // machine's), which the server is then given.
        var now = clock.nowValue
        if now == nil, clock.asOfValue == nil { now = environmentNow() }
        if let now { parameters.append(("now", now.description)) }
        var viewerWindow: HistoryWindow?
        if human, case .history(let history) = query, history.window == nil {
            viewerWindow = try settingsWindow()
            if let viewerWindow { parameters.append(("window", viewerWindow.rawValue)) }
        }
        let reply = try asked(path + own, parameters)
        let json = reply.json
        // How many events the clock left out, which the server says in a header (cli.md §8's note).
        let hidden = reply.headers.header("Veritrail-Hidden-By-Clock").flatMap { UInt64($0) } ?? 0
        return Answer(json: json, now: try now ?? answerTime(clock.asOfValue, json), viewerWindow: viewerWindow, hiddenByClock: hidden)
    }

    /// The route of `query`, with its parameters added to `parameters`.
    private func route(_ query: Query, _ parameters: inout [(String, String)]) -> (String, String) {
        switch query {
        case .history(let h):
            if h.type != .all { parameters.append(("type", h.type.rawValue)) }
            if let window = h.window { parameters.append(("window", window.rawValue)) }
            if let category = h.category { parameters.append(("category", category)) }
            if let search = h.search { parameters.append(("search", search)) }
            if let by = h.by { parameters.append(("by", by)) }
            parameters.append(("limit", String(h.limit)))
            if h.offset != 0 { parameters.append(("offset", String(h.offset))) }
            return ("/v1/history", "")
        case .show(let scanId): return ("/v1/scans/", Percent.encode(scanId))
        case .stats(let by):
            if let by { parameters.append(("by", by)) }
            return ("/v1/stats", "")
        case .lockout(let user): return user.map { ("/v1/lockout/", Percent.encode($0)) } ?? ("/v1/lockout", "")
        case .customers(let status):
            if let status { parameters.append(("status", status.rawValue)) }
            return ("/v1/customers", "")
        case .customer(let user): return ("/v1/customers/", Percent.encode(user))
        case .goals(let user, let month):
            if let month { parameters.append(("month", month.description)) }
            return ("/v1/goals/", Percent.encode(user))
        case .accounts: return ("/v1/accounts", "")
        case .settings(let user): return ("/v1/settings/", Percent.encode(user))
        case .searches(let user): return ("/v1/searches/", Percent.encode(user))
        case .replay: return ("/v1/replay", "")
        }
    }

    /// A query's exchange: as the viewer when it has a session here; else, when another account has one, as that
    /// account viewing as the viewer (`as`: an admin's right, server.md §2), since a local query asks no passcode
    /// (cli.md §5), and an unknown viewer is then refused as a local query refuses it (65); else (that account is
    /// not an admin) signed in as the viewer.
    func asked(_ path: String, _ parameters: [(String, String)]) throws -> Reply {
        let viewer = try actingAccount()
        if try tokens.find(server: server, user: viewer) == nil,
           let other = try tokens.entries().first(where: { $0.server == server && $0.user != viewer }) {
            let reply = try send("GET", url(path, parameters + [("as", viewer)]),
                                 headers: [("Accept", "application/json"), ("Authorization", "Bearer " + other.token)])
            if reply.status < 400 { return reply }
            if reply.status != 401 && reply.status != 403 { throw problem(reply) }
        }
        return try authorized("GET", path, parameters)
    }

    /// The acting account's history window (its settings), which a `history` without `--window` shows.
    private func settingsWindow() throws -> HistoryWindow? {
        let account = try actingAccount()
        guard case .object(let o) = try asked("/v1/settings/" + Percent.encode(account), []).json,
              case .string(let text)? = o["historyWindow"] else { return nil }
        return HistoryWindow(rawValue: text)
    }

    /// The time of an answer asked `--as-of` without `--now`: the as-of time, or the time of the last kept event.
    private func answerTime(_ asOf: AsOf?, _ json: JSONValue) throws -> Timestamp {
        if case .time(let t)? = asOf { return t }
        if case .object(let o) = json, case .string(let text)? = o["now"], let t = Timestamp(text) { return t }
        guard case .seq(let seq)? = asOf,
              case .object(let status) = try asked("/v1/log/status", [("asOf", String(seq))]).json,
              case .string(let text)? = status["lastAt"], let t = Timestamp(text) else { return VeritrailStore.wallClock() }
        return t
    }
}
