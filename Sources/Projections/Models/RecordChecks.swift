import EventLog
import LMDB

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
        case ModelTable.search.name: searchSets
        case ModelTable.snapshots.name: snapshots(head: head)
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

    /// The search index's sets (`SearchIndex`): a key of a known kind and shape, a value whose check matches
    /// (`SealedValue`: a flipped bit of a bitmap reads as another set) and that is a container
    /// (`ChunkBits`), or a list of shared pieces' numbers that reads (`PieceNumbers`), or a head's next bytes
    /// that read (`HeadFollowers`), or a list of reports that reads (`ReportSeqs`), or an entry of the pieces'
    /// vocabulary (`PieceVocabulary`); the index's mark, empty; the mark of the scans left out and that of the
    /// chunks whose pieces are due, sealed.
    private static func searchSets(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> String? {
        if SearchIndex.readableKeys.contains(where: { key.elementsEqual($0) }) {
            return value.isEmpty ? nil : "the search index's mark holds \(value.count) bytes"
        }
        if key.elementsEqual(SearchIndex.unindexedKey) {
            return UnindexedScans(stored: value) != nil ? nil : "the mark of the scans left out of the search index does not read"
        }
        if key.elementsEqual(SearchIndex.piecesDueKey) {
            return DuePieces.chunks(stored: value) != nil ? nil : "the mark of the chunks whose pieces are due does not read"
        }
        guard key.count >= 5 else { return "a search set's key of \(key.count) bytes" }
        switch key[4] {
        case PieceVocabulary.byBytes, PieceVocabulary.count, PieceVocabulary.block:
            return PieceVocabulary.damage(key: key, value: value)
        default: break
        }
        guard key.count >= 6, key[key.count - 1] < SearchIndex.chunksPerGroup else { return "a search set's key without its chunk's place" }
        switch key[4] {
        case SearchIndex.unigram, SearchIndex.unigram | SearchIndex.messageFlag:
            guard key.count == 9, key[6] == 0, key[7] == 0 else { return "a unigram's key of the wrong shape" }
        case SearchIndex.trigram, SearchIndex.trigram | SearchIndex.messageFlag:
            // 8 bytes: the union of a pair's trigram sets (`SearchIndex.pairKey`), for fields only.
            guard key.count == 9 || key.count == 8 && key[4] == SearchIndex.trigram
            else { return "a trigram's key of \(key.count) bytes" }
        case SearchIndex.digits, SearchIndex.digits | SearchIndex.messageFlag:
            guard key.count == 9, key[5] == 0, key[6] >> 4 < 10, key[6] & 15 < 10, key[7] >> 4 < 10, key[7] & 15 < 10
            else { return "a run of digits' key of the wrong shape" }
        case SearchIndex.counterfeit, SearchIndex.category, SearchIndex.actor:
            guard key.count >= 8, Int(key[5]) << 8 | Int(key[6]) == key.count - 8 else { return "a label's key of the wrong length" }
        case SearchIndex.pieceList:
            guard key.count == 6 else { return "a list of shared pieces' key of \(key.count) bytes" }
            guard SealedValue.isSound(key: key, value: value) else { return "the list of shared pieces' check does not match its bytes" }
            return PieceNumbers.forEach(SealedValue.body(value)) { _ in } ? nil : "a list of shared pieces that does not read"
        case SearchIndex.pieceMembers:
            guard key.count == 10 else { return "a shared piece's set's key of \(key.count) bytes" }
        case SearchIndex.uncoveredGram:
            guard key.count == 9 else { return "a trigram past the heads' key of \(key.count) bytes" }
        case SearchIndex.headNext:
            guard key.count == 11 else { return "a head and its next byte's key of \(key.count) bytes" }
        case SearchIndex.tailAfterByte:
            guard key.count >= 11, key.count <= 7 + ChunkValues.maxTailKey else { return "a byte before a tail's key of \(key.count) bytes" }
        case SearchIndex.tailAfterTwo:
            guard key.count == 12 else { return "two bytes before a tail's key of \(key.count) bytes" }
        case SearchIndex.tailAfterThree:
            guard key.count == 13 else { return "three bytes before a tail's key of \(key.count) bytes" }
        case SearchIndex.tailsRepeated:
            guard key.count == 6 else { return "the repeated tails' key of \(key.count) bytes" }
        case SearchIndex.wholeMessages:
            guard key.count == 6 else { return "the whole messages' key of \(key.count) bytes" }
        case SearchIndex.reportSeqs:
            guard key.count == 6 else { return "a list of reports' key of \(key.count) bytes" }
            guard SealedValue.isSound(key: key, value: value) else { return "the list of reports' check does not match its bytes" }
            return ReportSeqs.forEach(SealedValue.body(value)) { _, _ in true } ? nil : "a list of reports that does not read"
        case SearchIndex.headFollowing:
            guard key.count == 9 else { return "a head's next bytes' key of \(key.count) bytes" }
            guard SealedValue.isSound(key: key, value: value) else { return "the search set's check does not match its bytes" }
            return HeadFollowers.read(SealedValue.body(value), heads: { _ in }) { _, _, _ in } ? nil : "a head's next bytes that do not read"
        case SearchIndex.formerHeadFollowing:
            // Form 9's: no query reads them, and their seal finds damage.
            guard key.count == 12 else { return "a head's next bytes' key of \(key.count) bytes" }
            return SealedValue.isSound(key: key, value: value) ? nil : "the search set's check does not match its bytes"
        default:
            return "a search set of unknown kind \(key[4])"
        }
        guard SealedValue.isSound(key: key, value: value) else { return "the search set's check does not match its bytes" }
        return ChunkBits.isContainer(SealedValue.body(value)) ? nil : "a search set that is neither bits nor gaps to members"
    }

    /// The snapshots of the small models (`Models.snapshotIfDue`): an 8-byte seq in the log, a value whose
    /// check matches, and entries that decode as their tables' records do.
    private static func snapshots(head: UInt64) -> RecordCheck {
        var checks: [ModelTable: RecordCheck] = [:]
        for table in Models.snapshotTables { checks[table] = recordCheck(forTableNamed: table.name, head: head) }
        return { key, value in
            guard key.count == 8, let seq = UInt64(bigEndianBytes: key), seq > 0, seq <= head else {
                return "a snapshot's key of \(key.count) bytes, or after the log's head \(head)"
            }
            guard SealedValue.isSound(key: key, value: value) else { return "snapshot \(seq)'s check does not match its bytes" }
            do {
                var damage: String?
                try Models.forEachEntry(ofSnapshot: SealedValue.body(value)) { table, key, value in
                    if damage == nil, let check = checks[table] { damage = check(key, value) }
                }
                return damage.map { "snapshot \(seq): \($0)" }
            } catch {
                return "snapshot \(seq) does not decode (\(error))"
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
