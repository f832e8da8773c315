import HTTPTypes
import Hummingbird
import NIOCore
import SystemCalls
import VeritrailKit

/// The log itself (server.md §4, §6): status, digest and verify for any non-customer account; the events
/// (export) for admins; the key, checkpoints and proofs for anyone (hashes only), as text or, with
/// `Accept: application/json`, as the commands' `--json` answers.
extension Routes {
    static func addLog(_ table: inout RouteTable) {
        // `now` is taken as the command line's `--now` is, and hides nothing from the log (cli.md §7): checked for
        // its form only.
        table.add(.get, "/v1/log/status") { call in
            try call.query.check(["asOf", "now", "as"])
            _ = try call.query.time("now")
            let asOf = try call.query.asOf()
            _ = try await logReader(call, asOf: asOf)
            let store = call.state.store
            return Responses.json(try await call.state.blocking { () throws(VeritrailError) in try store.logStatus(asOf: asOf) })
        }
        table.add(.get, "/v1/log/digest") { call in
            try call.query.check(["asOf", "now", "as"])
            _ = try call.query.time("now")
            let asOf = try call.query.asOf()
            _ = try await logReader(call, asOf: asOf)
            let store = call.state.store
            let head = try await call.state.blocking { () throws(VeritrailError) in try store.head(asOf: asOf) }
            return Responses.text(head.digest + "\n")
        }
        table.add(.get, "/v1/log/verify") { call in
            try call.query.check(["asOf", "digest", "now", "as"])
            _ = try call.query.time("now")
            let asOf = try call.query.asOf()
            var digest: LogDigest?
            if let text = call.query["digest"] {
                guard let value = LogDigest(text) else {
                    throw Problem.badRequest("digest must be SEQ:HASH (a seq, a colon, 64 lower-case hex digits)")
                }
                digest = value
            }
            _ = try await logReader(call, asOf: asOf)
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
            try call.query.check(["from", "to", "since", "until", "actor", "type", "as", "follow", "n", "proofs"], repeatable: ["actor", "type"])
            var filter = LogFilter()
            filter.from = try call.query.seq("from") ?? 1
            guard filter.from >= 1 else { throw Problem.badRequest("from must be at least 1") }
            if let to = try call.query.seq("to") {
                guard to >= filter.from else { throw Problem.badRequest("to must not be below from") }
                filter.through = to
            }
            (filter.since, filter.until) = try call.query.timeRange()
            filter.actors = Set(call.query.all("actor"))
            for text in call.query.all("type") {
                guard let type = EventType(rawValue: text) else {
                    throw Problem.badRequest("type must be an event type (\(EventType.choices.map(\.rawValue).joined(separator: ", "))), got \"\(text.prefix(100))\"")
                }
                filter.types.insert(type)
            }
            filter.last = try call.query.count("n", in: 1...Int(Int32.max))
            let proofs = try call.query.flag("proofs")
            _ = try await logReader(call, adminOnly: true)
            if proofs || filter.last != nil { return try await exported(filter, proofs: proofs, state: call.state) }
            return try await events(filter, state: call.state)
        }
        addProofs(&table)
    }

    /// How many seqs of the log a request reads at a time (`logWindows`): about 6 MB of the bench's events.
    static let eventsWindow: UInt64 = 1 << 14

    /// The events `filter` keeps from its `from` through `end`, read a window of `eventsWindow` seqs at a time,
    /// each on the blocking pool, each line made into bytes by `format` (with its seq when the filter keeps every
    /// seq, as a follow's backlog does): the first window read now, so that a refusal found there (an unknown
    /// actor) is still a problem with its status, and `rest` to read the others as they are sent. Gathered whole
    /// and copied, the export of a million events (476 MB) took the server to 966 MB before its first byte went
    /// out.
    static func logWindows(_ filter: LogFilter, through end: UInt64, state: ServerState,
                           format: @escaping @Sendable (_ seq: UInt64, _ line: [UInt8], _ out: inout [UInt8]) -> Void)
        async throws -> (first: [UInt8], rest: @Sendable (_ send: ([UInt8]) async throws -> Void) async throws -> Void) {
        let store = state.store
        @Sendable func window(from: UInt64) async throws -> [UInt8] {
            var window = filter
            window.from = from
            window.through = min(end, from + eventsWindow - 1)
            let kept = window
            return try await state.blocking { () throws(VeritrailError) in
                var out: [UInt8] = []
                var seq = kept.from
                try store.export(filter: kept) { line in
                    format(seq, line, &out)
                    seq += 1
                }
                return out
            }
        }
        let starts = filter.from <= end ? Array(stride(from: filter.from, through: end, by: Int(eventsWindow))) : []
        let first = try await starts.isEmpty ? [] : window(from: starts[0])
        return (first, { send in
            for from in starts.dropFirst() { try await send(try await window(from: from)) }
        })
    }

