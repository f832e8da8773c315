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
                throw Problem(.unsupportedMediaType, "unsupported-media-type",
                              "a batch of scans is NDJSON (application/x-ndjson) or CSV (text/csv), got \(type.prefix(100))", exitCode: 64)
            }
            let options = try writeOptions(call)
            let actor = try await call.authenticate().username
            let spooled = try await spool(call)
            defer { spooled.close() }
            let store = call.state.store
            // The library refuses a bad file as unknown input (exit 65): over HTTP, a body it can not take.
            let batch = try await call.state.blocking { () throws(Problem) in
                do throws(VeritrailError) {
                    return try store.readScanBatch(fileDescriptor: spooled.rawValue, name: "the body", as: actor)
                } catch .unknown(let message, _) {
                    throw Problem(.unprocessableContent, "rule-broken", message, exitCode: 65)
                } catch {
                    throw Problem.from(error)
                }
            }
            // The CLI's answer (server.md §3): the events and the scans whose code was seen before.
            let (appended, seen) = try await call.state.blocking { () throws(VeritrailError) in
                let appended = try store.scan(batch: batch, as: actor, options: options)
                return (appended, Answers.alreadyRecorded(appended) ? [] : try store.seenBefore(inBatch: appended))
            }
            let isNew = appended.isEmpty || appended.contains(where: \.isNew)
            return Responses.json(Answers.batch(appended, seen: seen), status: isNew ? .created : .ok)
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

    /// The request's body in an unlinked temporary file in `TMPDIR` (closed by the caller), refused with 413
    /// at a line over `InputCheck`'s 1 MiB or a body over `streamLimit`, or over ¾ of the space left there, so
    /// that an endless upload never fills the disk (as `import -` spools, issue 18's defect 10).
    static func spool(_ call: Call) async throws -> SystemCalls.FileDescriptor {
        let state = call.state
        let directory = FileSystem.temporaryDirectory
        let (file, free) = try await state.blocking {
            (try FileSystem.makeUnlinkedTemporaryFile(directory + "/veritrail-body-XXXXXX"), try FileSystem.freeSpace(directory))
        }
        let limit = min(streamLimit, free / 4 * 3)
        do {
            var total = 0
            var line = 0
            let lineLimit = ServerState.singleBodyLimit
            for try await buffer in call.request.body {
                total += buffer.readableBytes
                guard total <= limit else { throw Problem.tooLarge(limit) }
                for byte in buffer.readableBytesView {
                    if byte == 0x0A { line = 0 } else { line += 1 }
                    if line > lineLimit {
                        throw Problem(.contentTooLarge, "too-large",
                                      "a line of the body is longer than 1 MiB, far more than any event: nothing was written", exitCode: 65)
                    }
                }
                let bytes = Array(buffer.readableBytesView)
                try await state.blocking { try file.writeAll(bytes) }
            }
            return file
        } catch {
            file.close()
            throw error
        }
    }
}
