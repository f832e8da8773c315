public import Crypto
public import Domain
public import LMDB
import StrictJSON

/// Appends to the log inside one write transaction: assigns `seq` (gap-free, since LMDB runs one write
/// transaction at a time across processes), chains the hash, and indexes the id.
public struct LogWriter {
    public let reader: LogReader
    public private(set) var head: LogHead
    private let scratch = Scratch()

    /// Buffers reused from one appended event to the next: an import appends a million.
    private final class Scratch {
        var canonical = CanonicalJSONWriter()
        var record: [UInt8] = []
        var leafHash: SHA256Digest?
    }

    public init(log: EventLog, transaction: Transaction) throws {
        reader = LogReader(log: log, transaction: transaction)
        head = try reader.head()
    }

    /// The chain value `event` would have if it were appended next; `canonicalHead` is the start of its
    /// canonical form (`EventJSON.canonicalHead`) when already made.
    ///
    /// Its Merkle leaf hash (proofs.md §1, `SHA-256(0x00 ‖ canonical(e))`) is computed from the very same
    /// bytes and kept as `leafHash` for the tree, so that an event is canonicalised once for both.
    public func nextHash(_ event: Event, canonicalHead: [UInt8]? = nil) -> [UInt8] {
        let canonicalHead = canonicalHead ?? EventJSON.canonicalHead(at: event.at, actor: event.actor, payload: event.payload)
        EventJSON.appendCanonicalTail(id: event.id, seq: head.seq + 1, type: event.type, to: &scratch.canonical)
        var leaf = SHA256()
        withUnsafeBytes(of: UInt8(0x00)) { leaf.update(bufferPointer: $0) }
        canonicalHead.withUnsafeBytes { leaf.update(bufferPointer: $0) }
        scratch.canonical.bytes.withUnsafeBytes { leaf.update(bufferPointer: $0) }
        scratch.leafHash = leaf.finalize()
        return HashChain.next(after: head.hash, canonical: canonicalHead, scratch.canonical.bytes)
    }

    /// The Merkle leaf hash of the event last given to `nextHash`: the one `append` logs next.
    public var leafHash: SHA256Digest? { scratch.leafHash }

    /// Appends `event` at the next seq, with its chain value `hash` (`nextHash`), and returns it logged.
    /// The caller has checked it against the rules and made sure its id is new.
    public mutating func append(_ event: Event, hash: [UInt8]) throws -> LoggedEvent {
        let seq = head.seq + 1
        StoredEvent.encode(event, hash: hash, into: &scratch.record)
        let record = scratch.record
        let log = reader.log
        let txn = reader.transaction
        try seq.withBigEndianBytes { key in
            // Reserved, not put: the address tells a large write's pager how far the log has grown.
            let slot = try txn.reserve(log.events, key, count: record.count, flags: [.append])
            record.withUnsafeBytes { slot.copyMemory(from: $0) }
            var id = event.id
            try id.withUTF8 { id in try txn.insert(log.ids, UnsafeRawBufferPointer(id), UnsafeRawBufferPointer(key)) }
        }
        head = LogHead(seq: seq, hash: hash, at: event.at)
        return LoggedEvent(seq: seq, event: event, hash: hash)
    }
}
