import HTTPTypes
import Hummingbird
import NIOCore
import VeritrailKit

/// Following the log (server.md §5): `GET /v1/events?follow=true` (admins) sends the events from `from`
/// (default: the head + 1), then each commit's events and its signed checkpoint as they come, as NDJSON
/// or server-sent events (`Accept: text/event-stream`, resumed after `Last-Event-ID`); `GET
/// /v1/heads?follow=true` (any account) sends `{"seq", "at"}` after each commit.
extension Routes {
    static func follow(_ call: Call) async throws -> Response {
        try call.query.check(["follow", "from", "as"])
        let sse = call.request.headers[.accept]?.lowercased().contains("text/event-stream") ?? false
        var from = try call.query.seq("from")
        if from == 0 { throw Problem.badRequest("from must be at least 1") }
        if let last = call.request.headers[HTTPField.Name("Last-Event-ID")!] {
            guard let seq = UInt64(last) else { throw Problem.badRequest("Last-Event-ID must be a seq, got \"\(last.prefix(40))\"") }
            // After the largest seq there is none: the stream waits (an overflow here ended the server).
            from = seq == .max ? seq : seq + 1
        }
        _ = try await logReader(call, adminOnly: true)
        let token = try call.bearerToken()
        let state = call.state
        let subscription = state.follower.subscribe()
        call.connectionClosed.whenComplete { _ in state.follower.end(subscription) }
        let since = subscription.since
        // The head the request finds, not the last one the follower told of: a commit of the last 20 ms, which
        // the follower tells of next, is before the stream, and a client that read the head would get it twice.
        let head = try await state.blocking { () throws(VeritrailError) in try state.store.head().seq }
        let start = from ?? head + 1
        // The events before the stream began, up to where the stream takes over, a window at a time: a follow
        // from the first seq of a large log is not held whole either.
        let (backlog, rest) = try await logWindows(LogFilter(from: start, through: since), through: since, state: state) {
            seq, line, out in out += eventBytes(seq, line, sse: sse)
        }
        // A backlog ends with the signed checkpoint of its last event when a commit ends there, as each commit's
        // events do (one checkpoint for the whole backlog: not one for each commit it spans). When the follower is
        // amid a large commit's slices, the rest of the commit follows, then its checkpoint.
        var lastCheckpoint: String?
        if start <= since {
            lastCheckpoint = try await state.blocking { () throws(VeritrailError) -> String? in
                let endsCommit = since == head ? true : try state.store.firstCommit(after: since - 1, through: since) != nil
                return endsCommit ? try state.store.checkpoint(size: since).note : nil
            }
        }
        let backlogCheckpoint = lastCheckpoint
        var headers = HTTPFields()
        headers[.contentType] = sse ? "text/event-stream" : Responses.ndjsonType
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name(ConnectionEdges.endlessMark)!] = "1"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            if !backlog.isEmpty { try await writer.write(ByteBuffer(bytes: backlog)) }
            try await rest { bytes in if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) } }
            if let backlogCheckpoint { try await writer.write(ByteBuffer(bytes: checkpointBytes(backlogCheckpoint, sse: sse))) }
            for await tick in subscription.ticks {
                defer { state.follower.sent(tick, on: subscription) }
                guard await sessionHolds(token, state: state) else { break }
                switch tick {
                case .growth(let growth):
                    var chunk: [UInt8] = []
                    for (seq, line) in growth.lines where seq >= start { chunk += eventBytes(seq, line, sse: sse) }
                    guard !chunk.isEmpty else { continue }
                    // Only a commit's end has its checkpoint: a slice of a large commit has none.
                    if let checkpoint = growth.checkpoint { chunk += checkpointBytes(checkpoint, sse: sse) }
                    try await writer.write(ByteBuffer(bytes: chunk))
                case .heartbeat(let time):
                    try await writer.write(ByteBuffer(bytes: heartbeatBytes(time, sse: sse)))
                }
            }
            try await writer.finish(nil)
        })
    }

    /// Whether the session of a stream's token still holds (server.md §2): a lock, a new passcode, the
    /// account's deletion, a sign-out and its 15 minutes each end it at once, for a stream as for a request.
    /// Asked before each thing a stream sends, so that nothing reaches it after; when it no longer holds, the
    /// stream ends, and a client asking again is refused with 401.
    static func sessionHolds(_ token: String, state: ServerState) async -> Bool {
        let viewer = try? await state.blocking { () throws(Problem) in try state.sessions.viewer(forToken: token, store: state.store) }
        return viewer != nil
    }

    static func followHeads(_ call: Call) async throws -> Response {
        try call.query.check(["follow"])
        guard call.query["follow"] == "true" else { throw Problem.badRequest("GET /v1/heads takes follow=true") }
        _ = try await call.authenticate()
        let token = try call.bearerToken()
        let state = call.state
        let sse = call.request.headers[.accept]?.lowercased().contains("text/event-stream") ?? false
        let subscription = state.follower.subscribe()
        call.connectionClosed.whenComplete { _ in state.follower.end(subscription) }
        var headers = HTTPFields()
        headers[.contentType] = sse ? "text/event-stream" : Responses.ndjsonType
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name(ConnectionEdges.endlessMark)!] = "1"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            for await tick in subscription.ticks {
                defer { state.follower.sent(tick, on: subscription) }
                guard await sessionHolds(token, state: state) else { break }
                switch tick {
                case .growth(let growth):
                    // A growth that ends no commit (a slice of a large one) has no head to tell.
                    guard let head = growth.head else { continue }
                    let line = canonicalJSON(J.object([("seq", J.int(head.seq)),
                                                        ("at", head.at.map { J.string($0.description) } ?? .null)]))
                    let bytes = sse ? Array("event: head\nid: \(head.seq)\ndata: ".utf8) + line + Array("\n\n".utf8) : line + [0x0A]
                    try await writer.write(ByteBuffer(bytes: bytes))
                case .heartbeat(let time):
                    try await writer.write(ByteBuffer(bytes: heartbeatBytes(time, sse: sse)))
                }
            }
            try await writer.finish(nil)
        })
    }

    /// One event: its out-form line (NDJSON), or `event: event`, `id: SEQ`, `data: LINE` (SSE).
    static func eventBytes(_ seq: UInt64, _ line: [UInt8], sse: Bool) -> [UInt8] {
        guard sse else { return line }
        let body = line.last == 0x0A ? Array(line.dropLast()) : line
        return Array("event: event\nid: \(seq)\ndata: ".utf8) + body + Array("\n\n".utf8)
    }

    /// A commit's signed checkpoint: `{"checkpoint": NOTE}` (NDJSON), or `event: checkpoint` with the note's
    /// lines as `data:` lines (SSE), the empty line after its final newline included: a client joins the data
    /// lines with newlines, so the note it reads ends with its newline, as a signed note must (proofs.md §2).
    static func checkpointBytes(_ note: String, sse: Bool) -> [UInt8] {
        guard sse else { return canonicalJSON(J.object([("checkpoint", J.string(note))])) + [0x0A] }
        let data = note.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined()
        return Array("event: checkpoint\n\(data)\n".utf8)
    }

    static func heartbeatBytes(_ time: Timestamp, sse: Bool) -> [UInt8] {
        sse ? Array(": heartbeat \(time)\n\n".utf8) : canonicalJSON(J.object([("heartbeat", J.string(time.description))])) + [0x0A]
    }
}
