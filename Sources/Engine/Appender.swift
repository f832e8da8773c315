public import Domain
public import EventLog
public import Projections
import Proofs

/// Appends events inside one write transaction: each is checked against the rules and the state kept so
/// far (earlier events of the same batch included), written to the log, and applied to every read model.
///
/// `import` and every writing command append through this one type, so they share one validation path,
/// and every appended event becomes a leaf of the store's Merkle tree in the same transaction (proofs.md §1).
public struct Appender {
    public private(set) var writer: LogWriter
    public let models: Models
    let tree: TreeWriter

    /// What happened to one appended event.
    public enum Outcome: Sendable, Equatable {
        /// Written at this seq.
        case appended(UInt64)
        /// Its id was already in the log with the same content: an idempotent no-op at this seq.
        case existing(UInt64)

        public var seq: UInt64 {
            switch self {
            case .appended(let s), .existing(let s): s
            }
        }
    }

    init(writer: LogWriter, models: Models, tree: TreeWriter) {
        self.writer = writer
        self.models = models
        self.tree = tree
    }

    public var head: LogHead { writer.head }

    /// Appends `incoming`, or finds it already logged under its id. Throws `EventError` for a broken rule.
    /// `prepared` is its scan made ready on another thread (`Models.apply(_:prepared:)`), when it is one.
    public mutating func append(_ incoming: IncomingEvent, prepared: PreparedScan? = nil) throws -> Outcome {
        let type = incoming.type
        if let id = incoming.id, let seq = try writer.reader.seq(forId: id) {
            guard let existing = try writer.reader.event(at: seq) else { throw StoreError("the id index names a missing event") }
            let same = EventJSON.canonical(existing.event, seq: seq) == EventJSON.canonical(incoming.event(id: id), seq: seq)
            guard same else {
                throw EventError(type: type, path: "id", rule: "\"\(id)\" is already in the log at seq \(seq) with different content")
            }
            if let claimed = incoming.claimedSeq, claimed != seq {
                throw EventError(type: type, path: "seq", rule: "must be \(seq), where the log holds this event, got \(claimed)")
            }
            if let claimed = incoming.claimedHash, claimed != existing.hash {
                throw EventError(type: type, path: "hash", rule: "does not match the logged event's hash at seq \(seq)")
            }
            return .existing(seq)
        }
        let next = writer.head.seq + 1
        if let claimed = incoming.claimedSeq, claimed != next {
            throw EventError(type: type, path: "seq",
                             rule: "must be \(next), the next position in this log, got \(claimed) (an exported line imports only where it came from)")
        }
        try Rules.check(incoming, against: models)
        let sealed = writer.seal(incoming, id: incoming.id ?? EventID.random())
        if let claimed = incoming.claimedHash, claimed != sealed.hash {
            throw EventError(type: type, path: "hash", rule: "does not match the event: the line was changed, or an earlier one was")
        }
        let logged = try writer.append(sealed)
        guard let leaf = TreeHash(bytes: sealed.leafHash) else { preconditionFailure("a leaf hash of \(sealed.leafHash.count) bytes") }
        try tree.append(leaf)
        try models.apply(logged, prepared: prepared)
        return .appended(logged.seq)
    }
}
