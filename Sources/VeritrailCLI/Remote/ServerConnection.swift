import Foundation
import SystemCalls
import VeritrailKit

/// A command run against `veritrail serve` (`--server URL`, server.md §8): the server, the transport, who
/// acts, and that account's session token, asked for again (the passcode, as the local gate asks it) when
/// the server says it is missing or over. The server's refusals become the command's: its problem's
/// `exitCode` and `detail`.
struct ServerConnection {
    /// The server as given, without a trailing slash: the key of its tokens.
    let server: String
    let transport: any RemoteTransport
    let tokens: TokenFile
    /// `--as` or `VERITRAIL_USER`; nil takes the one account logged in on this server.
    let user: String?
    let passcode: PasscodeReader
    /// Whether the command takes `--passcode-stdin` (a write, `login`, `unlock`), for the refusal that names it.
    let takesPasscodeStdin: Bool

    /// The connection `global` asks for, or nil when the command runs on a local store. `passcodeStdin` is the
    /// command's `--passcode-stdin`, nil for a command without that option (a query).
    static func of(_ global: GlobalOptions, passcodeStdin: Bool? = nil) throws -> ServerConnection? {
        guard let server = global.serverURL else { return nil }
        return try ServerConnection(server: server, cacert: global.cacert, user: global.actingUser, passcodeStdin: passcodeStdin)
    }

    init(server given: String, cacert: String?, user: String?, passcodeStdin: Bool?) throws {
        server = try ServerConnection.checked(given)
        guard let make = Remote.makeTransport else {
            throw Failure.usage("this veritrail was built without its HTTP client: --server is not available")
        }
        if let cacert, (try? FileDescriptor.open(cacert, .readOnly))?.close() == nil {
            throw Failure.usage("--cacert \(cacert): can not read that file of PEM certificates")
        }
        transport = try make(cacert)
        tokens = try TokenFile.standard()
        self.user = user
        passcode = PasscodeReader(fromStdin: passcodeStdin ?? false)
        takesPasscodeStdin = passcodeStdin != nil
    }

