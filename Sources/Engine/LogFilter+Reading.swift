public import Domain
public import EventLog

/// Reading the log through a filter (the filter itself is Domain's vocabulary).
extension LogFilter {
    /// Calls `body` with every stored record that matches, in seq order.
    ///
    /// The seq and time bounds become one seq range (the time bounds by binary search, `LogCut`), so only
    /// actors and types are looked at event by event, from the record's header, without decoding it.
    public func forEach(_ reader: LogReader, _ body: (UInt64, UnsafeRawBufferPointer) throws -> Void) throws {
        let head = try reader.head().seq
        var low = max(from, 1), high = min(through, head)
        if let since { low = max(low, try reader.firstSeq(atOrAfter: since, head: head)) }
        if let until { high = min(high, try reader.lastSeq(atOrBefore: until, head: head)) }
        guard low <= high else { return }
        guard !actors.isEmpty || !types.isEmpty else {
            if let last, high - low + 1 > UInt64(last) { low = high - UInt64(last) + 1 }
            try reader.forEachRecord(from: low, through: high) { seq, bytes in try body(seq, bytes); return true }
            return
        }
        guard let last else {
            try reader.forEachRecord(from: low, through: high) { seq, bytes in
                if try matches(bytes, seq: seq, reader) { try body(seq, bytes) }
                return true
            }
            return
        }
        // The last N matches: windows of seqs read from the end back (`windowsBack`) until N match, so that it
        // costs about the distance back to the N-th match, not the log (`log tail -n 5 --type scan.recorded` read
        // every event of a million: 0.2-0.6 s). Of each window the last of its matches still wanted are kept in a
        // ring, then every match kept is read again (N records, each found by its key).
        var seqs: [UInt64] = []
        for window in LogFilter.windowsBack(from: high, to: low, first: last) {
            let wanted = last - seqs.count
            var ring: [UInt64] = []
            var next = 0
            try reader.forEachRecord(from: window.lowerBound, through: window.upperBound) { seq, bytes in
                guard try matches(bytes, seq: seq, reader) else { return true }
                if ring.count < wanted { ring.append(seq) } else { ring[next] = seq; next = (next + 1) % wanted }
                return true
            }
            seqs = Array(ring[next...] + ring[..<next]) + seqs
            if seqs.count >= last { break }
        }
        for seq in seqs {
            try reader.forEachRecord(from: seq, through: seq) { seq, bytes in try body(seq, bytes); return false }
        }
    }

    /// Whether the record's type and actor are among those asked for.
    private func matches(_ bytes: UnsafeRawBufferPointer, seq: UInt64, _ reader: LogReader) throws -> Bool {
        let header = try StoredHeader(bytes, seq: seq, reader, actor: !actors.isEmpty)
        return (types.isEmpty || types.contains(header.type)) && (actors.isEmpty || actors.contains(header.actor))
    }
}
