import Domain
import EventLog

/// The type and actor of a stored record, read from its header without decoding the rest
/// (`[format 1][type 1][at 8][hash 32][id][actor]…`, `StoredEvent`): what the log filters and `diff`'s
/// counts need of each event.
struct StoredHeader {
    var type: EventType
    var actor: String

    init(_ bytes: UnsafeRawBufferPointer, seq: UInt64, _ reader: LogReader, actor wanted: Bool = true) throws {
        (type, actor) = try reader.decodingErrors(seq: seq) { () throws(FieldError) -> (EventType, String) in
            var source = BinaryFieldSource(bytes: bytes)
            _ = try source.byte("format")
            let type = try source.choice("type", EventType.self)
            guard wanted else { return (type, "") }
            _ = try source.fixed64("at")
            _ = try source.slice("hash", count: 32)
            _ = try source.rawBytes("id")
            return (type, try source.raw("actor"))
        }
    }
}
