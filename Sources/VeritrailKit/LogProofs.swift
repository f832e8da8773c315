import Domain
import Engine
import Proofs

/// The store's verifier key in the signed-note form `NAME+KEYID+BASE64` (proofs.md §2): what an auditor
/// writes down once and checks every checkpoint and proof with.
public struct LogKey: Sendable, Equatable {
    /// The key's name, which is the store's origin (the first line of its checkpoints).
    public let origin: String
    /// `NAME+KEYID+BASE64`, as `log key` prints it.
    public let text: String
    let verifier: VerifierKey

    init(_ verifier: VerifierKey) {
        self.verifier = verifier
        origin = verifier.name
        text = verifier.text
    }

    /// Reads a key in the signed-note form; `.malformed` (saying what is wrong with it) for anything else.
    public init(parsing text: String) throws(VeritrailError) {
        do {
            self.init(try VerifierKey(parsing: text))
        } catch {
            throw .malformed(error.message, line: nil)
        }
    }
}

/// A signed checkpoint (C2SP tlog-checkpoint, proofs.md §2): the root of the tree of the first `size`
/// events, signed with the store's key.
public struct LogCheckpoint: Sendable, Equatable {
    /// The store's origin, the note's first line.
    public var origin: String
    /// How many events the tree holds.
    public var size: UInt64
    /// The tree's root (RFC 6962), 32 bytes.
    public var root: [UInt8]
    /// The signed note, verbatim, as `log checkpoint` prints it.
    public var note: String
}

/// The inclusion proof of one event (proofs.md §3), everything `log prove` prints.
public struct LogInclusionProof: Sendable, Equatable {
    /// The event's seq (its leaf index is `seq - 1`).
    public var seq: UInt64
    /// The size of the tree it is proven in.
    public var size: UInt64
    /// The event's leaf hash, 32 bytes.
    public var leafHash: [UInt8]
    /// The audit path, leaf to root, 32 bytes each.
    public var path: [[UInt8]]
    /// The root of the tree of `size`, 32 bytes.
    public var root: [UInt8]
    /// The signed checkpoint of `size`, verbatim.
    public var checkpoint: String
    /// The C2SP `tlog-proof@v1` text, as `log prove` prints it.
    public var text: String
}

/// A consistency proof between two tree sizes (proofs.md §3), everything `log consistency` prints.
public struct LogConsistencyProof: Sendable, Equatable {
    /// The older tree's size.
    public var old: UInt64
    /// The newer tree's size.
    public var size: UInt64
    /// The older tree's root, 32 bytes.
    public var oldRoot: [UInt8]
    /// The newer tree's root, 32 bytes.
    public var root: [UInt8]
    /// The proof's hashes, 32 bytes each.
    public var path: [[UInt8]]
    /// The signed checkpoint of `size`, verbatim.
    public var checkpoint: String
    /// The body of a tlog-witness `add-checkpoint` request, as `log consistency` prints it.
    public var text: String
}

/// The proofs of proofs.md §2–3, for an auditor's own verifier. Each is made on one snapshot of the store,
/// whose kept checkpoint is checked first (a store that disagrees with it signs nothing). A size or seq
/// beyond the log is refused (`.unknown`, exit 65), named as the command line names it (`--size`, `SEQ`,
/// `OLD`); `size` nil is the head. A store made before proofs gets its key and tree at the first call.
extension VeritrailStore {
    /// The store's verifier key (`log key`): read from the data, whatever becomes of the kept checkpoint or
    /// the secrets file; a store made before proofs gets its key first.
    public func verifierKey() throws(VeritrailError) -> LogKey {
        try VeritrailError.catching {
            if let verifier = try store.verifier() { return LogKey(verifier) }
            return try store.withProofs { LogKey($0.identity.verifier) }
        }
    }

    /// The first size after `after`, at most `through`, at which a write's commit ended, when the store
    /// recorded it (every commit of this version): so that a follower of the log tells each commit apart
    /// (server.md §5). Nil when none is recorded in that range.
    public func firstCommit(after: UInt64, through: UInt64) throws(VeritrailError) -> UInt64? {
        try VeritrailError.catching { try store.firstCommit(after: after, through: through) }
    }

    /// The signed checkpoint of the tree of the first `size` events (`log checkpoint`).
    public func checkpoint(size: UInt64? = nil) throws(VeritrailError) -> LogCheckpoint {
        try VeritrailError.catching {
            let (checkpoint, note) = try store.withProofs { proofs in
                try proofs.checkpoint(size: try Self.within(size ?? proofs.head, proofs.head, "--size"))
            }
            return LogCheckpoint(origin: checkpoint.origin, size: checkpoint.size, root: checkpoint.root.bytes, note: note)
        }
    }

    /// The inclusion proof of the event at `seq` in the tree of `size` events (`log prove`).
    public func inclusionProof(seq: UInt64, size: UInt64? = nil) throws(VeritrailError) -> LogInclusionProof {
        try VeritrailError.catching {
            let proof = try store.withProofs { proofs in
                let size = try Self.within(size ?? proofs.head, proofs.head, "--size")
                return try proofs.inclusion(seq: try Self.within(seq, size, "SEQ"), size: size)
            }
            return LogInclusionProof(seq: proof.seq, size: proof.size, leafHash: proof.leafHash.bytes,
                                     path: proof.path.map(\.bytes), root: proof.root.bytes,
                                     checkpoint: proof.checkpoint, text: proof.text)
        }
    }

