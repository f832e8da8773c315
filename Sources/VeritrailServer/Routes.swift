import HTTPTypes
import Hummingbird
import VeritrailKit

/// Every route of server.md, by section; each file of `*Routes.swift` adds its own.
enum Routes {
    static func all() -> RouteTable {
        var table = RouteTable()
        addHealth(&table)
        addSessions(&table)
        addReads(&table)
        addLog(&table)
        addWrites(&table)
        addStreams(&table)
        addTiles(&table)
        addStatic(&table)
        return table
    }

    /// `GET /v1/health`: `{"ok": true, "head": SEQ, "origin": "..."}`, without a token (§1).
    static func addHealth(_ table: inout RouteTable) {
        table.add(.get, "/v1/health") { call in
            try call.query.check([])
            let store = call.state.store
            let (head, status) = try await call.state.blocking { () throws(VeritrailError) in (try store.head(), try store.logStatus()) }
            var members: [(String, JSONValue)] = [("ok", .bool(true)), ("head", J.int(head.seq))]
            if let origin = status["origin"] { members.append(("origin", origin)) }
            return Responses.json(J.object(members))
        }
        table.add(.get, "/metrics") { call in
            try call.query.check([])
            let state = call.state
            return Responses.bytesResponse(state.metrics.text(head: state.follower.head, streams: state.follower.count),
                                           type: "text/plain; version=0.0.4; charset=utf-8")
        }
        table.add(.get, "/v1/openapi.json") { call in
            try call.query.check([])
            return Responses.bytesResponse(OpenAPIDocument.bytes, type: Responses.jsonType)
        }
    }
}

/// Query parameters in the command line's forms (projections.md §0), refused in its words (400).
extension QueryParameters {
    func asOf() throws(Problem) -> AsOf? {
        guard let text = self["asOf"] else { return nil }
        guard let value = AsOf(text) else {
            throw Problem.badRequest("asOf must be a seq (digits) or a time (\(Timestamp.typedForms)), got \"\(text.prefix(100))\"")
        }
        return value
    }

    /// A time as the command line takes it (cli.md §8: a date alone, an offset, a space for the `T`).
    func time(_ name: String) throws(Problem) -> Timestamp? {
        guard let text = self[name] else { return nil }
        guard let value = Timestamp(typed: text) else {
            throw Problem.badRequest("\(name) must be a time (\(Timestamp.typedForms)), got \"\(text.prefix(100))\"")
        }
        return value
    }

    /// A whole number in `range`, with the `+` the command line's options take too (`--limit +5`).
    /// `since` and `until` as `time` reads them; the one after the other is 400, as on the command line (cli.md §8).
    func timeRange() throws(Problem) -> (since: Timestamp?, until: Timestamp?) {
        let since = try time("since"), until = try time("until")
        do {
            try ReversedRange.check(since.map { ("since", $0) }, until.map { ("until", $0) })
        } catch {
            throw Problem.badRequest(error.description)
        }
        return (since, until)
    }

    func count(_ name: String, in range: ClosedRange<Int>) throws(Problem) -> Int? {
        guard let given = self[name] else { return nil }
        let text = given.hasPrefix("+") ? String(given.dropFirst()) : given
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw Problem.badRequest("\(name) must be a whole number \(range.lowerBound)–\(range.upperBound), got \"\(text.prefix(100))\"")
        }
        let value = Int(text) ?? Int.max
        guard range.contains(value) else {
            throw Problem.badRequest("\(name) must be \(range.lowerBound)–\(range.upperBound), got \(text.prefix(30))")
        }
        return value
    }

    func seq(_ name: String) throws(Problem) -> UInt64? {
        guard let text = self[name] else { return nil }
        guard let value = Routes.seq(text) else { throw Problem.badRequest("\(name) must be a seq (digits), got \"\(text.prefix(100))\"") }
        return value
    }

    func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws(Problem) -> T? where T.RawValue == String {
        try choice(name, T.allCases.map(\.rawValue)).map { T(rawValue: $0)! }
    }

    /// A switch of the command line (`--proofs`): `true` or `false`, absent is false.
    func flag(_ name: String) throws(Problem) -> Bool {
        guard let text = self[name] else { return false }
        guard text == "true" || text == "false" else { throw Problem.badRequest("\(name) must be true or false, got \"\(text.prefix(40))\"") }
        return text == "true"
    }

    /// `status` in any case, as `customers --status` takes it.
    func customerStatus() throws(Problem) -> CustomerStatus? {
        guard let text = self["status"] else { return nil }
        guard let status = CustomerStatus(rawValue: text.uppercased()) else {
            let names = CustomerStatus.choices.map(\.rawValue).joined(separator: ", ")
            throw Problem.badRequest("status must be one of \(names) (in any case), got \"\(text.prefix(100))\"")
        }
        return status
    }

    func choice<T: Choice>(_ name: String, _ type: T.Type) throws(Problem) -> T? where T.RawValue == String {
        try choice(name, T.choices.map(\.rawValue)).map { T(rawValue: $0)! }
    }

    /// The parameter when it is one of `names`.
    private func choice(_ name: String, _ names: [String]) throws(Problem) -> String? {
        guard let text = self[name] else { return nil }
        guard names.contains(text) else {
            throw Problem.badRequest("\(name) must be one of \(names.joined(separator: ", ")), got \"\(text.prefix(100))\"")
        }
        return text
    }
}
