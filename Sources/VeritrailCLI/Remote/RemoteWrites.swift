import VeritrailKit

/// A writing command's request to a server (server.md §3): its route, and its values under their field
/// names of events.md (nil values left out). `--id` travels as `Idempotency-Key`.
struct RemoteWrite {
    var method: String
    var path: String
    var fields: [(String, JSONValue?)]

    init(_ method: String, _ path: String, _ fields: [(String, JSONValue?)] = []) {
        self.method = method
        self.path = path
        self.fields = fields
    }

    /// `/v1/…/{segment}/…`: a path whose user or scan id is percent-encoded.
    static func path(_ parts: String...) -> String { parts.enumerated().map { $0.offset % 2 == 1 ? Percent.encode($0.element) : $0.element }.joined() }
}

extension Optional where Wrapped == String {
    var json: JSONValue? { map { .string($0) } }
}

extension String {
    var json: JSONValue? { .string(self) }
}

extension Optional where Wrapped == Bool {
    var json: JSONValue? { map { .bool($0) } }
}

extension Optional where Wrapped: BinaryInteger {
    var json: JSONValue? { map { .number(JSONNumber(Int64($0))) } }
}

/// What a server answered a write: its events (`isNew` false for each when it was a retry already recorded) and,
/// for an address, where the server placed its city (`CityPlacement.answer(city:)`).
struct RemoteAnswer {
    var events: [AppendedEvent]
    var placement: JSONValue?
}

extension ServerConnection {
    /// Sends `write` as the acting account and gives back the events the server says it appended.
    func write(_ write: RemoteWrite, eventID: String?) throws -> [AppendedEvent] {
        try written(write, eventID: eventID).events
    }

    /// Sends `write` as the acting account: what the server answered, with its placement of an address told on
    /// stderr, as a local write tells it.
    func written(_ write: RemoteWrite, eventID: String?) throws -> RemoteAnswer {
        let members = write.fields.compactMap { key, value in value.map { (key: key, value: $0) } }
        let reply = try authorized(write.method, write.path, json: .object(JSONObject(members)!), idempotencyKey: eventID)
        return try answer(reply.json)
    }

    /// `{"events": [{"seq", "id", "type"}], "alreadyRecorded"?, "placement"?}` as what it says.
    func answer(_ json: JSONValue) throws -> RemoteAnswer {
        guard case .object(let o) = json, case .array(let items)? = o["events"] else {
            throw Failure(code: Failure.storeFailed, message: "\(server) answered a write without its events")
        }
        let isNew = o["alreadyRecorded"] != .bool(true)
        let events = try items.map { item in
            guard case .object(let e) = item, let seq = e["seq"]?.intValue, case .string(let id)? = e["id"],
                  case .string(let typeName)? = e["type"], let type = EventType(rawValue: typeName) else {
                throw Failure(code: Failure.storeFailed, message: "\(server) answered a write with an event that is not {seq, id, type}")
            }
            return AppendedEvent(seq: UInt64(seq), id: id, type: type, isNew: isNew)
        }
        let placement = o["placement"]
        if let placement, case .string(let city)? = placement["city"], let placed = CityPlacement(answer: placement) {
            Geocoder.tell(city, placed)
        }
        return RemoteAnswer(events: events, placement: placement)
    }
}

extension ServerConnection {
    /// `scan` against the server: the SCAN it answers (`--json`), or the line `scan` prints, with the event's
    /// seq and id from the `Veritrail-Event` header, and the warning of a code scanned before.
    func scan(_ fields: [(String, JSONValue?)], eventID: String?, json: Bool) throws {
        let members = fields.compactMap { key, value in value.map { (key: key, value: $0) } }
        let reply = try authorized("POST", "/v1/scans", json: .object(JSONObject(members)!), idempotencyKey: eventID)
        let scan = reply.json
        let seen = scan["seenBefore"]?.intValue ?? 0
        if seen > 0 {
            Output.note("warning: this code was scanned \(seen) time\(seen == 1 ? "" : "s") before: worth a second look")
        }
        let event = (reply.headers.header("Veritrail-Event") ?? "").split(separator: " ").map(String.init)
        guard case .string(let scanId)? = scan["scanId"], event.count == 2 else {
            throw Failure(code: Failure.storeFailed, message: "\(server) answered the scan without its scanId or event")
        }
        // A retry under --id that the server found logged (200): told as `scan` tells it.
        let already = reply.status == 200 ? "(seq \(event[0]), event \(event[1])): nothing written" : nil
        if json {
            if let already { Output.note("already recorded \(already)") }
            return Output.json(scan)
        }
        if let already { return Output.print("already recorded scan \(Escaped.text(scanId)) \(already)") }
        Output.print("recorded scan \(Escaped.text(scanId)) (seq \(event[0]), event \(event[1]))")
    }

    /// The whole scan id a prefix of 4 or more characters names, as `show` resolves it.
    func resolveScanId(_ prefix: String) throws -> String {
        var parameters: [(String, String)] = []
        if let now = environment("VERITRAIL_NOW") { parameters.append(("now", now)) }
        guard case .string(let id)? = try authorized("GET", "/v1/scans/" + Percent.encode(prefix), parameters).json["scanId"] else {
            throw Failure(code: Failure.storeFailed, message: "\(server) answered the scan \(prefix) without its scanId")
        }
        return id
    }
}
