public import StrictJSON

/// The interchange form of events (events.md §1): strict decoding of incoming lines, and the canonical
/// out form that the hash chain, `export` and `log tail --json` share.
public enum EventJSON {
    /// The keys an event line may have.
    private static let topLevelKeys: [StaticString] = ["type", "at", "actor", "data", "id", "seq", "hash"]

    /// Decodes one incoming event from a parsed JSON line, applying every field rule of events.md
    /// (the rules that need history are `Rules`' job).
    public static func decode(_ value: JSONValue) throws(EventError) -> IncomingEvent {
        guard case .object(let object) = value else {
            throw EventError(type: nil, path: "event", rule: "must be a JSON object, got \(kind(value))")
        }
        return try decode(object: object)
    }

    /// The same from a line's top-level object as `JSONScanner` read it in place.
    public static func decode(_ object: ScannedObject) throws(EventError) -> IncomingEvent {
        try decode(object: object)
    }

    /// The same from a top-level object, parsed or scanned (internal, so that it is compiled for each kind).
    static func decode<Object: FieldObject>(object: Object) throws(EventError) -> IncomingEvent {
        func member(_ key: StaticString) throws(EventError) -> FieldValue<Object>? {
            guard let i = object.index(of: key, from: 0) else { return nil }
            let v = object.member(at: i)
            if case .value(.null) = v { throw EventError(type: nil, path: key.description, rule: "must not be null (leave the key out instead)") }
            return v
        }
        func string(_ key: StaticString, _ type: EventType?) throws(EventError) -> String? {
            guard let v = try member(key) else { return nil }
            guard case .value(.string(let s)) = v else { throw EventError(type: type, path: key.description, rule: "must be a string, got \(v.kind)") }
            return s
        }

        guard let typeName = try string("type", nil) else { throw EventError(type: nil, path: "type", rule: "is required") }
        guard let type = EventType.choices.first(where: { sameBytes($0.rawValue, typeName) }) else {
            throw EventError(type: nil, path: "type", rule: "must be one of \(listing(EventType.words)), got \(quoted(typeName))")
        }
        for i in 0..<object.count where !topLevelKeys.contains(where: { object.key(at: i, is: $0) }) {
            throw EventError(type: type, path: escapedForMessage(object.key(at: i)), rule: "unknown key")
        }
        guard let atText = try string("at", type) else { throw EventError(type: type, path: "at", rule: "is required") }
        guard let at = Timestamp(atText) else {
            throw EventError(type: type, path: "at",
                             rule: "must be a UTC time YYYY-MM-DDTHH:MM:SS[.ffffff]Z with a real date, got \(quoted(atText))")
        }
        guard let actor = try string("actor", type) else { throw EventError(type: type, path: "actor", rule: "is required") }
        guard actor == "system" || StringRule.isUsername(actor) else {
            throw EventError(type: type, path: "actor", rule: "must be a username or \"system\", got \(quoted(actor))")
        }
        let id = try string("id", type)
        if let id, !StringRule.isIdentifier(id, max: 64) {
            throw EventError(type: type, path: "id", rule: "must be 1–64 characters of A–Z a–z 0–9 . _ : -, got \(quoted(id))")
        }
        var claimedSeq: UInt64?
        if let v = try member("seq") {
            guard case .value(.number(let n)) = v, n.isInteger, let i = n.integerValue, i >= 1 else {
                throw EventError(type: type, path: "seq", rule: "must be an integer ≥ 1, got \(v.kind)")
            }
            claimedSeq = UInt64(i)
        }
        var claimedHash: [UInt8]?
        if let text = try string("hash", type) {
            guard let bytes = Hex.decode(text) else {
                throw EventError(type: type, path: "hash", rule: "must be 64 lower-case hex digits, got \(quoted(text))")
            }
            claimedHash = bytes
        }
        guard let dataValue = try member("data") else { throw EventError(type: type, path: "data", rule: "is required") }
        guard case .object(let data) = dataValue else {
            throw EventError(type: type, path: "data", rule: "must be an object, got \(dataValue.kind)")
        }
        var source = JSONFieldSource(object: data, path: "data")
        let payload: Payload
        do {
            payload = try Payload.read(type, from: &source)
            try source.finish()
            try payload.checkFields()
        } catch {
            throw EventError(type: type, field: error)
        }
        var incoming = IncomingEvent(id: id, at: at, actor: actor, payload: payload, claimedSeq: claimedSeq, claimedHash: claimedHash)
        incoming.prepareCanonicalHead()
        return incoming
    }

    /// The canonical out form (events.md §2): `{"actor","at","data","hash"?,"id","seq","type"}` in RFC 8785 form.
    /// Without `hash` it is what the chain hashes; with it, an exported line.
    public static func canonical(_ event: Event, seq: UInt64, hash: [UInt8]? = nil) -> [UInt8] {
        var sink = CanonicalFieldSink(writer: CanonicalJSONWriter())
        writeHead(at: event.at, actor: event.actor, payload: event.payload, into: &sink)
        if let hash { sink.string("hash", Hex.encode(hash)) }
        writeTail(id: event.id, seq: seq, type: event.type, into: &sink)
        return sink.writer.bytes
    }

    /// The start of the out form, from its `{` through `data`: the part that does not depend on the log
    /// (no id, seq or hash), which an import makes on the thread that decodes (`IncomingEvent.canonicalHead`).
    public static func canonicalHead(at: Timestamp, actor: String, payload: Payload) -> [UInt8] {
        var sink = CanonicalFieldSink(writer: CanonicalJSONWriter(reservingCapacity: 512))
        writeHead(at: at, actor: actor, payload: payload, into: &sink)
        return sink.writer.bytes
    }

    /// The rest of the out form without `hash`, after its head: `,"id":…,"seq":…,"type":…}`, appended to
    /// `writer` (which an appender reuses from one event to the next).
    public static func appendCanonicalTail(id: String, seq: UInt64, type: EventType, to writer: inout CanonicalJSONWriter) {
        var sink = CanonicalFieldSink(writer: CanonicalJSONWriter(reservingCapacity: 0))
        // Swapped in and out, so that the buffer has one owner and is written in place.
        swap(&sink.writer, &writer)
        sink.writer.continueObject()
        writeTail(id: id, seq: seq, type: type, into: &sink)
        swap(&sink.writer, &writer)
    }

    private static func writeHead(at: Timestamp, actor: String, payload: Payload, into sink: inout CanonicalFieldSink) {
        sink.writer.beginObject()
        sink.string("actor", actor)
        sink.writer.key("at")
        sink.writer.plainString { at.appendText(to: &$0) }
        sink.writer.key("data")
        sink.writer.beginObject()
        payload.write(to: &sink)
        sink.writer.endObject()
    }

    private static func writeTail(id: String, seq: UInt64, type: EventType, into sink: inout CanonicalFieldSink) {
        sink.string("id", id)
        sink.integer("seq", Int64(seq))
        sink.choice("type", type)
        sink.writer.endObject()
    }
}
