public import Domain
import EventLog
import Proofs
import StrictJSON

/// The check of `verify FILE` (proofs.md §4): an export's lines parse, their seqs run 1, 2, 3, … and their
/// hashes are the chain's; with a signed checkpoint and its key, the signature verifies and the Merkle root
/// of the export's first N events is the checkpoint's. Nothing is imported and no store is needed.
///
/// The caller reads the file and hands the lines in one by one (`check`), so that a file of any size
/// streams through; once `isBroken`, further lines are not looked at. `outcome` gives the answer.
public struct ExportCheck {
    private var checkpoint: Checkpoint?
    private var head = LogHead.empty
    private var frontier = TreeFrontier()
    private var rootAt: TreeHash?
    private var broken: (seq: UInt64, reason: String)?
    private let scanner = JSONScanner()

    /// A check of the chain alone.
    public init() {}

    /// A check of the chain and of the signed checkpoint `note` under `key`. A note that does not verify
    /// under the key (or whose origin is not the key's name) breaks the check at once.
    public init(signedCheckpoint note: String, key: LogKey) {
        do throws(NoteError) {
            let opened = try Checkpoint(text: try SignedNote.open(note, key: key.verifier))
            guard opened.origin == key.origin else { throw NoteError("its origin \(opened.origin) is not the key's name \(key.origin)") }
            checkpoint = opened
            rootAt = opened.size == 0 ? TreeHash.empty : nil
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
        let seq = head.seq + 1
        let incoming: IncomingEvent
        switch decode(line, number: number) {
        case .success(let event): incoming = event
        case .failure(let reason):
            broken = (seq, reason.description)
            return
        }
        guard let id = incoming.id, let claimedSeq = incoming.claimedSeq, let claimedHash = incoming.claimedHash else {
            broken = (seq, "line \(number): not an exported line (it needs id, seq and hash)")
            return
        }
        guard claimedSeq == seq else {
            broken = (seq, "line \(number): seq \(claimedSeq) where \(seq) was expected")
            return
        }
        let canonicalHead = incoming.canonicalHead
        var tail = CanonicalJSONWriter(reservingCapacity: 256)
        EventJSON.appendCanonicalTail(id: id, seq: seq, type: incoming.type, to: &tail)
        let hash = HashChain.next(after: head.hash, canonical: canonicalHead, tail.bytes)
        guard hash == claimedHash else {
            broken = (seq, "hash mismatch: the event or an earlier one was changed")
            return
        }
        frontier.append(TreeHash.leaf(canonicalHead + tail.bytes)) { _ in }
        if seq == checkpoint?.size { rootAt = frontier.root }
        head = LogHead(seq: seq, hash: hash, at: incoming.at)
    }

    /// The answer for the lines checked so far, taken as the whole file: ok with the head, or the first
    /// bad seq and why (a checkpoint that covers more events than the file holds, or another root).
    public var outcome: VerificationOutcome {
        if let broken { return .broken(firstBadSeq: broken.seq, reason: broken.reason) }
        if let checkpoint {
            guard checkpoint.size <= head.seq else {
                return .broken(firstBadSeq: head.seq + 1,
                               reason: "the export holds \(head.seq) events, the checkpoint covers \(checkpoint.size)")
            }
            guard rootAt == checkpoint.root else {
                return .broken(firstBadSeq: 1, reason: "the first \(checkpoint.size) events do not have the checkpoint's root")
            }
        }
        return .ok(events: head.seq, head: head)
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

    /// One line as an event, decoded as an import decodes it (`decodeLine`): the refusal names the line.
    private func decode(_ line: UnsafeRawBufferPointer, number: Int) -> Result<IncomingEvent, VeritrailError> {
        do {
            return .success(try decodeLine(line, number: number, scanner: scanner))
        } catch {
            return .failure(error)
        }
    }
}