    /// `given` if it is a URL the client may use: `https://`, or `http://` to a loopback address only.
    static func checked(_ given: String) throws(Failure) -> String {
        var text = given
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil, url.path.isEmpty else {
            throw Failure.usage("--server must be a URL like https://veritrail.example.org or http://127.0.0.1:8420, got \"\(given)\"")
        }
        switch scheme {
        case "https": return text
        case "http":
            guard isLoopback(host) else {
                throw Failure.usage("--server \(given): plain http is accepted for loopback addresses only; use https://")
            }
            return text
        default:
            throw Failure.usage("--server must start with https:// (or http:// for a loopback address), got \"\(given)\"")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

// MARK: Exchanges

extension ServerConnection {
    /// A request's answer: its status and whole body.
    struct Reply {
        var status: Int
        var headers: RemoteResponseHead
        var body: [UInt8]
        var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }

        /// Whether the body is a problem (server.md §7) of `kind`, the last part of its `type`.
        func isProblem(kind: String) -> Bool {
            json["type"]?.stringValue == "https://veritrail.invalid/problems/" + kind
        }
    }

    /// `path` (percent-encoded segments) and its query on this server.
    func url(_ path: String, _ query: [(String, String)] = []) -> String {
        let pairs = query.map { Percent.encode($0.0) + "=" + Percent.encode($0.1) }
        return server + path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    /// One exchange as the acting account, signing in first when it has no token here and again when the
    /// server says its token is over; a refusal is thrown as the command's failure.
    func authorized(_ method: String, _ path: String, _ query: [(String, String)] = [], json: JSONValue? = nil,
                    idempotencyKey: String? = nil, accept: String = "application/json") throws -> Reply {
        let account = try actingAccount()
        var entry = try tokens.find(server: server, user: account)
        if entry == nil { entry = try signIn(account) }
        var headers = [("Accept", accept)]
        if let idempotencyKey { headers.append(("Idempotency-Key", idempotencyKey)) }
        var body: RemoteBody?
        if let json {
            headers.append(("Content-Type", "application/json"))
            body = .bytes(canonicalJSON(json))
        }
        var reply = try send(method, url(path, query), headers: headers + [("Authorization", "Bearer " + entry!.token)], body: body)
        // A session that ended: signed in again, once. A wrong passcode in the request itself (the current one of
        // `passcode set`) is a 401 of its own kind, the command's refusal.
        if reply.status == 401, !reply.isProblem(kind: "wrong-passcode") {
            entry = try signIn(entry!.user, because: .ended)
            reply = try send(method, url(path, query), headers: headers + [("Authorization", "Bearer " + entry!.token)], body: body)
        }
        guard reply.status < 400 else { throw problem(reply) }
        return reply
    }

    /// The account a command acts as: `--as`, or the one logged in on this server.
    func actingAccount() throws -> String {
        if let user { return user }
        let mine = try tokens.entries().filter { $0.server == server }
        guard mine.count == 1 else {
            throw Failure.usage("who is acting? pass --as USER (or set VERITRAIL_USER), or log in with `veritrail login --server \(server) --as USER`")
        }
        return mine[0].user
    }

    /// Asks `account`'s passcode (terminal with echo off, or `--passcode-stdin`) and opens a session
    /// (`POST /v1/sessions`), keeping its token; the gate's refusals (wrong, locked out) are the command's.
    @discardableResult
    func signIn(_ account: String, because reason: SignIn = .noToken) throws -> TokenFile.Entry {
        guard passcode.canRead else {
            let login = "veritrail login --server \(server) --as \(account)"
            switch reason {
            // As a local `unlock` says it: the command line was wrong (64).
            case .asked: throw Failure.usage("a passcode is read from a terminal or with --passcode-stdin")
            case .noToken where takesPasscodeStdin:
                throw Failure.notAllowed("\(account) has no session on \(server): run `\(login)`, or pass --passcode-stdin")
            case .noToken: throw Failure.notAllowed("\(account) has no session on \(server): run `\(login)` first")
            case .ended where takesPasscodeStdin:
                throw Failure.notAllowed("\(account)'s session on \(server) is over: run `\(login)`, or pass --passcode-stdin")
            case .ended: throw Failure.notAllowed("\(account)'s session on \(server) is over: run `\(login)` again")
            }
        }
        guard let code = try passcode.read("Passcode for \(account): ") else { throw Failure.notAllowed("no passcode given for \(account)") }
        let request = JSONValue.object(JSONObject([("user", .string(account)), ("passcode", .string(code))])!)
        let reply = try send("POST", url("/v1/sessions"), headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
                             body: .bytes(canonicalJSON(request)))
        guard reply.status == 201 else { throw problem(reply) }
        guard case .object(let o) = reply.json, case .string(let token)? = o["token"], case .string(let user)? = o["user"] else {
            throw Failure(code: Failure.storeFailed, message: "\(server) answered the sign-in without a token")
        }
        let expiresAt: String
        if case .string(let at)? = o["expiresAt"] { expiresAt = at } else { expiresAt = "" }
        let entry = TokenFile.Entry(server: server, user: user, token: token, expiresAt: expiresAt)
        try tokens.keep(entry)
        return entry
    }

    /// One exchange, its whole body read (at most 1 GiB); the transport's failures in the command's words.
    func send(_ method: String, _ url: String, headers: [(String, String)], body: RemoteBody? = nil,
              timeout: Int64? = ServerConnection.timeout) throws -> Reply {
        var bytes: [UInt8] = []
        let head = try exchange(RemoteRequest(method: method, url: url, headers: headers, body: body, timeout: timeout)) { _, chunk in
            bytes += chunk
            guard bytes.count <= 1 << 30 else { throw Failure(code: Failure.storeFailed, message: "\(server) sent an answer over 1 GiB") }
            return true
        }
        return Reply(status: head.status, headers: head, body: bytes)
    }

    /// The transport's exchange, with "can not reach" and time-outs said in the command's words (exit 74).
    func exchange(_ request: RemoteRequest, onBody: (RemoteResponseHead, [UInt8]) throws -> Bool) throws -> RemoteResponseHead {
        do {
            return try transport.exchange(request, onBody: onBody)
        } catch let error as RemoteTransportError {
            switch error {
            case .unreachable(let why): throw Failure(code: Failure.storeFailed, message: "can not reach \(server): \(why)")
            case .timedOut: throw Failure(code: Failure.storeFailed, message: "\(server) did not answer within \(request.timeout ?? 0) s: try again, or check the server")
            case .tls(let why): throw Failure(code: Failure.storeFailed, message: "can not reach \(server) securely: \(why) (trust its certificate with --cacert FILE)")
            }
        }
    }

    /// How long a request waits for its answer, in seconds (`VERITRAIL_SERVER_TIMEOUT`, default 30).
    static var timeout: Int64 { environment("VERITRAIL_SERVER_TIMEOUT").flatMap { Int64($0) }.map { max(1, $0) } ?? 30 }

    /// The server's refusal (RFC 9457 problem) as the command's failure: its `exitCode` and `detail`.
    func problem(_ reply: Reply) -> Failure {
        if case .object(let o) = reply.json, case .string(let detail)? = o["detail"], let code = o["exitCode"]?.intValue {
            return Failure(code: Int32(clamping: code), message: detail)
        }
        let code: Int32 = reply.status == 401 || reply.status == 403 || reply.status == 423 ? Failure.notAllowed
            : reply.status >= 500 ? Failure.storeFailed : Failure.usage
        return Failure(code: code, message: "\(server) answered \(reply.status): \(String(decoding: reply.body.prefix(200), as: UTF8.self))")
    }
}

/// Percent-encoding for a path segment or a query part: all but RFC 3986's unreserved characters.
enum Percent {
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default: out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }
}

private extension String {
    var leftPadded: String { count == 1 ? "0" + self : self }
}

/// Why a command signs in: it holds no token for the account here, the server said its token is over, or the
/// command is `login` or `unlock`, whose job it is.
enum SignIn {
    case noToken, ended, asked
}
