import HTTPTypes
import Hummingbird
import VeritrailKit

/// The queries of cli.md §2 as `GET` routes (server.md §4): the same library call the command line makes,
/// the same JSON, byte for byte. The viewer is the token's account; an admin may view as another (`as`).
extension Routes {
    static func addReads(_ table: inout RouteTable) {
        let clock: Set<String> = ["asOf", "now", "as"]
        table.add(.get, "/v1/history") { call in
            try call.query.check(clock.union(["type", "window", "category", "search", "by", "limit", "offset"]))
            var query = HistoryQuery()
            query.type = try call.query.choice("type", HistoryQuery.ResultFilter.self) ?? .all
            query.window = try call.query.choice("window", HistoryWindow.self)
            query.category = call.query["category"]
            query.search = call.query["search"]
            query.by = call.query["by"]
            query.limit = try call.query.count("limit", in: 1...1000) ?? 50
            query.offset = try call.query.count("offset", in: 0...Int.max) ?? 0
            return try await answer(call, .history(query))
        }
        table.add(.get, "/v1/scans/{scanId}") { call in
            try call.query.check(clock)
            return try await answer(call, .show(scanId: call.parameter("scanId")))
        }
        table.add(.get, "/v1/stats") { call in
            try call.query.check(clock.union(["by"]))
            return try await answer(call, .stats(by: call.query["by"]))
        }
        table.add(.get, "/v1/lockout") { call in
            try call.query.check(clock)
            return try await answer(call, .lockout(nil))
        }
        table.add(.get, "/v1/lockout/{user}") { call in
            try call.query.check(clock)
            return try await answer(call, .lockout(call.parameter("user")), owner: call.parameter("user"))
        }
        table.add(.get, "/v1/customers") { call in
            try call.query.check(clock.union(["status"]))
            return try await answer(call, .customers(status: try call.query.customerStatus()))
        }
        table.add(.get, "/v1/customers/{user}") { call in
            try call.query.check(clock)
            return try await answer(call, .customer(call.parameter("user")), owner: call.parameter("user"))
        }
        table.add(.get, "/v1/goals/{user}") { call in
            try call.query.check(clock.union(["month"]))
            var month: Month?
            if let text = call.query["month"] {
                guard let value = Month(text) else { throw Problem.badRequest("month must be YYYY-MM, got \"\(text.prefix(100))\"") }
                month = value
            }
            return try await answer(call, .goals(call.parameter("user"), month: month), owner: call.parameter("user"))
        }
        table.add(.get, "/v1/accounts") { call in
            try call.query.check(clock)
            return try await answer(call, .accounts)
        }
        table.add(.get, "/v1/settings/{user}") { call in
            try call.query.check(clock)
            return try await answer(call, .settings(call.parameter("user")), owner: call.parameter("user"))
        }
        table.add(.get, "/v1/searches/{user}") { call in
            try call.query.check(clock)
            return try await answer(call, .searches(call.parameter("user")), owner: call.parameter("user"))
        }
        table.add(.get, "/v1/replay") { call in
            try call.query.check(clock)
            return try await answer(call, .replay, adminOnly: true)
        }
        table.add(.get, "/v1/diff") { call in
            try call.query.check(["from", "to", "as"])
            guard let fromText = call.query["from"] else { throw Problem.badRequest("from is needed: a seq (digits), a time or a digest SEQ:HASH") }
            // A digest written down earlier (cli.md §8, `diff --from SEQ:HASH`) is checked against the log first.
            let digest = LogDigest(fromText)
            guard let from = digest.map({ AsOf.seq($0.seq) }) ?? AsOf(fromText) else {
                throw Problem.badRequest("from must be a seq (digits), a time like 2026-11-20T09:00:00Z or a digest SEQ:HASH, got \"\(fromText.prefix(100))\"")
            }
            var to: AsOf?
            if let toText = call.query["to"] {
                guard let value = AsOf(toText) else {
                    throw Problem.badRequest("to must be a seq (digits) or a time like 2026-11-20T09:00:00Z, got \"\(toText.prefix(100))\"")
                }
                to = value
            }
            let viewer = try await reader(call, adminOnly: true)
            let store = call.state.store
            let end = to
            let json = try await call.state.blocking { () throws(VeritrailError) in
                if let digest { return try store.diff(fromDigest: digest, to: end, viewer: viewer) }
                return try store.diff(from: from, to: end, viewer: viewer)
            }
            return Responses.json(json)
        }
    }

    /// The account a read is made as: the token's, or for an admin `?as=USER`. A customer reads only what
    /// concerns itself (`owner`, its own username), and `adminOnly` reads are an admin's (server.md §2).
    static func reader(_ call: Call, owner: String? = nil, adminOnly: Bool = false) async throws -> String {
        try authorize(try await call.authenticate(), viewing: call.query["as"], owner: owner, adminOnly: adminOnly)
    }

    /// The header that says how many events `now` left out of an answer.
    static let hiddenByClock = "Veritrail-Hidden-By-Clock"

    /// "Who reads what" for `viewer`, asking to view as `other` (`?as=`).
    static func authorize(_ viewer: Viewer, viewing other: String?, owner: String?, adminOnly: Bool) throws(Problem) -> String {
        if adminOnly && !viewer.isAdmin { throw Problem.forbidden("\(viewer.username) is not an admin: only an admin reads this") }
        if viewer.isCustomer && owner != viewer.username {
            throw Problem.forbidden("\(viewer.username) is a customer: a customer reads only its own customer record, goals, settings, searches and lockout")
        }
        if let other, other != viewer.username {
            guard viewer.isAdmin else { throw Problem.forbidden("\(viewer.username) is not an admin: only an admin views as another account (as)") }
            return other
        }
        return viewer.username
    }

    /// Answers `query` through the library as `--json` does, as of `asOf` and `now`: the session checked and
    /// the query answered in one call on the pool, the hot path of every screen. How many events of the log
    /// `now` left out (cli.md §8) goes in the header `Veritrail-Hidden-By-Clock` when there are any, so that
    /// `--server` tells them as a local query does.
    static func answer(_ call: Call, _ query: Query, owner: String? = nil, adminOnly: Bool = false) async throws -> Response {
        let asOf = try call.query.asOf()
        let now = try call.query.time("now")
        let token = try call.bearerToken()
        let other = call.query["as"]
        let state = call.state
        let (user, answer) = try await state.blocking { () throws(Problem) -> (String, Answer) in
            let viewer = try state.sessions.viewer(forToken: token, store: state.store)
            call.user = viewer.username
            let reader = try authorize(viewer, viewing: other, owner: owner, adminOnly: adminOnly)
            do throws(VeritrailError) {
                return (viewer.username, try state.store.answer(query, viewer: reader, asOf: asOf, now: now))
            } catch {
                throw Problem.from(error)
            }
        }
        call.user = user
        var response = Responses.json(answer.json)
        if answer.hiddenByClock > 0 { response.headers[HTTPField.Name(hiddenByClock)!] = String(answer.hiddenByClock) }
        return response
    }
}
