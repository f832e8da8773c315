import Domain
import Engine
import EventLog
import Proofs
import StrictJSON

extension VeritrailStore {
    /// `export … --proofs` (cli.md §8): the events `filter` keeps, then the signed checkpoint of the head as
    /// `{"checkpoint": NOTE}` and, for each event in the same order, its RFC 6962 audit path in that tree
    /// (proofs.md §3) as `{"proof": {"seq", "path": [hex…]}}`, one JSON object a line. Events, tree and
    /// checkpoint come from one snapshot, so an auditor checks each event against the checkpoint
    /// (`ExportCheck`) without the events the filter left out. Returns how many events.
    ///
    /// The seqs kept wait for their proofs in memory (8 bytes each); each proof reads O(log N) stored nodes.
    func exportWithProofs(filter: LogFilter, _ line: ([UInt8]) throws -> Void) throws(VeritrailError) -> Int {
        try VeritrailError.catching {
            try store.withProofs { proofs, reader, models in
                try Self.checkActors(filter, models)
                var seqs: [UInt64] = []
                try filter.forEach(reader) { seq, bytes in
                    var out = try StoredEvent.canonical(bytes, seq: seq, withHash: true)
                    out.append(0x0A)
                    try line(out)
                    seqs.append(seq)
                }
                let size = proofs.head
                var writer = CanonicalJSONWriter(reservingCapacity: 512)
                writer.beginObject()
                writer.key("checkpoint")
                writer.string(try proofs.checkpoint(size: size).note)
                writer.endObject()
                try line(writer.bytes + [0x0A])
                for seq in seqs {
                    writer = CanonicalJSONWriter(reservingCapacity: 128 + 68 * 64)
                    writer.beginObject()
                    writer.key("proof")
                    writer.beginObject()
                    writer.key("seq")
                    writer.int(Int64(seq))
                    writer.key("path")
                    writer.beginArray()
                    for hash in try MerkleMath.inclusionPath(index: seq - 1, size: size, proofs.tree) { writer.string(hash.hex) }
                    writer.endArray()
                    writer.endObject()
                    writer.endObject()
                    try line(writer.bytes + [0x0A])
                }
                return seqs.count
            }
        }
    }
}
