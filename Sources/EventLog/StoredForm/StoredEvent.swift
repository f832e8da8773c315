public import Domain
/// The stored form of a logged event: what an LMDB record of the log holds.
///
/// Replay decodes every record, so this is a compact positional binary form rather than JSON:
/// `[format 1][type 1][at 8][hash 32][id][actor][payload fields…]` (see `BinaryFieldSink`). `seq` is the
/// record's key, not part of the value. The chain hash is kept with each event so that `log verify` can
/// check every link independently and a digest can be answered without recomputing the chain.
public enum StoredEvent {
    static let format: UInt8 = 1

    /// Writes `event`, logged with chain value `hash`, into `bytes`, which it empties first (an appender
    /// reuses them from one event to the next).
    public static func encode(_ event: Event, hash: [UInt8], into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        var sink = BinaryFieldSink()
        // Swapped in and out, so that the buffer has one owner and is written in place.
        swap(&sink.bytes, &bytes)
        defer { swap(&sink.bytes, &bytes) }
        sink.bytes.append(format)
        sink.bytes.append(event.type.storedIndex)
        sink.fixed64(UInt64(bitPattern: event.at.microseconds))
        sink.bytes.append(contentsOf: hash)
        sink.raw(event.id)
        sink.raw(event.actor)
        event.payload.write(to: &sink)
    }

    /// Decodes a stored record; the bytes need live only for the call.
    public static func decode(_ bytes: UnsafeRawBufferPointer, seq: UInt64) throws(FieldError) -> LoggedEvent {
        var source = BinaryFieldSource(bytes: bytes)
        guard try source.byte("format") == format else { throw FieldError(path: "format", rule: "unknown stored format") }
        let type = try source.choice("type", EventType.self)
        let at = Timestamp(microseconds: Int64(bitPattern: try source.fixed64("at")))
        let hash = Array(try source.slice("hash", count: 32))
        let id = try source.raw("id")
        let actor = try source.raw("actor")
        let payload = try Payload.read(type, from: &source)
        guard source.position == bytes.count else { throw FieldError(path: "data", rule: "stored record is damaged") }
        return LoggedEvent(seq: seq, event: Event(id: id, at: at, actor: actor, payload: payload), hash: hash)
    }

    /// The canonical out form of a stored record (events.md §2), transcoded without decoding it into Swift
    /// values: without `hash` it is what the chain hashes; `withHash` makes an exported line.
    public static func canonical(_ bytes: UnsafeRawBufferPointer, seq: UInt64, withHash: Bool) throws(FieldError) -> [UInt8] {
        var buffer = CanonicalBuffer(capacity: bytes.count * 2 + 160)
        try canonical(bytes, seq: seq, withHash: withHash, into: &buffer)
        return Array(buffer.bytes)
    }

    /// The same, written into `out` (emptied first), so that a caller going through many events reuses one
    /// buffer.
    public static func canonical(_ bytes: UnsafeRawBufferPointer, seq: UInt64, withHash: Bool,
                                 into out: inout [UInt8]) throws(FieldError) {
        var buffer = CanonicalBuffer(capacity: bytes.count * 2 + 160)
        try canonical(bytes, seq: seq, withHash: withHash, into: &buffer)
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: buffer.bytes)
    }

    /// The same, made in `buffer` (`buffer.bytes`, until the next), without an array: `log verify` makes one
    /// for every event.
    public static func canonical(_ bytes: UnsafeRawBufferPointer, seq: UInt64, withHash: Bool,
                                 into buffer: inout CanonicalBuffer) throws(FieldError) {
        var source = BinaryFieldSource(bytes: bytes)
        guard try source.byte("format") == format else { throw FieldError(path: "format", rule: "unknown stored format") }
        let type = try source.choice("type", EventType.self)
        let at = Timestamp(microseconds: Int64(bitPattern: try source.fixed64("at")))
        let hash = try source.slice("hash", count: 32)
        let id = try source.rawBytes("id")
        let actor = try source.rawBytes("actor")
        buffer.storage.count = 0
        var t = CanonicalTranscoder(source: source, out: buffer.storage)
        // The memory is the buffer's again however this ends (the transcoder may have grown it).
        defer { buffer.storage = t.out }
        t.beginObject()
        t.key("actor"); t.appendString(actor)
        t.key("at"); t.out.appendInstant(microseconds: at.microseconds, day: at.dayNumber) { at.date.description }
        t.key("data"); t.beginObject()
        _ = try Payload.read(type, from: &t)
        t.endObject()
        guard t.source.position == bytes.count else { throw FieldError(path: "data", rule: "stored record is damaged") }
        if withHash { t.key("hash"); t.appendString(Hex.encode(hash)) }
        t.key("id"); t.appendString(id)
        t.key("seq"); t.appendInteger(Int64(seq))
        t.key("type"); t.appendString(type.rawValue)
        t.endObject()
    }

    /// The chain hash kept in a stored record, without decoding the rest.
    public static func hash(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard bytes.count >= 42 else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[10..<42])
    }

    /// The id kept in a stored record, without decoding the rest; nil when the record is too damaged to say.
    public static func id(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard bytes.count > 42 else { return nil }
        var source = BinaryFieldSource(bytes: UnsafeRawBufferPointer(rebasing: bytes[42...]))
        return try? source.rawBytes("id")
    }

    /// The `at` kept in a stored record, without decoding the rest.
    public static func at(in bytes: UnsafeRawBufferPointer) -> Timestamp? {
        guard bytes.count >= 10 else { return nil }
        return Timestamp(microseconds: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 2, as: Int64.self)))
    }
}
