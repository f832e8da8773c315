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
        if let last = call.request.headers[HTTPField.Name("Last-Event-ID")!] {
            guard let seq = UInt64(last) else { throw Problem.badRequest("Last-Event-ID must be a seq, got \"\(last.prefix(40))\"") }
            from = seq + 1
        }
        _ = try await reader(call, adminOnly: true)
        let state = call.state
        let (ticks, since) = state.follower.subscribe()
        let start = from ?? since + 1
        // The events before the stream began, up to where the stream takes over, a window at a time: a follow
        // from the first seq of a large log is not held whole either.
        let (backlog, rest) = try await logWindows(LogFilter(from: start, through: since), through: since, state: state) {
            seq, line, out in out += eventBytes(seq, line, sse: sse)
        }
        var headers = HTTPFields()
        headers[.contentType] = sse ? "text/event-stream" : Responses.ndjsonType
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            if !backlog.isEmpty { try await writer.write(ByteBuffer(bytes: backlog)) }
            try await rest { bytes in if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) } }
            for await tick in ticks {
                switch tick {
                case .growth(let growth):
                    var chunk: [UInt8] = []
                    for (seq, line) in growth.lines where seq >= start { chunk += eventBytes(seq, line, sse: sse) }
                    guard !chunk.isEmpty else { continue }
                    chunk += checkpointBytes(growth.checkpoint, sse: sse)
                    try await writer.write(ByteBuffer(bytes: chunk))
                case .heartbeat(let time):
                    try await writer.write(ByteBuffer(bytes: heartbeatBytes(time, sse: sse)))
                }
            }
            try await writer.finish(nil)
        })
    }

    static func followHeads(_ call: Call) async throws -> Response {
        try call.query.check(["follow"])
        guard call.query["follow"] == "true" else { throw Problem.badRequest("GET /v1/heads takes follow=true") }
        _ = try await call.authenticate()
        let sse = call.request.headers[.accept]?.lowercased().contains("text/event-stream") ?? false
        let (ticks, _) = call.state.follower.subscribe()
        var headers = HTTPFields()
        headers[.contentType] = sse ? "text/event-stream" : Responses.ndjsonType
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            for await tick in ticks {
                switch tick {
                case .growth(let growth):
                    let line = canonicalJSON(J.object([("seq", J.int(growth.head.seq)),
                                                        ("at", growth.head.at.map { J.string($0.description) } ?? .null)]))
                    let bytes = sse ? Array("event: head\nid: \(growth.head.seq)\ndata: ".utf8) + line + Array("\n\n".utf8) : line + [0x0A]
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
    /// lines as `data:` lines (SSE).
    static func checkpointBytes(_ note: String, sse: Bool) -> [UInt8] {
        guard sse else { return canonicalJSON(J.object([("checkpoint", J.string(note))])) + [0x0A] }
        let lines = note.split(separator: "\n", omittingEmptySubsequences: false)
        let data = (lines.last == "" ? lines.dropLast() : lines[...]).map { "data: \($0)\n" }.joined()
        return Array("event: checkpoint\n\(data)\n".utf8)
    }

    static func heartbeatBytes(_ time: Timestamp, sse: Bool) -> [UInt8] {
        sse ? Array(": heartbeat \(time)\n\n".utf8) : canonicalJSON(J.object([("heartbeat", J.string(time.description))])) + [0x0A]
    }
}
