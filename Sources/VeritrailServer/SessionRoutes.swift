import Foundation
import HTTPTypes
import Hummingbird
import VeritrailKit

/// `POST /v1/sessions` and `DELETE /v1/sessions/current` (server.md §2).
extension Routes {
    static func addSessions(_ table: inout RouteTable) {
        // The library's `unlock`: the same gate, the same `passcode.attempted` event, recorded whatever follows.
        table.add(.post, "/v1/sessions") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["user", "passcode"])
            let user = try body.required("user")
            let passcode = try body.required("passcode")
            let state = call.state
            let store = state.store
            let (grant, role) = try await state.blocking { () throws(Problem) in
                // The access log names the account once it is known to exist: a name that is none (a passcode typed
                // in the wrong field, say) is not written there.
                do throws(VeritrailError) {
                    let grant = try store.unlock(user, passcode: passcode)
                    call.user = user
                    let role = try store.accounts()["accounts"]?.arrayValue?
                        .first { $0["username"]?.stringValue == user }?["role"]?.stringValue ?? "inspector"
                    return (grant, role)
                } catch .notAllowed(let message, let seconds, let cause) {
                    call.user = user
                    if let seconds, seconds > 0 { throw Problem(.lockedOut, "locked", message, exitCode: 77, retryAfter: seconds) }
                    if cause is GateRefusal { throw Problem.from(.notAllowed(message, lockedSeconds: seconds, cause: cause)) }
                    throw Problem.unauthorized(message)
                } catch {
                    // An unknown or deleted user is 404 with exit 65, as `unlock` refuses it (cli.md §6).
                    throw Problem.from(error)
                }
            }
            let record = SessionStore.Record(username: user, role: role, grantSeq: grant.seq, grantAt: grant.at)
            let token = try await state.blocking { try state.sessions.open(record, now: grant.at) }
            let expires = grant.at.adding(seconds: SessionStore.lifetimeSeconds)
            return Responses.json(J.object([("token", J.string(token)), ("user", J.string(user)), ("role", J.string(role)),
                                             ("expiresAt", J.string(expires.description))]), status: .created)
        }
        table.add(.delete, "/v1/sessions/current") { call in
            try call.query.check([])
            _ = try await call.authenticate()
            let header = call.request.headers[.authorization] ?? ""
            let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            let sessions = call.state.sessions
            try await call.state.blocking { try sessions.close(token: token) }
            return Response(status: .noContent)
        }
    }
}
