import HTTPTypes
import Hummingbird
import NIOCore
import VeritrailKit

/// Every body the server sends is made here: JSON as the command line prints it with `--json` (canonical,
/// one line end), text, NDJSON, and problems (server.md §1, §7).
enum Responses {
    static let jsonType = "application/json"
    static let textType = "text/plain; charset=utf-8"
    static let ndjsonType = "application/x-ndjson"
    static let problemType = "application/problem+json"

    /// `value` as the command line's `--json` prints it, byte for byte.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        var bytes = canonicalJSON(value)
        bytes.append(0x0A)
        return bytesResponse(bytes, type: jsonType, status: status)
    }

    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        bytesResponse(Array(text.utf8), type: textType, status: status)
    }

    static func bytesResponse(_ bytes: [UInt8], type: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentLength] = String(bytes.count)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An RFC 9457 problem: `{"type", "title", "status", "detail", "exitCode"}`, with `Retry-After` and,
    /// for 401, `WWW-Authenticate: Bearer`.
    static func problem(_ problem: Problem) -> Response {
        var response = bytesResponse(problemBody(problem), type: problemType, status: problem.status)
        if let seconds = problem.retryAfter { response.headers[.retryAfter] = String(max(1, seconds)) }
        if problem.status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        if let allow = problem.allow { response.headers[.allow] = allow }
        return response
    }

    /// A problem's body, canonical JSON and a line end.
    static func problemBody(_ problem: Problem) -> [UInt8] {
        var bytes = canonicalJSON(J.object([
            ("type", J.string("https://veritrail.invalid/problems/\(problem.kind)")),
            ("title", J.string(problem.status.reasonPhrase)),
            ("status", J.int(problem.status.code)),
            ("detail", J.string(problem.detail)),
            ("exitCode", J.int(problem.exitCode)),
        ]))
        bytes.append(0x0A)
        return bytes
    }
}
