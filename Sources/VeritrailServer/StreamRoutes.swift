import HTTPTypes
import Hummingbird
import NIOCore
import SystemCalls
import VeritrailKit

/// `POST /v1/scans/batch` (NDJSON or CSV, as `scan --batch`) and `POST /v1/import` (admins, NDJSON as
/// `import -`), server.md §3. The body is streamed to an unlinked temporary file as it arrives, never held
/// in memory, with import's limit on a line (413 past 1 MiB); the library then reads that file as it reads
/// `-`, with all its checks, all or nothing. A client that goes away mid-body leaves nothing written.
extension Routes {
    /// The most a streamed body may hold: far more than a day of scans, far less than a disk.
    static let streamLimit = 1 << 30

    static func addStreams(_ table: inout RouteTable) {
        table.add(.post, "/v1/scans/batch") { call in
            try call.query.check([])
            let type = call.request.headers[.contentType]?.lowercased() ?? "application/x-ndjson"
            guard type.hasPrefix("application/x-ndjson") || type.hasPrefix("text/csv") || type.hasPrefix("application/json")
                    || type.hasPrefix("text/plain") else {
                throw Problem(.badRequest, "unsupported-media-type",
                              "a batch of scans is NDJSON (application/x-ndjson) or CSV (text/csv), got \(type.prefix(100))", exitCode: 64)
            }
            let options = try writeOptions(call)
            let actor = try await call.authenticate().username
            let spooled = try await spool(call)
            defer { spooled.close() }
            let store = call.state.store
            // The library refuses a bad file as unknown input (exit 65): over HTTP, a body it can not take. Read
            // under the request's Idempotency-Key, so that a retry derives the same scan ids and finds its scans.
            let batch = try await call.state.blocking { () throws(Problem) in
                do throws(VeritrailError) {
                    return try store.readScanBatch(fileDescriptor: spooled.rawValue, name: "the body", as: actor, eventID: options.eventID)
                } catch .unknown(let message, _) {
                    throw Problem(.unprocessableContent, "rule-broken", message, exitCode: 65)
                } catch {
                    throw Problem.from(error)
                }
            }
            // The CLI's answer (server.md §3): the events and the scans whose code was seen before, kept in an
            // unlinked temporary file as it is read back, and sent from there: a batch of millions answers
            // hundreds of megabytes, never held.
            let (recorded, answer) = try await call.state.blocking { () throws in
                let recorded = try store.scan(batch: batch, as: actor, options: options)
                let answer: SystemCalls.FileDescriptor
                do {
                    answer = try FileSystem.makeUnlinkedTemporaryFile(FileSystem.temporaryDirectory + "/veritrail-answer-XXXXXX")
                } catch {
                    throw VeritrailError.storeFailure(underlying: error)
                }
                do {
                    try store.writeBatchAnswer(recorded) { bytes in
                        do { try answer.writeAll(bytes) } catch { throw VeritrailError.storeFailure(underlying: error) }
                    }
                } catch {
                    answer.close()
                    throw error
                }
                return (recorded, answer)
            }
            return try await fileResponse(answer, state: call.state, status: recorded.alreadyRecorded ? .ok : .created)
        }
        table.add(.post, "/v1/import") { call in
            try call.query.check([])
            let viewer = try await call.authenticate()
            guard viewer.isAdmin else { throw Problem.forbidden("\(viewer.username) is not an admin: only an admin imports") }
            let spooled = try await spool(call)
            defer { spooled.close() }
            let store = call.state.store
            let summary = try await call.state.blocking { () throws(VeritrailError) in
                try store.importNDJSON(fileDescriptor: spooled.rawValue)
            }
            return Responses.json(Answers.imported(summary), status: summary.appended > 0 ? .created : .ok)
        }
    }

