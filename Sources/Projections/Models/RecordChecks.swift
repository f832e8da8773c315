import Domain

extension ModelTable {
    /// Checks one stored record of a read model's table: why it is damaged, or nil.
    public typealias RecordCheck = @Sendable (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> String?

    /// The check of the records of the table named `name` (`log verify` calls it with every record as it
    /// walks the table's pages), or nil for a table whose records are not decoded.
    ///
    /// Each check decodes a record with the decoder the queries use (`init(decoding:)`, the scan list's
    /// `ScanRowHeader`), so a record a query would trip over — one flipped byte in a varint, a length, a
    /// choice — is found before the query meets it. A record that still decodes after the damage (a count
    /// off by some) can not be told from a right one without making the models again from the log, which is
    /// what `rebuild` does and costs more than the whole verify (docs/INTEGRITY.md). The indexes (scan ids,
    /// each actor's scans, codes, e-mails, sessions) hold ordinals, counts and names that any bytes encode:
    /// their pages are walked, their records not decoded.
    public static func recordCheck(forTableNamed name: String) -> RecordCheck? { checks[name] }

    private static let checks: [String: RecordCheck] = [
        ModelTable.accounts.name: decodes { try AccountRecord(decoding: $0) },
        ModelTable.scans.name: { key, value in
            guard key.count == 4 else { return "a scan's ordinal of \(key.count) bytes" }
            do {
                _ = try ScanRowHeader(value, reportsThrough: .max)
                return nil
            } catch {
                return "the scan row does not decode (\(error))"
            }
        },
        ModelTable.stats.name: decodes { try StatsRecord(decoding: $0) },
        ModelTable.userMonths.name: decodes { try UserMonthRecord(decoding: $0) },
        ModelTable.meta.name: decodes { try LogTotals(decoding: $0) },
    ]

    /// A check that `decode` reads the value.
    private static func decodes<R>(_ decode: @escaping @Sendable (UnsafeRawBufferPointer) throws -> R) -> RecordCheck {
        { _, value in
            do {
                _ = try decode(value)
                return nil
            } catch {
                return "the record does not decode (\(error))"
            }
        }
    }
}
