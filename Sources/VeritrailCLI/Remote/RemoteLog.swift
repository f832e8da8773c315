import ArgumentParser
import SystemCalls
import VeritrailKit

/// The log commands against a server (server.md §4, §6): status, digest and verify as their routes answer
/// them, and the events (`export`, `log tail`) as the NDJSON of `GET /v1/events`, read as it arrives.
extension ServerConnection {
    /// `GET /v1/events` with `log tail`'s and `export`'s filters, cut at `--as-of`: each out-form line
    /// (with its line end) handed to `line` as it arrives.
    func events(_ filter: LogFilterOptions, asOf: AsOf?, adding extra: [(String, String)] = [], line: ([UInt8]) throws -> Void) throws {
        var parameters: [(String, String)] = extra
        var through = filter.to
        var until = filter.until
        switch asOf {
        case .seq(let seq)?: through = min(through ?? .max, seq)
        case .time(let t)?: until = min(until.flatMap { Timestamp($0) } ?? t, t).description
        case nil: break
        }
        if through == 0 { return }
        if filter.from != 1 { parameters.append(("from", String(filter.from))) }
        if let through { parameters.append(("to", String(through))) }
        if let since = filter.since { parameters.append(("since", since)) }
        if let until { parameters.append(("until", until)) }
        parameters += filter.actors.map { ("actor", $0) } + filter.types.map { ("type", $0) }
        try streamLines("/v1/events", parameters, line: line)
    }

    /// A GET whose answer is NDJSON, each complete line handed on as it arrives; a refusal is thrown.
    func streamLines(_ path: String, _ parameters: [(String, String)], timeout: Int64? = ServerConnection.timeout,
                     line: ([UInt8]) throws -> Void) throws {
        let account = try actingAccount()
        var entry = try tokens.find(server: server, user: account)
        if entry == nil { entry = try signIn(account) }
        var signedIn = false
        while true {
            var pending: [UInt8] = []
            let request = RemoteRequest(method: "GET", url: url(path, parameters),
                                        headers: [("Accept", "application/x-ndjson"), ("Authorization", "Bearer " + entry!.token)],
                                        body: nil, timeout: timeout)
            let head = try exchange(request) { head, chunk in
                pending += chunk
                guard head.status < 400 else { return pending.count < 1 << 20 }
                while let end = pending.firstIndex(of: 0x0A) {
                    try line(Array(pending[...end]))
                    pending.removeSubrange(...end)
                }
                guard pending.count <= 1 << 24 else { throw Failure(code: Failure.storeFailed, message: "\(server) sent a line over 16 MiB") }
                return true
            }
            if head.status == 401, !signedIn {
                entry = try signIn(account, because: .ended)
                signedIn = true
                continue
            }
            if head.status >= 400 { throw problem(Reply(status: head.status, headers: head, body: pending)) }
            return
        }
    }
}

extension ServerConnection {
    /// `log tail` against the server: the last `last` events that match, each line as `log tail --json`
    /// prints it, or the event decoded for the human table. Read from the end back, in windows of seqs
    /// (`LogFilter.windowsBack`, each a `GET /v1/events` with `from` and `to`) until `last` match, so that it
    /// costs about what it prints: reading the whole log for its last three took 2.8 s at a million events.
    /// The windows start at the last seq the bounds keep: `--to`, `--as-of SEQ`, else the head of the log as of
    /// `--until` or `--as-of TIME` (`GET /v1/log/status?asOf=`), or the head.
    func tail(_ filter: LogFilterOptions, last: Int, asOf: AsOf?, line: ([UInt8]) throws -> Void) throws {
        var upper = filter.to ?? .max
        var until = filter.untilTime
        switch asOf {
        case .seq(let seq)?: upper = min(upper, seq)
        case .time(let t)?: until = min(until ?? t, t)
        case nil: break
        }
        if upper == .max || until != nil {
            let status = try authorized("GET", "/v1/log/status", until.map { [("asOf", $0.description)] } ?? [])
            upper = min(upper, UInt64(status.json["head"]?["seq"]?.intValue ?? 0))
        }
        var kept: [[UInt8]] = []
        for seqs in LogFilter.windowsBack(from: upper, to: filter.from, first: last) {
            var window = filter
            window.from = seqs.lowerBound
            window.to = seqs.upperBound
            var lines: [[UInt8]] = []
            try events(window, asOf: asOf) { lines.append($0) }
            kept = lines + kept
            if kept.count >= last { break }
        }
        for bytes in kept.suffix(last) { try line(bytes) }
    }

