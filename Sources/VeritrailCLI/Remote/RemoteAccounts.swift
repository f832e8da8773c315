import SystemCalls
import VeritrailKit

/// The writing commands whose requests are more than a route and fields (server.md §3): registering
/// (yourself without a token, with your new passcode), a passcode, a search, a deletion's confirmation.
extension ServerConnection {
    /// `register`: an admin's act with its token (`--as`), or a customer registering itself without one,
    /// its new passcode asked twice.
    func register(_ fields: [(String, JSONValue?)], username: String, eventID: String?) throws -> RemoteAnswer {
        if let user, user != username {
            return try written(RemoteWrite("POST", "/v1/accounts", fields), eventID: eventID)
        }
        guard passcode.canRead else { throw Failure.usage("registering yourself sets a passcode: use a terminal or --passcode-stdin") }
        let new = try passcode.readNew(for: username)
        let members = (fields + [("passcode", new.json)]).compactMap { key, value in value.map { (key: key, value: $0) } }
        var headers = [("Content-Type", "application/json"), ("Accept", "application/json")]
        if let eventID { headers.append(("Idempotency-Key", eventID)) }
        let reply = try send("POST", url("/v1/accounts"), headers: headers, body: .bytes(canonicalJSON(.object(JSONObject(members)!))))
        guard reply.status < 400 else { throw problem(reply) }
        return try answer(reply.json)
    }

    /// `passcode set [USER]`: the new passcode asked twice, and the current one when one changes one's own.
    func setPasscode(of target: String) throws -> [AppendedEvent] {
        guard passcode.canRead else { throw Failure.usage("a passcode is read from a terminal or with --passcode-stdin") }
        let actor = try actingAccount()
        var fields: [(String, JSONValue?)] = []
        if actor == target {
            guard let current = try passcode.read("Current passcode for \(actor): ") else { throw Failure.refused("no current passcode given") }
            fields.append(("current", current.json))
        }
        fields.append(("passcode", try passcode.readNew(for: target).json))
        return try write(RemoteWrite("PUT", RemoteWrite.path("/v1/accounts/", target, "/passcode"), fields), eventID: nil)
    }

    /// `search QUERY`: recorded by the server, answered as `history --search`.
    func search(_ query: String, window: HistoryWindow?, limit: Int, eventID: String?, json: Bool) throws {
        let fields: [(String, JSONValue?)] = [("query", query.json), ("window", window?.rawValue.json), ("limit", Optional(limit).json)]
        let members = fields.compactMap { key, value in value.map { (key: key, value: $0) } }
        let now = environment("VERITRAIL_NOW").flatMap { Timestamp($0) } ?? VeritrailStore.wallClock()
        let answer = try authorized("POST", "/v1/searches", json: .object(JSONObject(members)!), idempotencyKey: eventID).json
        if json { return Output.json(answer) }
        var narrowed: HistoryWindow?
        if window == nil, case .string(let text)? = try authorized("GET", RemoteWrite.path("/v1/settings/", try actingAccount())).json["historyWindow"] {
            narrowed = HistoryWindow(rawValue: text)
        }
        Output.print(Human.history(answer, now: now, viewerWindow: narrowed))
    }

    /// Asks on the terminal whether to delete `user`, as `account delete` does; a script passes --yes.
    func confirmDelete(_ user: String) throws -> Bool {
        guard FileDescriptor.standardInput.isTerminal else { throw Failure.usage("deleting needs confirmation: pass --yes") }
        guard case .array(let accounts)? = try authorized("GET", "/v1/accounts").json["accounts"],
              let account = accounts.first(where: { $0["username"]?.stringValue == user }) else { return true }
        let name = account["name"]?.stringValue ?? "", role = account["role"]?.stringValue ?? ""
        Output.prompt("Delete \(Escaped.text(user)) (\(Escaped.text(name)), \(role))? [y/N] ")
        let answer = (readLine() ?? "").lowercased()
        return answer == "y" || answer == "yes"
    }

    /// A session id as the library draws one: `ses-` and 8 characters.
    static func newSessionId() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return "ses-" + String((0..<8).map { _ in alphabet.randomElement()! })
    }
}
