public import Domain
import EventLog
import Proofs
import StrictJSON

/// The check of `verify FILE` (proofs.md §4, cli.md §8). Two kinds of file are checked:
///
/// - a whole export: its lines parse, their seqs run 1, 2, 3, … and their hashes are the chain's; with a
///   signed checkpoint and its key (`--checkpoint`, `--key`), the signature verifies and the Merkle root of the
///   export's first N events is the checkpoint's;
/// - a file of `export --proofs` (any filter): events whose seqs only increase, then `{"checkpoint": NOTE}`,
///   then one `{"proof": {"seq", "path"}}` per event in the same order. Every event's leaf must lead through
///   its audit path to the checkpoint's root, and the checkpoint's signature verifies under `--key` when it is
///   given; the chain is checked from seq 1 as far as the file holds every event.
///
/// A file whose seqs skip some and that carries no proofs is a filtered export: it is refused as partial
/// (`refusedAsPartial`), since nothing in it can be checked against the log. `checked` says what was.
///
/// The caller hands the lines in one by one (`check`), so that a file of any size streams through; once
/// `isBroken`, further lines are not looked at. Each event's leaf hash and seq are kept (40 bytes an event)
/// until its proof comes.
public struct ExportCheck {
    private let key: LogKey?
    private var given: Checkpoint?
    private var head = LogHead.empty
    private var events: UInt64 = 0
    /// The seq after which the file first skips events (nil while it holds every seq from 1).
    private var gapAfter: UInt64?
    private var frontier = TreeFrontier()
    private var rootAt: TreeHash?
    private var seqs: [UInt64] = []
    private var leaves: [TreeHash] = []
    /// The file's own checkpoint line, once read: the events are behind it, its proofs after it.
    private var carried: Checkpoint?
    private var signatureVerified = false
    private var proven = 0
    private var broken: (seq: UInt64, reason: String)?
    private var partial = false
    private let scanner = JSONScanner()

    /// A check of the chain alone, or of a file that carries its own checkpoint (not verified: no key).
    public init() { key = nil }

    /// A check whose checkpoints verify under `key`: the file's own, or `signedCheckpoint` when given (a
    /// whole export is then checked against it). A note that does not verify under the key (or whose
    /// origin is not the key's name) breaks the check at once.
    public init(signedCheckpoint note: String?, key: LogKey) {
        self.key = key
        guard let note else { return }
        do throws(NoteError) {
            let opened = try open(note)
            given = opened
            rootAt = opened.size == 0 ? TreeHash.empty : nil
            signatureVerified = true
        } catch {
            broken = (1, "the checkpoint does not verify under the key: \(error.message)")
        }
    }

    /// Checks the file at `path` (stdin for `-`) line by line, as `verify FILE` does, stopping at the first
    /// break; `outcome` then has the answer. The file streams through: its pages are let go as it is read.
    public mutating func check(path: String) throws(VeritrailError) {
        let reader = path == "-" ? try LineReader(fileDescriptor: 0) : try LineReader(path: path)
        while !isBroken, try reader.next({ line in check(line: line, number: reader.lineNumber) }) {}
    }

    /// Whether the check has failed already (the answer is known; the rest of the file need not be read).
    public var isBroken: Bool { broken != nil }