    /// The consistency proof from the tree of `old` events to the tree of `size` (`log consistency`).
    public func consistencyProof(old: UInt64, size: UInt64? = nil) throws(VeritrailError) -> LogConsistencyProof {
        try VeritrailError.catching {
            let proof = try store.withProofs { proofs in
                let size = try Self.within(size ?? proofs.head, proofs.head, "--size")
                return try proofs.consistency(old: try Self.within(old, size, "OLD"), size: size)
            }
            return LogConsistencyProof(old: proof.old, size: proof.size, oldRoot: proof.oldRoot.bytes, root: proof.root.bytes,
                                       path: proof.path.map(\.bytes), checkpoint: proof.checkpoint, text: proof.text)
        }
    }

    /// `value` when it is at most `limit`; refused otherwise, naming the argument.
    private static func within(_ value: UInt64, _ limit: UInt64, _ name: String) throws(VeritrailError) -> UInt64 {
        guard value <= limit else {
            throw .unknown(name == "--size"
                ? "--size \(value) is beyond the log's head (\(limit) events)"
                : "\(name) \(value) is beyond the tree's size (\(limit))", cause: nil)
        }
        return value
    }
}

/// What `log reseal --accept-loss` signed over, or would (proofs.md §2).
public struct LogReseal: Sendable, Equatable {
    /// The head it signs: the size of the new checkpoint.
    public var size: UInt64
    /// The root of that tree, 32 bytes.
    public var root: [UInt8]
    /// How far the store's data says it had signed (nil for a store made before version 2 said so).
    public var signedSize: UInt64?
    /// The last size whose signed checkpoint the store can still check against its log (0: none).
    public var provable: UInt64
    /// What was lost (why the kept checkpoint is not enough), or nil when it holds: nothing to reseal.
    public var loss: String?
    /// Whether the head was signed and kept.
    public var resealed: Bool

    /// Says what it signs over, in one or two sentences.
    public var summary: String {
        guard let loss else { return "nothing to reseal: the kept checkpoint (\(provable) events) matches the log" }
        let signed = signedSize.map { "the data says it signed through \($0) events" } ?? "the data does not say how far it signed"
        let proves = provable == 0 ? "no earlier checkpoint can be checked against this log"
            : "the last size it can prove is \(provable) (`veritrail log consistency \(provable)` links it to the head)"
        return "\(resealed ? "signed" : "signs") the head, \(size) events (root \(Hex.encode(root))), over a loss: \(loss); \(signed); "
            + "\(proves); a checkpoint signed before of another tree, or of more events, no longer agrees with this log"
    }
}

extension VeritrailStore {
    /// Signs the head over a kept checkpoint that is missing, not a file, or contradicts the log (`log reseal
    /// --accept-loss`, proofs.md §2), so that the store takes writes again; says what it signed over. Without
    /// `acceptLoss`, nothing is signed and `.malformed` (exit 64) says what it would sign over. Nothing is
    /// signed when the kept checkpoint holds (`loss` nil).
    @discardableResult
    public func reseal(acceptLoss: Bool) throws(VeritrailError) -> LogReseal {
        let plan: ResealPlan? = try VeritrailError.catching {
            acceptLoss ? try store.reseal() : try store.resealPlan()
        }
        guard let plan else { throw .unknown("the store has signed nothing yet: there is nothing to reseal", cause: nil) }
        let answer = LogReseal(size: plan.head, root: plan.root.bytes, signedSize: plan.signedSize, provable: plan.provable,
                               loss: plan.loss, resealed: acceptLoss && plan.loss != nil)
        guard acceptLoss else {
            if plan.loss == nil { throw .malformed("\(answer.summary); log reseal is for a lost checkpoint, with --accept-loss", line: nil) }
            throw .malformed("log reseal signs the head over a lost checkpoint and needs --accept-loss: it \(answer.summary)", line: nil)
        }
        return answer
    }
}

/// The log as C2SP tlog-tiles (server.md §6), for a standard tlog client.
extension VeritrailStore {
    /// The hash tile at `level` and `index` with `width` hashes (1–256), or nil when the log does not hold
    /// it (yet): tiles are immutable, so one that exists is always the same bytes.
    public func hashTile(level: Int, index: UInt64, width: Int) throws(VeritrailError) -> [UInt8]? {
        try VeritrailError.catching { try store.hashTile(level: level, index: index, width: width) }
    }

    /// The entry bundle `index` with `width` entries (1–256), each entry the leaf data of proofs.md §1 after
    /// its 2-byte big-endian length, or nil when the log does not hold them all (yet).
    public func entryBundle(index: UInt64, width: Int) throws(VeritrailError) -> [UInt8]? {
        try VeritrailError.catching { try store.entryBundle(index: index, width: width) }
    }
}
