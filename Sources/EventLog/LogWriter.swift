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
        /// The canonical form whole (its head, then `canonical`'s tail), which the hashes read in one piece.
        var whole: [UInt8] = []
        var record: [UInt8] = []
    }

    public init(log: EventLog, transaction: Transaction) throws {
        reader = LogReader(log: log, transaction: transaction)
        head = try reader.head()
    }

    /// An event ready to be appended at the next seq: its chain value and Merkle leaf hash, computed from the
    /// canonical bytes of this very event. `seal` is the only way to make one, and `append` stores exactly its
    /// `event`, so that what is stored and what is hashed can not part.
    public struct Sealed {
        public let event: Event
        public let seq: UInt64
        /// The hash chain value after this event (events.md §2).
        public let hash: [UInt8]
        /// Its Merkle leaf hash (proofs.md §1, `SHA-256(0x00 ‖ canonical(e))`, 32 bytes), from the same bytes as
        /// `hash`.
        public let leafHash: [UInt8]
    }

    /// `incoming` with the id `id` (when it has none), hashed for the next seq: its canonical form is made
    /// once (its head from the fields as they are now: `IncomingEvent.canonicalHead`) for both the chain and
    /// the tree.
    public func seal(_ incoming: IncomingEvent, id: String) -> Sealed {
        let event = incoming.event(id: id)
        let canonicalHead = incoming.canonicalHead
        let seq = head.seq + 1
        EventJSON.appendCanonicalTail(id: event.id, seq: seq, type: event.type, to: &scratch.canonical)
        scratch.whole.removeAll(keepingCapacity: true)
        scratch.whole.append(contentsOf: canonicalHead)
        scratch.whole.append(contentsOf: scratch.canonical.bytes)
        var hash = [UInt8](repeating: 0, count: 32), leaf = [UInt8](repeating: 0, count: 32)
        head.hash.withUnsafeBytes { previous in
            scratch.whole.withUnsafeBytes { canonical in
                hash.withUnsafeMutableBytes { link in
                    leaf.withUnsafeMutableBytes { leafBytes in
                        HashChain.linkAndLeaf(after: previous, canonical: canonical, link: link.baseAddress!, leaf: leafBytes.baseAddress!)
                    }
                }
            }
        }
        return Sealed(event: event, seq: seq, hash: hash, leafHash: leaf)
    }

    /// Appends `sealed` at its seq, the next one, and returns it logged. The caller has checked it against
    /// the rules and made sure its id is new.
    public mutating func append(_ sealed: Sealed) throws -> LoggedEvent {
        let seq = head.seq + 1
        guard sealed.seq == seq else { throw StoreError("an event sealed for seq \(sealed.seq) was appended at \(seq)") }
        let event = sealed.event, hash = sealed.hash
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