    /// Checks the file's line `number` (1-based, without its line end). Blank lines are skipped.
    public mutating func check(line: UnsafeRawBufferPointer, number: Int) {
        guard broken == nil, !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return }
        switch Self.kind(of: line) {
        case .checkpoint: checkpointLine(line, number: number)
        case .proof: proofLine(line, number: number)
        case .event:
            guard carried == nil else {
                broken = (head.seq + 1, "line \(number): an event after the checkpoint line; only proofs follow it")
                return
            }
            eventLine(line, number: number)
        }
    }

    private enum LineKind { case event, checkpoint, proof }

    /// What a line holds, from its first key: `{"checkpoint"` and `{"proof"` are the lines `export --proofs`
    /// adds (no event has such a field), anything else is read as an event.
    private static func kind(of line: UnsafeRawBufferPointer) -> LineKind {
        var i = 0
        func skipSpace() { while i < line.count, [0x20, 0x09, 0x0D].contains(line[i]) { i += 1 } }
        skipSpace()
        guard i < line.count, line[i] == UInt8(ascii: "{") else { return .event }
        i += 1
        skipSpace()
        let rest = UnsafeRawBufferPointer(rebasing: line[i...])
        if rest.starts(with: Array("\"checkpoint\"".utf8)) { return .checkpoint }
        if rest.starts(with: Array("\"proof\"".utf8)) { return .proof }
        return .event
    }

    private mutating func eventLine(_ line: UnsafeRawBufferPointer, number: Int) {
        let incoming: IncomingEvent
        do {
            incoming = try decodeLine(line, number: number, scanner: scanner)
        } catch {
            broken = (head.seq + 1, error.description)
            return
        }
        guard let id = incoming.id, let seq = incoming.claimedSeq, let claimedHash = incoming.claimedHash else {
            broken = (head.seq + 1, "line \(number): not an exported line (it needs id, seq and hash)")
            return
        }
        guard seq > head.seq else {
            // After a skip, the skip is the likelier fault (a changed seq), so it is the seq named.
            let skipped = gapAfter.map { " (the file skips seq \($0 + 1))" } ?? ""
            broken = ((gapAfter ?? head.seq) + 1, "line \(number): seq \(seq) where \(head.seq + 1) or later was expected\(skipped)")
            return
        }
        if seq != head.seq + 1, gapAfter == nil { gapAfter = head.seq }
        let canonicalHead = incoming.canonicalHead
        var tail = CanonicalJSONWriter(reservingCapacity: 256)
        EventJSON.appendCanonicalTail(id: id, seq: seq, type: incoming.type, to: &tail)
        let leaf = TreeHash.leaf(canonicalHead + tail.bytes)
        if gapAfter == nil {
            let hash = HashChain.next(after: head.hash, canonical: canonicalHead, tail.bytes)
            guard hash == claimedHash else {
                broken = (seq, "hash mismatch: the event or an earlier one was changed")
                return
            }
            frontier.append(leaf) { _ in }
            if seq == given?.size { rootAt = frontier.root }
        }
        seqs.append(seq)
        leaves.append(leaf)
        events += 1
        head = LogHead(seq: seq, hash: claimedHash, at: incoming.at)
    }

    private mutating func checkpointLine(_ line: UnsafeRawBufferPointer, number: Int) {
        let bad = head.seq + 1
        guard carried == nil else { broken = (bad, "line \(number): a second checkpoint line"); return }
        guard let note = (try? JSONValue.parse(line))?["checkpoint"]?.stringValue else {
            broken = (bad, "line \(number): not a checkpoint line ({\"checkpoint\": NOTE})")
            return
        }
        let checkpoint: Checkpoint
        do throws(NoteError) {
            if key != nil {
                checkpoint = try open(note)
                signatureVerified = true
            } else {
                checkpoint = try Checkpoint(text: try SignedNote.unverifiedText(note))
            }
        } catch {
            broken = (bad, "line \(number): the file's checkpoint does not verify\(key.map { " under the key \($0.text)" } ?? ""): \(error.message)")
            return
        }
        if let given, given != checkpoint {
            broken = (bad, "line \(number): the file's checkpoint (\(checkpoint.size) events) is not the one given with --checkpoint (\(given.size) events)")
            return
        }
        if let last = seqs.last, last > checkpoint.size {
            broken = (last, "event \(last) is past the checkpoint's \(checkpoint.size) events")
            return
        }
        carried = checkpoint
    }

    private mutating func proofLine(_ line: UnsafeRawBufferPointer, number: Int) {
        guard let checkpoint = carried else {
            broken = (head.seq + 1, "line \(number): a proof before the checkpoint line")
            return
        }
        guard proven < seqs.count else {
            broken = (head.seq + 1, "line \(number): more proofs than events")
            return
        }
        let expected = seqs[proven]
        let seq: Int64
        var path: [TreeHash] = []
        if let written = Self.writtenProof(line) {
            (seq, path) = written
        } else {
            let proof = (try? JSONValue.parse(line))?["proof"]
            guard let given = proof?["seq"]?.intValue, let hashes = proof?["path"]?.arrayValue else {
                broken = (expected, "line \(number): not a proof line ({\"proof\": {\"seq\", \"path\"}})")
                return
            }
            for hash in hashes {
                guard let hex = hash.stringValue, let bytes = Hex.decode(hex), let node = TreeHash(bytes: bytes) else {
                    broken = (expected, "line \(number): the proof of seq \(given) holds a hash that is not 64 hex digits")
                    return
                }
                path.append(node)
            }
            seq = given
        }
        guard seq == expected else {
            broken = (expected, "line \(number): the proof of seq \(seq) where the proof of seq \(expected) was expected")
            return
        }
        guard MerkleMath.root(index: expected - 1, size: checkpoint.size, leaf: leaves[proven], path: path) == checkpoint.root else {
            broken = (expected, "event \(expected) is not in the checkpoint's tree: its proof does not lead to the root (the event or its proof was changed)")
            return
        }
        proven += 1
    }

    /// A proof line exactly as `export --proofs` writes it (`{"proof":{"seq":N,"path":["64 hex",…]}}`, then
    /// nothing but spaces), read without a JSON tree: most of a large file's lines. Nil for anything else,
    /// which the JSON parser then reads.
    private static func writtenProof(_ line: UnsafeRawBufferPointer) -> (seq: Int64, path: [TreeHash])? {
        let head = Array(#"{"proof":{"seq":"#.utf8), middle = Array(#","path":["#.utf8)
        guard line.starts(with: head) else { return nil }
        var i = head.count
        var seq: Int64 = 0
        let digitsStart = i
        while i < line.count, line[i] >= 0x30, line[i] <= 0x39, i - digitsStart < 18 {
            seq = seq * 10 + Int64(line[i] - 0x30)
            i += 1
        }
        guard i > digitsStart, line[digitsStart] != 0x30 || i == digitsStart + 1,
              UnsafeRawBufferPointer(rebasing: line[i...]).starts(with: middle) else { return nil }
        i += middle.count
        var path: [TreeHash] = []
        var bytes = [UInt8](repeating: 0, count: 32)
        if i < line.count, line[i] == UInt8(ascii: "]") {
            i += 1
        } else {
            while true {
                guard i + 66 <= line.count, line[i] == 0x22, line[i + 65] == 0x22 else { return nil }
                for k in 0..<32 {
                    guard let high = hexValue(line[i + 1 + 2 * k]), let low = hexValue(line[i + 2 + 2 * k]) else { return nil }
                    bytes[k] = high << 4 | low
                }
                guard let node = TreeHash(bytes: bytes) else { return nil }
                path.append(node)
                i += 66
                guard i < line.count else { return nil }
                if line[i] == UInt8(ascii: ",") { i += 1; continue }
                guard line[i] == UInt8(ascii: "]") else { return nil }
                i += 1
                break
            }
        }
        guard i + 2 <= line.count, line[i] == UInt8(ascii: "}"), line[i + 1] == UInt8(ascii: "}"),
              line[(i + 2)...].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return nil }
        return (seq, path)
    }

    /// A lower-case hex digit's value (the form `Hex` writes), nil otherwise.
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// The note opened under the key, its origin the key's name.
    private func open(_ note: String) throws(NoteError) -> Checkpoint {
        guard let key else { throw NoteError("no key") }
        let opened = try Checkpoint(text: try SignedNote.open(note, key: key.verifier))
        guard opened.origin == key.origin else { throw NoteError("its origin \(opened.origin) is not the key's name \(key.origin)") }
        return opened
    }

    /// The answer for the lines checked so far, taken as the whole file: ok with the head, or the first
    /// bad seq and why (a checkpoint that covers more events than the file holds, or another root, an event
    /// without its proof, a filtered export without proofs).
    public var outcome: VerificationOutcome {
        if let broken { return .broken(firstBadSeq: broken.seq, reason: broken.reason) }
        if carried != nil {
            guard proven == seqs.count else {
                return .broken(firstBadSeq: seqs[proven], reason: "event \(seqs[proven]) has no inclusion proof")
            }
            return .ok(events: events, head: head)
        }
        if let gapAfter {
            return .broken(firstBadSeq: gapAfter + 1, reason: """
                the file is a partial export: it holds \(events) events of seqs 1…\(head.seq) and not seq \(gapAfter + 1), \
                so they can not be chained; export it with --proofs (any filter) to have each event checked, or check \
                a whole export
                """)
        }
        if let given {
            guard given.size <= head.seq else {
                return .broken(firstBadSeq: head.seq + 1,
                               reason: "the export holds \(head.seq) events, the checkpoint covers \(given.size)")
            }
            guard rootAt == given.root else {
                return .broken(firstBadSeq: 1, reason: "the first \(given.size) events do not have the checkpoint's root")
            }
        }
        return .ok(events: events, head: head)
    }

    /// Whether the file was refused as a filtered export without proofs (a refusal that is not a break).
    public var refusedAsPartial: Bool { broken == nil && carried == nil && gapAfter != nil }

    /// Whether a whole export (no checkpoint of its own) was checked with a key and no --checkpoint: the key
    /// had nothing to check. A filtered export without proofs is refused as partial instead.
    public var keyUnused: Bool { key != nil && given == nil && carried == nil && broken == nil && gapAfter == nil }

    /// What the check looked at, for its answer (meaningful when the outcome is ok).
    public var checked: ExportChecked {
        let checkpoint = carried ?? given
        let chain = gapAfter ?? head.seq
        let inclusion: UInt64 = carried != nil ? UInt64(proven) : (given.map { min($0.size, head.seq) } ?? 0)
        return ExportChecked(chain: chain, checkpointOrigin: checkpoint?.origin, checkpointSize: checkpoint?.size,
                             checkpointRoot: checkpoint?.root.bytes, signature: checkpoint != nil && signatureVerified,
                             inclusion: inclusion, carriedProofs: carried != nil,
                             partial: gapAfter != nil || (carried.map { $0.size > head.seq } ?? false))
    }

    /// Reads a checkpoint or key file given to a check (`verify FILE --checkpoint F --key F`): a regular
    /// file of at most 64 KiB (a checkpoint is about 200 bytes, so a damaged one is never read without bound),
    /// never waiting on a FIFO. A file that is missing, larger, not a regular file or unreadable is refused
    /// as a bad input (`.unknown`, exit 65), in a sentence that names it.
    public static func readSmallFile(path: String) throws(VeritrailError) -> String {
        switch CheckpointFile.read(path: path, followLinks: true) {
        case .note(let text): return text
        case .missing: throw .unknown("no such file: \(path)", cause: nil)
        case .refused(let why): throw .unknown(why, cause: nil)
        }
    }
}

/// What `verify FILE` checked (cli.md §8): the chain, the checkpoint and its signature, inclusion.
public struct ExportChecked: Sendable, Equatable {
    /// Events 1…`chain` were checked through the hash chain (0: none; a file that starts later has none).
    public var chain: UInt64
    /// The checkpoint the events were checked against: the file's own or `--checkpoint`'s; nil for none.
    public var checkpointOrigin: String?
    public var checkpointSize: UInt64?
    /// Its root, 32 bytes.
    public var checkpointRoot: [UInt8]?
    /// Whether the checkpoint's signature verified under `--key` (false: not checked, no key).
    public var signature: Bool
    /// How many of the file's events were shown to be in the checkpoint's tree: by their inclusion proofs,
    /// or (a whole export with `--checkpoint`) by recomputing the root of the first N.
    public var inclusion: UInt64
    /// Whether the file carried its checkpoint and proofs (`export --proofs`).
    public var carriedProofs: Bool
    /// Whether the file holds only some of the log's events (a filtered export).
    public var partial: Bool
}
