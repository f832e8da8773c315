import Domain
import LMDB

/// Appends to the log inside one write transaction: assigns `seq` (gap-free, since LMDB runs one write
/// transaction at a time across processes), chains the hash, and indexes the id.
public struct LogWriter {
    public let reader: LogReader
    public private(set) var head: LogHead

    public init(log: EventLog, transaction: Transaction) throws {
        reader = LogReader(log: log, transaction: transaction)
        head = try reader.head()
    }

    /// The chain value `event` would have if it were appended next; `data` is its payload's canonical
    /// JSON when already made.
    public func nextHash(_ event: Event, data: [UInt8]? = nil) -> [UInt8] {
        HashChain.next(after: head.hash, canonical: EventJSON.canonical(event, seq: head.seq + 1, data: data))
    }

    /// Appends `event` at the next seq, with its chain value `hash` (`nextHash`), and returns it logged.
    /// The caller has checked it against the rules and made sure its id is new.
    public mutating func append(_ event: Event, hash: [UInt8]) throws -> LoggedEvent {
        let seq = head.seq + 1
        let record = StoredEvent.encode(event, hash: hash)
        let log = reader.log
        let txn = reader.transaction
        try seq.withBigEndianBytes { key in
            // Reserved, not put: the address tells a large write's pager how far the log has grown.
            let slot = try txn.reserve(log.events, key, count: record.count, flags: [.append])
            record.withUnsafeBytes { slot.copyMemory(from: $0) }
            try txn.insert(log.ids, Array(event.id.utf8), Array(UnsafeRawBufferPointer(key)))
        }
        head = LogHead(seq: seq, hash: hash, at: event.at)
        return LoggedEvent(seq: seq, event: event, hash: hash)
    }
}