    /// A response whose body is the whole of `file` (closed when it is sent), read a MiB at a time.
    static func fileResponse(_ file: SystemCalls.FileDescriptor, state: ServerState, status: HTTPResponse.Status,
                             type: String = Responses.jsonType) async throws -> Response {
        let size: Int
        do { size = try file.status().size } catch {
            file.close()
            throw VeritrailError.storeFailure(underlying: error)
        }
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentLength] = String(size)
        return Response(status: status, headers: headers, body: ResponseBody { writer in
            defer { file.close() }
            var offset = 0
            while offset < size {
                let from = offset
                let chunk = try await state.blocking { () throws in
                    try [UInt8](unsafeUninitializedCapacity: min(1 << 20, size - from)) { buffer, count in
                        count = try file.read(into: UnsafeMutableRawBufferPointer(buffer), at: from)
                    }
                }
                guard !chunk.isEmpty else { break }
                offset += chunk.count
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        })
    }

    /// The request's body in an unlinked temporary file in `TMPDIR` (closed by the caller), refused with 413
    /// at a line over `InputCheck`'s 1 MiB or a body over `streamLimit`, or over ¾ of the space left there, so
    /// that an endless upload never fills the disk (as `import -` spools, issue 18's defect 10).
    ///
    /// Cheap per byte, as the import after it is: NIO's buffers are kept as they come, not copied, and
    /// written with one trip to the blocking pool per `spoolWrite` bytes; a line's length is found with
    /// `memchr` (`LineLength`), not byte by byte.
    static func spool(_ call: Call) async throws -> SystemCalls.FileDescriptor {
        let state = call.state
        let directory = FileSystem.temporaryDirectory
        let (file, free) = try await state.blocking {
            (try FileSystem.makeUnlinkedTemporaryFile(directory + "/veritrail-body-XXXXXX"), try FileSystem.freeSpace(directory))
        }
        let limit = min(streamLimit, free / 4 * 3)
        do {
            var total = 0
            var line = LineLength(limit: ServerState.singleBodyLimit)
            var pending: [ByteBuffer] = []
            var pendingBytes = 0
            for try await buffer in call.request.body {
                total += buffer.readableBytes
                guard total <= limit else { throw Problem.tooLarge(limit) }
                guard buffer.withUnsafeReadableBytes({ line.fits($0) }) else {
                    throw Problem(.contentTooLarge, "too-large",
                                  "a line of the body is longer than 1 MiB, far more than any event: nothing was written", exitCode: 65)
                }
                pending.append(buffer)
                pendingBytes += buffer.readableBytes
                if pendingBytes >= spoolWrite {
                    let buffers = pending
                    pending = []
                    pendingBytes = 0
                    try await state.blocking { try write(buffers, to: file) }
                }
            }
            let buffers = pending
            try await state.blocking { try write(buffers, to: file) }
            return file
        } catch {
            file.close()
            throw error
        }
    }

    /// How much of a body is gathered before it is written to the spool: one trip to the pool for that much.
    static let spoolWrite = 4 << 20

    private static func write(_ buffers: [ByteBuffer], to file: SystemCalls.FileDescriptor) throws {
        for buffer in buffers {
            try buffer.withUnsafeReadableBytes { bytes in try file.writeAll(bytes) }
        }
    }
}

/// The length of the line a streamed body is in, checked chunk by chunk against a limit with `memchr`.
struct LineLength {
    let limit: Int
    /// Bytes since the last line end.
    private var current = 0

    init(limit: Int) { self.limit = limit }

    /// Takes the next chunk of the body; false when a line in it goes past the limit.
    mutating func fits(_ chunk: UnsafeRawBufferPointer) -> Bool {
        var position = 0
        while position < chunk.count {
            let rest = UnsafeRawBufferPointer(rebasing: chunk[position...])
            guard let newline = ByteSearch.firstIndex(of: 0x0A, in: rest) else {
                current += rest.count
                return current <= limit
            }
            guard current + newline <= limit else { return false }
            current = 0
            position += newline + 1
        }
        return true
    }
}
