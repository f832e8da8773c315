import Foundation
import SystemCalls
import VeritrailKit

/// `scan --batch FILE` and `import FILE` against a server (server.md §3): the file (or stdin) streamed as
/// the request's body, 1 MiB at a time, with the progress bar counting what was sent; the server checks
/// it all and writes all or nothing.
extension ServerConnection {
    /// Streams `path` (`-`: stdin) to `route` as the acting account, and gives back the server's answer.
    func upload(_ path: String, to route: String, contentType: String, label: String, showProgress: Bool,
                eventID: String? = nil) throws -> JSONValue {
        let file: FileDescriptor
        if path == "-" {
            file = FileDescriptor.standardInput
        } else {
            do { file = try FileDescriptor.open(path, .readOnly, options: .closeOnExec) } catch {
                throw Failure.refused("can not read \(path): \(error.reason)")
            }
        }
        defer { if path != "-" { file.close() } }
        let total = path == "-" ? 0 : ((try? file.status().size) ?? 0)
        let account = try actingAccount()
        var entry = try tokens.find(server: server, user: account)
        if entry == nil { entry = try signIn(account) }
        let sender = FileSender(file: file, bar: Progress(label: label, total: total, unit: "", enabled: showProgress && Output.stderrIsTerminal))
        defer { sender.bar.finish() }
        var headers = [("Content-Type", contentType), ("Accept", "application/json"), ("Authorization", "Bearer " + entry!.token)]
        if let eventID { headers.append(("Idempotency-Key", eventID)) }
        // No time-out while the body is sent: a large file takes what it takes; the server answers when it has all.
        let reply = try send("POST", url(route), headers: headers, body: .stream({ try sender.next() }), timeout: nil)
        if let failure = sender.failure { throw failure }
        guard reply.status < 400 else { throw problem(reply) }
        return reply.json
    }
}

/// Reads the uploaded file chunk by chunk for the transport, counting on the progress bar. Each chunk is read
/// straight into the array handed on (no copy), `chunkSize` at a time: a few hundred reads for a large log.
private final class FileSender: @unchecked Sendable {
    static let chunkSize = 4 << 20
    let file: FileDescriptor
    let bar: Progress
    private var sent = 0
    private(set) var failure: Failure?

    init(file: FileDescriptor, bar: Progress) {
        self.file = file
        self.bar = bar
    }

    func next() throws -> [UInt8]? {
        var error: SystemError?
        let chunk = [UInt8](unsafeUninitializedCapacity: FileSender.chunkSize) { buffer, count in
            do throws(SystemError) {
                count = try file.read(into: UnsafeMutableRawBufferPointer(buffer))
            } catch let e {
                error = e
                count = 0
            }
        }
        if let error {
            failure = Failure.refused("can not read the file: \(error.reason)")
            throw failure!
        }
        guard !chunk.isEmpty else { return nil }
        sent += chunk.count
        bar.tick(sent)
        return chunk
    }
}

extension ServerConnection {
    /// The batch id of a batch just written: the newest scan of the acting account carries it.
    func batchId(of appended: [AppendedEvent]) throws -> String {
        guard !appended.isEmpty else { return "" }
        let account = try actingAccount()
        let answer = try authorized("GET", "/v1/history", [("by", account), ("window", "all"), ("limit", "1")]).json
        guard case .array(let items)? = answer["items"], let batchId = items.first?["batchId"]?.stringValue else { return "" }
        return batchId
    }
}