    /// One out-form line as the event it holds, with its seq.
    static func logged(_ line: [UInt8]) throws -> (seq: UInt64, event: Event) {
        guard let incoming = try? EventJSON.decode(JSONValue.parse(line)), let seq = incoming.claimedSeq, let id = incoming.id else {
            throw Failure(code: Failure.storeFailed, message: "the server sent an event line that is not in the out form")
        }
        return (seq, Event(id: id, at: incoming.at, actor: incoming.actor, payload: incoming.payload))
    }
}

extension ServerConnection {
    /// `log verify` against the server: its answer as `--json`, or the line `log verify` prints; a broken
    /// chain is exit 65 as on a local store.
    func verify(digest: String?, asOf: String?, json: Bool) throws {
        var parameters: [(String, String)] = []
        if let asOf { parameters.append(("asOf", asOf)) }
        if let digest { parameters.append(("digest", digest)) }
        let answer = try authorized("GET", "/v1/log/verify", parameters).json
        if json { Output.json(answer) }
        guard answer["ok"] == .bool(true) else {
            if !json { Output.print("broken at seq \(answer["firstBadSeq"]?.intValue ?? 0): \(answer["reason"]?.stringValue ?? "")") }
            throw ExitCode(Failure.refused)
        }
        guard !json else { return }
        let events = answer["events"]?.intValue ?? 0
        let headSeq = answer["head"]?["seq"]?.intValue ?? 0
        var line = "ok: \(events) event\(events == 1 ? "" : "s") verified"
        if asOf != nil { line += " (the log as of seq \(headSeq))" }
        line += "; head \(headSeq):\(answer["head"]?["hash"]?.stringValue ?? "")"
        if let digest { line += ", and the digest \(digest) matches" }
        Output.print(line)
    }
}

extension ServerConnection {
    /// `export` against the server: the events of `GET /v1/events` (the last `-n` of them when given), on
    /// stdout or in `output` (created 0600, only once the server has accepted the request). As a local export: a
    /// file that can not be made is refused (65), a write to it that fails (a full disk) is 74.
    func export(_ filter: LogFilterOptions, to output: String?, proofs: Bool) throws {
        var file: FileDescriptor?
        defer { file?.close() }
        let out = BufferedOutput(fd: 1)
        func write(_ line: [UInt8]) throws {
            if let path = output, path != "-" {
                if file == nil {
                    do {
                        file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: 0o600)
                    } catch {
                        throw Failure.refused("can not write \(path): \(error.reason)")
                    }
                }
                do { try file!.writeAll(line) } catch { throw Failure(code: Failure.storeFailed, message: "can not write the output file: \(error.reason)") }
            } else {
                out.append(line)
            }
        }
        if proofs {
            // The server's export of one snapshot: the last N, the head's checkpoint and each event's proof in it.
            try events(filter, asOf: nil, adding: [("proofs", "true")] + (filter.n.map { [("n", String($0))] } ?? []), line: write)
        } else if let n = filter.n {
            try tail(filter, last: n, asOf: nil, line: write)
        } else {
            try events(filter, asOf: nil, line: write)
        }
        if let path = output, path != "-", file == nil {
            do { try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: 0o600).close() } catch {
                throw Failure.refused("can not write \(path): \(error.reason)")
            }
        }
        out.flush()
    }
}

extension ServerConnection {
    /// The key, a checkpoint or a proof (server.md §6, public: no token): the text the command prints, or
    /// with `json` its `--json` answer.
    func proof(_ path: String, _ parameters: [(String, String)], json: Bool) throws {
        let reply = try send("GET", url(path, parameters), headers: [("Accept", json ? "application/json" : "text/plain")])
        guard reply.status < 400 else { throw problem(reply) }
        if json { Output.json(reply.json) } else { Output.write(reply.body) }
    }
}
