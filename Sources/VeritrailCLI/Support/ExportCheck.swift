import Domain
import EventLog
import Proofs
import StrictJSON

/// The check of `verify FILE` (proofs.md §4): an export's lines parse, their seqs run 1, 2, 3, … and their
/// hashes are the chain's; with a signed checkpoint and its key, the signature verifies and the Merkle root
/// of the export's first N events is the checkpoint's. Reads the file once, line by line.
enum ExportCheck {
    static func run(_ reader: LineReader, checkpoint signed: (note: String, key: VerifierKey)?) throws -> LogVerifier.Outcome {
        var checkpoint: Checkpoint?
        if let signed {
            do {
                let opened = try Checkpoint(text: try SignedNote.open(signed.note, key: signed.key))
                guard opened.origin == signed.key.name else { throw NoteError("its origin \(opened.origin) is not the key's name \(signed.key.name)") }
                checkpoint = opened
            } catch let error as NoteError {
                return .broken(firstBadSeq: 1, reason: "the checkpoint does not verify under the key: \(error.message)")
            }
        }
        var head = LogHead.empty
        var frontier = TreeFrontier()
        var rootAt: TreeHash? = checkpoint?.size == 0 ? TreeHash.empty : nil
        var broken: (seq: UInt64, reason: String)?
        var tail = CanonicalJSONWriter()
        let scanner = JSONScanner()
        reader.rewind()
        while broken == nil, try reader.next({ line in
            guard !isBlank(line) else { return }
            let seq = head.seq + 1
            let incoming: IncomingEvent
            do {
                incoming = try decodeLine(line, number: reader.lineNumber, scanner: scanner)
            } catch let failure as Failure {
                broken = (seq, failure.message)
                return
            }
            guard let id = incoming.id, let claimedSeq = incoming.claimedSeq, let claimedHash = incoming.claimedHash else {
                broken = (seq, "line \(reader.lineNumber): not an exported line (it needs id, seq and hash)")
                return
            }
            guard claimedSeq == seq else {
                broken = (seq, "line \(reader.lineNumber): seq \(claimedSeq) where \(seq) was expected")
                return
            }
            let canonicalHead = incoming.canonicalHead
                ?? EventJSON.canonicalHead(at: incoming.at, actor: incoming.actor, payload: incoming.payload)
            tail = CanonicalJSONWriter(reservingCapacity: 256)
            EventJSON.appendCanonicalTail(id: id, seq: seq, type: incoming.type, to: &tail)
            let hash = HashChain.next(after: head.hash, canonical: canonicalHead, tail.bytes)
            guard hash == claimedHash else {
                broken = (seq, "hash mismatch: the event or an earlier one was changed")
                return
            }
            frontier.append(TreeHash.leaf(canonicalHead + tail.bytes)) { _ in }
            if seq == checkpoint?.size { rootAt = frontier.root }
            head = LogHead(seq: seq, hash: hash, at: incoming.at)
        }) {}
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
}
