/// The reports with a message on one chunk's scans, each its seq and its scan's offset in the chunk
/// (`SearchIndex.reportSeqs`): which messages a replay of a prefix of the log holds, without the rows.
///
/// Why: a replay of the log's first `n` events leaves out the reports made after them (`ScanRowHeader`), so
/// a scan whose message may hold a needle was a row read in every replay, whatever the prefix (72,307
/// reports carry a message at ten million events): `a ` as of the 9,990,000th took 134 ms, 15 ms at the
/// head. With these, a replay takes from the messages' sets the scans reported within the prefix, and
/// answers as a query at the head does.
///
/// Stored as LEB128 varints, seq ascending (a write's reports come after every stored one, so a write
/// appends): per report the gap from the seq before (from 0; never 0, a seq is one event's) and the offset.
/// About 3 bytes a report: ~1 KB a chunk of the bench's log.
enum ReportSeqs {
    /// `stored` (a list's body, or empty) with `reports` added, in seq order, a seq listed twice once; nil when
    /// `stored` does not read or a report's offset is not a chunk's. A write's reports come after every stored
    /// one, so the sort finds them in order (and is linear then); a rebuild's come in the rows' order.
    static func adding(_ reports: [(seq: UInt64, offset: Int)], to stored: UnsafeRawBufferPointer) -> [UInt8]? {
        var listed: [(seq: UInt64, offset: Int)] = []
        guard forEach(stored, { seq, offset in listed.append((seq, offset)); return true }),
              reports.allSatisfy({ $0.seq > 0 && $0.offset >= 0 && $0.offset < ChunkBits.scansPerChunk })
        else { return nil }
        listed += reports
        listed.sort { $0.seq < $1.seq }
        var bytes: [UInt8] = [], last: UInt64 = 0
        for report in listed where report.seq != last {
            Varint.append(report.seq - last, to: &bytes)
            Varint.append(UInt64(report.offset), to: &bytes)
            last = report.seq
        }
        return bytes
    }

    /// Calls `body` with each report's seq and offset, in seq order, until it returns false; false when the
    /// list does not read (a varint cut short or too long, a seq not after the one before, an offset past a
    /// chunk's), `body`'s answers aside.
    @discardableResult
    static func forEach(_ list: UnsafeRawBufferPointer, _ body: (_ seq: UInt64, _ offset: Int) -> Bool) -> Bool {
        guard let base = list.baseAddress else { return true }
        var at = 0, seq: UInt64 = 0
        while at < list.count {
            guard let gap = Varint.read(base, at: &at, end: list.count, maxBytes: 9), gap > 0, at < list.count,
                  let offset = Varint.read(base, at: &at, end: list.count, maxBytes: 2), offset < UInt64(ChunkBits.scansPerChunk)
            else { return false }
            let (next, overflow) = seq.addingReportingOverflow(gap)
            guard !overflow else { return false }
            seq = next
            if !body(seq, Int(offset)) { return true }
        }
        return true
    }

    /// The scans of the list reported at or before `through`; nil when the list does not read that far.
    static func reported(_ list: UnsafeRawBufferPointer, through: UInt64) -> ChunkBits? {
        var bits = ChunkBits()
        let reads = forEach(list) { seq, offset in
            guard seq <= through else { return false }
            bits.insert(offset)
            return true
        }
        return reads ? bits : nil
    }
}
