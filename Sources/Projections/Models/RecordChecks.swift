import EventLog

extension ModelTable {
    /// Checks one stored record of a read model's table: why it is damaged, or nil.
    public typealias RecordCheck = (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> String?

    /// The check of the records of the table named `name`, for one walk of it in key order (`log verify` calls
    /// it with every record as it walks the table's pages) in a store whose log ends at `head`; nil for a
    /// table whose records are not decoded.
    ///
    /// Each check decodes a record with the decoder the queries use (`init(decoding:)`, the scan list's
    /// `ScanRowHeader` and `ScanRow.decodeTail`), so a record a query would trip over — one flipped byte in a varint, a length, a
    /// choice — is found before the query meets it. A scan row must also name a seq of the log, each after
    /// the one before (the rows are kept in scan order): a flipped byte in a row's seq decoded well, and the
    /// history then found no scan at it. A record that still decodes after the damage (a count off by some)
    /// can not be told from a right one without making the models again from the log, which is what `rebuild`
    /// does and costs more than the whole verify (docs/INTEGRITY.md). The indexes (scan ids, each actor's
    /// scans, codes, e-mails, sessions) hold ordinals, counts and names that any bytes encode: their pages
    /// are walked, their records not decoded.
    public static func recordCheck(forTableNamed name: String, head: UInt64) -> RecordCheck? {
        switch name {
        case ModelTable.accounts.name: decodes { try AccountRecord(decoding: $0) }
        case ModelTable.stats.name: decodes { try StatsRecord(decoding: $0) }
        case ModelTable.userMonths.name: decodes { try UserMonthRecord(decoding: $0) }
        case ModelTable.meta.name: decodes { try LogTotals(decoding: $0) }
        case ModelTable.scans.name: scanRows(head: head)
        default: nil
        }
    }

    /// A check that `decode` reads the value.
    private static func decodes<R>(_ decode: @escaping (UnsafeRawBufferPointer) throws -> R) -> RecordCheck {
        { _, value in
            do {
                _ = try decode(value)
                return nil
            } catch {
                return "the record does not decode (\(error))"
            }
        }
    }

    /// The scan list's rows: 4-byte ordinals, rows that decode, seqs in the log and in order.
    private static func scanRows(head: UInt64) -> RecordCheck {
        var previous: UInt64 = 0
        return { key, value in
            guard key.count == 4 else { return "a scan's ordinal of \(key.count) bytes" }
            let row: ScanRowHeader
            do {
                row = try ScanRowHeader(value, reportsThrough: .max)
                var tail = BinaryFieldSource(bytes: value, position: row.end)
                _ = try ScanRow.decodeTail(&tail, reportSeq: row.reportSeq)
            } catch {
                return "the scan row does not decode (\(error))"
            }
            guard row.seq > previous, row.seq <= head, row.reportSeq <= head else {
                return "the scan row names seq \(row.seq) (report \(row.reportSeq)), after \(previous), in a log of \(head) events"
            }
            previous = row.seq
            return nil
        }
    }
}
