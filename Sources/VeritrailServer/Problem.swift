import HTTPTypes
import VeritrailKit

extension HTTPResponse.Status {
    /// 423 (RFC 4918), which HTTPTypes does not name.
    static let lockedOut = HTTPResponse.Status(code: 423, reasonPhrase: "Locked")
}

/// A refusal as an RFC 9457 problem (server.md §7): the status, the command line's sentence as `detail`
/// and the command line's exit code for it. Every refusal of every route is one of these, rendered in one
/// place (`Responses.problem`), so that no handler writes its own error body.
struct Problem: Error, Sendable {
    var status: HTTPResponse.Status
    /// The last part of the problem's `type` URI (`https://veritrail.invalid/problems/KIND`).
    var kind: String
    var detail: String
    var exitCode: Int32
    /// `Retry-After` seconds (423, 503).
    var retryAfter: Int64?
    /// The methods the path takes (`GET, HEAD`), for the `Allow` header of a 405 (RFC 9110 §15.5.6). A string,
    /// not an array: Swift 6.3's optimizer crashed splitting the async route handlers that throw a `Problem`
    /// holding an array (signal 11 in a release build).
    var allow: String?

    init(_ status: HTTPResponse.Status, _ kind: String, _ detail: String, exitCode: Int32, retryAfter: Int64? = nil) {
        self.status = status
        self.kind = kind
        self.detail = detail
        self.exitCode = exitCode
        self.retryAfter = retryAfter
    }

    /// A parameter or body of the wrong form: 400, exit 64.
    static func badRequest(_ detail: String) -> Problem { Problem(.badRequest, "bad-request", detail, exitCode: 64) }
    /// No, unknown or expired token: 401 with `WWW-Authenticate: Bearer`, exit 77.
    static func unauthorized(_ detail: String) -> Problem { Problem(.unauthorized, "unauthorized", detail, exitCode: 77) }
    /// The token's account may not: 403, exit 77.
    static func forbidden(_ detail: String) -> Problem { Problem(.forbidden, "forbidden", detail, exitCode: 77) }
    /// An unknown route: 404, exit 64 (a command that does not exist is a usage error).
    static func noRoute(_ method: String, _ path: String) -> Problem {
        Problem(.notFound, "not-found", "no route \(method) \(shown(path)): GET /v1/openapi.json lists the routes", exitCode: 64)
    }
    /// A path as a problem names it: its start, escaped, so that what the client sent is not echoed whole.
    static func shown(_ path: String) -> String { escapedForMessage(path, limit: 200) }
    /// A body over its limit: 413, exit 65.
    static func tooLarge(_ limit: Int) -> Problem {
        Problem(.contentTooLarge, "too-large", "the body is over its limit of \(limit) bytes: send less, or split it", exitCode: 65)
    }
    /// An `Idempotency-Key` reused with other data: 409, exit 65.
    static func conflict(_ detail: String) -> Problem { Problem(.conflict, "idempotency-conflict", detail, exitCode: 65) }
    /// The server is stopping, or the store can not be used: 503 with `Retry-After`, exit 74.
    static func unavailable(_ detail: String) -> Problem {
        Problem(.serviceUnavailable, "unavailable", detail, exitCode: 74, retryAfter: 1)
    }

    /// The library's error as a problem: the one place a `VeritrailError` becomes a status.
    static func from(_ error: VeritrailError) -> Problem {
        switch error {
        case .malformed(let message, let line):
            return line == nil ? .badRequest(message) : Problem(.unprocessableContent, "rule-broken", error.description, exitCode: 65)
        case .ruleBroken(let e, _):
            // An `id` the log holds for other data is the idempotency conflict of server.md §3.
            if e.field.path == "id" && e.field.rule.contains("already in the log") {
                return .conflict(error.description)
            }
            if e.isUnknownAccount { return Problem(.notFound, "not-found", error.description, exitCode: 65) }
            return Problem(.unprocessableContent, "rule-broken", error.description, exitCode: 65)
        case .badPasscode(let message):
            return Problem(.unprocessableContent, "rule-broken", message, exitCode: 65)
        case .unknown(let message, _):
            return Problem(.notFound, "not-found", message, exitCode: 65)
        case let .notAllowed(message, lockedSeconds, cause):
            if let refusal = cause as? GateRefusal {
                switch refusal {
                case let .locked(actor, _, seconds):
                    return Problem(.lockedOut, "locked", "\(actor) is locked out after 3 wrong passcodes: try again in \(seconds) s",
                                   exitCode: 77, retryAfter: seconds)
                case .required(let actor):
                    return .unauthorized("\(actor) is not unlocked: sign in again (POST /v1/sessions)")
                case .unset(let actor):
                    return .forbidden("\(actor) has no passcode yet: set one first")
                }
            }
            if let seconds = lockedSeconds, seconds > 0 {
                return Problem(.lockedOut, "locked", message, exitCode: 77, retryAfter: seconds)
            }
            // Its own kind, so that a client does not take it for a session that ended and sign in again.
            if cause is WrongPasscode { return Problem(.unauthorized, "wrong-passcode", message, exitCode: 77) }
            return .forbidden(message)
        case .storeFailure(let underlying):
            return .unavailable(Problem.retryAdvice(underlying) ?? error.description)
        }
    }

    /// The command line's advice about a write that did or may have committed, in HTTP's words: a retry is
    /// safe under the request's `Idempotency-Key` (server.md §3), where the command line names `--id`.
    private static func retryAdvice(_ failure: any Error) -> String? {
        switch failure {
        case let e as UnkeptCheckpoint:
            "the write was recorded (the log holds \(e.size) events) but its signed checkpoint could not be kept "
                + "(\(e.reason)): do not send it again, unless with the same Idempotency-Key (which writes nothing twice); "
                + "the next write keeps the checkpoint first, and is refused while it can not"
        case let e as UncertainCommit:
            "\(e.failure): the write may have been recorded all the same: check with GET /v1/events; "
                + "to retry it safely, send it again with the same Idempotency-Key (without one, it may be written twice)"
        default:
            nil
        }
    }
}
