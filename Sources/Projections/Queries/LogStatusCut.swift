public import Domain
public import EventLog
public import StrictJSON

/// `log status --as-of` (cli.md §7): the status of the log cut at `head` (the log's head as it was after
/// an earlier event), counted from the stored records' headers (the totals the models keep are the whole
/// log's).
public func logStatus(_ reader: LogReader, cutAt head: LogHead) throws -> JSONValue {
    var totals = LogTotals()
    try reader.forEachRecord(through: head.seq) { seq, bytes in
        let type = try reader.decodingErrors(seq: seq) { () throws(FieldError) -> EventType in
            var source = BinaryFieldSource(bytes: bytes)
            _ = try source.byte("format")
            return try source.choice("type", EventType.self)
        }
        guard let at = StoredEvent.at(in: bytes) else { throw StoreError("the stored event at seq \(seq) is damaged") }
        totals.events += 1
        totals.byType[Int(type.storedIndex)] += 1
        if totals.firstAt == nil { totals.firstAt = at }
        totals.lastAt = at
        return true
    }
    return logStatus(totals, headSeq: head.seq, headHash: head.hash)
}