    /// `GET /v1/events` without `follow`: the events `filter` keeps, up to the head when the request came,
    /// read and sent a window at a time (`logWindows`).
    static func events(_ filter: LogFilter, state: ServerState) async throws -> Response {
        let store = state.store
        let end = try await state.blocking { () throws(VeritrailError) in min(filter.through, try store.head().seq) }
        let (first, rest) = try await logWindows(filter, through: end, state: state) { _, line, out in out += line }
        var headers = HTTPFields()
        headers[.contentType] = Responses.ndjsonType
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            if !first.isEmpty { try await writer.write(ByteBuffer(bytes: first)) }
            try await rest { bytes in if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) } }
            try await writer.finish(nil)
        })
    }

    /// `export -n N` and `export --proofs` (cli.md §8): the library's export of one snapshot, which keeps the last
    /// N and proves each event in the head's checkpoint, written to an unlinked temporary file and sent from
    /// there, so that the server holds no more than a window of it (the windows of `events` can not: the last
    /// N and the proofs are known only once every event is read).
    static func exported(_ filter: LogFilter, proofs: Bool, state: ServerState) async throws -> Response {
        let store = state.store
        let file = try await state.blocking { () throws in try exportFile(filter, proofs: proofs, store: store) }
        return try await fileResponse(file, state: state, status: .ok, type: Responses.ndjsonType)
    }

    /// The export in an unlinked temporary file, written 256 KiB at a time; closed when it fails.
    private static func exportFile(_ filter: LogFilter, proofs: Bool, store: VeritrailStore) throws -> SystemCalls.FileDescriptor {
        let file: SystemCalls.FileDescriptor
        do {
            file = try FileSystem.makeUnlinkedTemporaryFile(FileSystem.temporaryDirectory + "/veritrail-export-XXXXXX")
        } catch {
            throw VeritrailError.storeFailure(underlying: error)
        }
        do {
            var buffer: [UInt8] = []
            _ = try store.export(filter: filter, proofs: proofs) { line in
                buffer += line
                if buffer.count >= 1 << 18 {
                    try file.writeAll(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try file.writeAll(buffer)
        } catch let error as VeritrailError {
            file.close()
            throw error
        } catch {
            file.close()
            throw VeritrailError.storeFailure(underlying: error)
        }
        return file
    }

    /// Any account but a customer reads the log's status, digest and verification; only an admin its events.
    /// An `as` (an admin viewing as another) must name an account of the log as `asOf` keeps it, as the command
    /// line's `--as` must (404, exit 65: cli.md §6, "as a viewer too"); it was taken without a look.
    static func logReader(_ call: Call, asOf: AsOf? = nil, adminOnly: Bool = false) async throws -> String {
        let viewer = try await call.authenticate()
        if viewer.isCustomer { throw Problem.forbidden("\(viewer.username) is a customer: a customer reads only what concerns itself") }
        let reading = try authorize(viewer, viewing: call.query["as"], owner: nil, adminOnly: adminOnly)
        if call.query["as"] != nil {
            let store = call.state.store
            try await call.state.blocking { () throws(VeritrailError) in try store.checkViewer(reading, asOf: asOf) }
        }
        return reading
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
            guard let seq = Routes.seq(text), seq >= 1 else {
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

    /// A seq as the command line takes it: digits, after an optional `+` (`log prove +5`), at most 2^64 − 1.
    static func seq(_ text: String) -> UInt64? {
        let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 20, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return UInt64(digits)
    }

    /// Whether the client asked for the `--json` answer (`Accept: application/json`).
    static func wantsJSON(_ call: Call) -> Bool {
        call.request.headers[.accept]?.lowercased().contains("application/json") ?? false
    }
}
