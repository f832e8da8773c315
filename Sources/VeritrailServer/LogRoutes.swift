import HTTPTypes
import Hummingbird
import NIOCore
import VeritrailKit

/// The log itself (server.md §4, §6): status, digest and verify for any non-customer account; the events
/// (export) for admins; the key, checkpoints and proofs for anyone (hashes only), as text or, with
/// `Accept: application/json`, as the commands' `--json` answers.
extension Routes {
    static func addLog(_ table: inout RouteTable) {
        table.add(.get, "/v1/log/status") { call in
            try call.query.check(["asOf", "as"])
            let asOf = try call.query.asOf()
            _ = try await logReader(call)
            let store = call.state.store
            return Responses.json(try await call.state.blocking { () throws(VeritrailError) in try store.logStatus(asOf: asOf) })
        }
        table.add(.get, "/v1/log/digest") { call in
            try call.query.check(["asOf", "as"])
            let asOf = try call.query.asOf()
            _ = try await logReader(call)
            let store = call.state.store
            let head = try await call.state.blocking { () throws(VeritrailError) in try store.head(asOf: asOf) }
            return Responses.text(head.digest + "\n")
        }
        table.add(.get, "/v1/log/verify") { call in
            try call.query.check(["asOf", "digest", "as"])
            let asOf = try call.query.asOf()
            var digest: LogDigest?
            if let text = call.query["digest"] {
                guard let value = LogDigest(text) else {
                    throw Problem.badRequest("digest must be SEQ:HASH (a seq, a colon, 64 lower-case hex digits)")
                }
                digest = value
            }
            _ = try await logReader(call)
            let store = call.state.store
            let given = digest
            let outcome = try await call.state.blocking { () throws(VeritrailError) in try store.verify(digest: given, asOf: asOf) }
            return Responses.json(Answers.verification(outcome))
        }
        table.add(.get, "/v1/heads") { call in try await followHeads(call) }
        table.add(.get, "/v1/events") { call in
            if let follow = call.query["follow"] {
                guard follow == "true" || follow == "false" else { throw Problem.badRequest("follow must be true or false") }
                if follow == "true" { return try await Routes.follow(call) }
            }
            try call.query.check(["from", "to", "since", "until", "actor", "type", "as", "follow"], repeatable: ["actor", "type"])
            var filter = LogFilter()
            filter.from = try call.query.seq("from") ?? 1
            guard filter.from >= 1 else { throw Problem.badRequest("from must be at least 1") }
            if let to = try call.query.seq("to") {
                guard to >= filter.from else { throw Problem.badRequest("to must not be below from") }
                filter.through = to
            }
            filter.since = try call.query.time("since")
            filter.until = try call.query.time("until")
            filter.actors = Set(call.query.all("actor"))
            for text in call.query.all("type") {
                guard let type = EventType(rawValue: text) else {
                    throw Problem.badRequest("type must be an event type (\(EventType.choices.map(\.rawValue).joined(separator: ", "))), got \"\(text.prefix(100))\"")
                }
                filter.types.insert(type)
            }
            _ = try await reader(call, adminOnly: true)
            return try await events(filter, state: call.state)
        }
        addProofs(&table)
    }

    /// How many seqs of the log `events` reads at a time: about 6 MB of the bench's events.
    static let eventsWindow: UInt64 = 1 << 14

    /// `GET /v1/events` without `follow`: the events `filter` keeps, up to the head when the request came, read
    /// and sent a window of seqs at a time (`eventsWindow`), each window on the blocking pool. Gathered whole and
    /// copied, the export of a million events (476 MB) took the server to 966 MB before its first byte went out.
    /// The first window is read before the answer starts, so that a refusal (an unknown actor) is still a problem
    /// with its status.
    static func events(_ filter: LogFilter, state: ServerState) async throws -> Response {
        let store = state.store
        let end = try await state.blocking { () throws(VeritrailError) in min(filter.through, try store.head().seq) }
        @Sendable func window(from: UInt64) async throws -> [UInt8] {
            var window = filter
            window.from = from
            window.through = min(end, from + eventsWindow - 1)
            let kept = window
            return try await state.blocking { () throws(VeritrailError) in
                var out: [UInt8] = []
                try store.export(filter: kept) { out.append(contentsOf: $0) }
                return out
            }
        }
        let starts = filter.from <= end ? Array(stride(from: filter.from, through: end, by: Int(eventsWindow))) : []
        var first: [UInt8] = []
        if let start = starts.first { first = try await window(from: start) }
        let firstBytes = first
        var headers = HTTPFields()
        headers[.contentType] = Responses.ndjsonType
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            if !firstBytes.isEmpty { try await writer.write(ByteBuffer(bytes: firstBytes)) }
            for from in starts.dropFirst() {
                let bytes = try await window(from: from)
                if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) }
            }
            try await writer.finish(nil)
        })
    }

    /// Any account but a customer reads the log's status, digest and verification.
    static func logReader(_ call: Call) async throws -> String {
        let viewer = try await call.authenticate()
        if viewer.isCustomer { throw Problem.forbidden("\(viewer.username) is a customer: a customer reads only what concerns itself") }
        return viewer.username
    }

    static func addProofs(_ table: inout RouteTable) {
        table.add(.get, "/v1/log/key") { call in
            try call.query.check([])
            let store = call.state.store
            let key = try await call.state.blocking { () throws(VeritrailError) in try store.verifierKey() }
            return wantsJSON(call) ? Responses.json(key.json) : Responses.text(key.text + "\n")
        }
        table.add(.get, "/v1/log/checkpoint") { call in
            try call.query.check(["size"])
            let size = try call.query.seq("size")
            let store = call.state.store
            let checkpoint = try await call.state.blocking { () throws(VeritrailError) in try store.checkpoint(size: size) }
            return wantsJSON(call) ? Responses.json(checkpoint.json) : Responses.text(checkpoint.note)
        }
        table.add(.get, "/v1/log/prove/{seq}") { call in
            try call.query.check(["size"])
            let text = call.parameter("seq")
            guard text.count <= 20, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seq = UInt64(text), seq >= 1 else {
                throw Problem.badRequest("the seq must be a whole number, at least 1, got \"\(text.prefix(100))\"")
            }
            let size = try call.query.seq("size")
            let store = call.state.store
            let proof = try await call.state.blocking { () throws(VeritrailError) in try store.inclusionProof(seq: seq, size: size) }
            return wantsJSON(call) ? Responses.json(proof.json) : Responses.text(proof.text)
        }
        table.add(.get, "/v1/log/consistency") { call in
            try call.query.check(["old", "size"])
            guard let old = try call.query.seq("old") else { throw Problem.badRequest("old is needed: the older tree size") }
            let size = try call.query.seq("size")
            let store = call.state.store
            let proof = try await call.state.blocking { () throws(VeritrailError) in try store.consistencyProof(old: old, size: size) }
            return wantsJSON(call) ? Responses.json(proof.json) : Responses.text(proof.text)
        }
    }

    /// Whether the client asked for the `--json` answer (`Accept: application/json`).
    static func wantsJSON(_ call: Call) -> Bool {
        call.request.headers[.accept]?.lowercased().contains("application/json") ?? false
    }
}
