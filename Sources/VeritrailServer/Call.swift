import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import VeritrailKit

/// One request as a route's handler sees it: its path parameters, its query, its body read within a
/// limit, and who sent it (`authenticate`). It keeps the user it found, for the access log.
final class Call: @unchecked Sendable {
    let request: Request
    let parameters: [String: String]
    let query: QueryParameters
    let state: ServerState
    /// Completes when the request's connection is closed (`ConnectionContext`).
    let connectionClosed: EventLoopFuture<Void>
    private let lock = NSLock()
    private var _user: String?

    init(request: Request, parameters: [String: String], query: QueryParameters, state: ServerState,
         connectionClosed: EventLoopFuture<Void>) {
        self.request = request
        self.parameters = parameters
        self.query = query
        self.state = state
        self.connectionClosed = connectionClosed
    }

    /// The user the request acted or read as, once known.
    var user: String? {
        get { lock.withLock { _user } }
        set { lock.withLock { _user = newValue } }
    }

    /// A path parameter of the route's pattern.
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The account behind `Authorization: Bearer TOKEN`; 401 when there is none, or it is unknown or over.
    func authenticate() async throws -> Viewer {
        let token = try bearerToken()
        let state = self.state
        let viewer = try await state.blocking { () throws(Problem) in try state.sessions.viewer(forToken: token, store: state.store) }
        user = viewer.username
        return viewer
    }

    /// The token of `Authorization: Bearer TOKEN`; 401 without one.
    func bearerToken() throws(Problem) -> String {
        guard let header = request.headers[.authorization] else {
            throw Problem.unauthorized("this route needs a session: sign in with POST /v1/sessions, then send Authorization: Bearer TOKEN")
        }
        guard header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw Problem.unauthorized("the Authorization header must be \"Bearer TOKEN\"")
        }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// The whole body, refused with 413 past `limit` bytes (by its `Content-Length` before reading any).
    func body(limit: Int = ServerState.singleBodyLimit) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw Problem.tooLarge(limit) }
        var bytes: [UInt8] = []
        for try await buffer in request.body {
            guard bytes.count + buffer.readableBytes <= limit else { throw Problem.tooLarge(limit) }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return bytes
    }

    /// The body as one JSON object whose members are all among `allowed` (400 otherwise: not JSON, not an
    /// object, an unknown field).
    func jsonObject(allowed: Set<String>) async throws -> JSONObject {
        try jsonObject(try await body(), allowed: allowed)
    }

    /// `bytes` as `jsonObject(allowed:)` reads a body.
    func jsonObject(_ bytes: [UInt8], allowed: Set<String>) throws -> JSONObject {
        // 400, not HTTP's 415: server.md §7's table gives 400 to a body of the wrong form, and no other status.
        if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/json") {
            throw Problem(.badRequest, "unsupported-media-type",
                          "the body must be application/json, got \(type.prefix(100))", exitCode: 64)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw Problem.badRequest("the body is not JSON: \(error)")
        }
        guard case .object(let object) = value else { throw Problem.badRequest("the body must be a JSON object") }
        for key in object.keys where !allowed.contains(key) {
            throw Problem.badRequest("unknown field \"\(key.prefix(100))\" (this route takes \(allowed.sorted().joined(separator: ", ")))")
        }
        return object
    }
}

/// Who a request reads or acts as: the token's account.
struct Viewer: Sendable {
    var username: String
    var role: String
    var isAdmin: Bool { role == "admin" }
    var isCustomer: Bool { role == "customer" }
}

/// Reading the members of a request's JSON body, each of the type it must have. A member may be left out, never
/// `null` (events.md §1: "an optional field is either present with a value of its type or absent"), as `import`
/// refuses it: a `null` taken for absent would write what the client did not send.
extension JSONObject {
    private func refusingNull(_ key: String) throws(Problem) {
        if case .null? = self[key] { throw Problem.badRequest("the field \"\(key)\" must not be null (leave it out instead)") }
    }

    func string(_ key: String, required: Bool = false) throws(Problem) -> String? {
        try refusingNull(key)
        switch self[key] {
        case nil:
            if required { throw Problem.badRequest("the field \"\(key)\" is needed") }
            return nil
        case .string(let s)?: return s
        default: throw Problem.badRequest("the field \"\(key)\" must be a string")
        }
    }

    func required(_ key: String) throws(Problem) -> String {
        guard let value = try string(key, required: true) else { throw Problem.badRequest("the field \"\(key)\" is needed") }
        return value
    }

    func bool(_ key: String) throws(Problem) -> Bool? {
        try refusingNull(key)
        switch self[key] {
        case nil: return nil
        case .bool(let b)?: return b
        default: throw Problem.badRequest("the field \"\(key)\" must be true or false")
        }
    }

    func int(_ key: String, required: Bool = false) throws(Problem) -> Int64? {
        try refusingNull(key)
        switch self[key] {
        case nil:
            if required { throw Problem.badRequest("the field \"\(key)\" is needed") }
            return nil
        case let value?:
            guard let i = value.intValue else { throw Problem.badRequest("the field \"\(key)\" must be a whole number") }
            return i
        }
    }

    /// A member that must be an object whose members are all among `allowed` (`address`, `company`).
    func object(_ key: String, allowed: Set<String>) throws(Problem) -> JSONObject? {
        try refusingNull(key)
        switch self[key] {
        case nil: return nil
        case .object(let object)?:
            for member in object.keys where !allowed.contains(member) {
                throw Problem.badRequest("unknown field \"\(key).\(member.prefix(100))\" (\(key) takes \(allowed.sorted().joined(separator: ", ")))")
            }
            return object
        default: throw Problem.badRequest("the field \"\(key)\" must be an object")
        }
    }

    /// A member that must be one of an enumeration's raw values.
    func choice<T: RawRepresentable>(_ key: String, _ type: T.Type, required: Bool = false) throws(Problem) -> T? where T.RawValue == String {
        guard let text = try string(key, required: required) else { return nil }
        guard let value = T(rawValue: text) else { throw Problem.badRequest("the field \"\(key)\" can not be \"\(text.prefix(100))\"") }
        return value
    }
}
