/// A full chunk's pieces and the sets made with them, counted again from its rows (`SearchIndexWriter.remakePieces`),
/// before anything is written: the part that reads and counts (80 % of the time), which a served store does
/// from a read snapshot on a thread of its own (`DuePieces`), the writes left to a later write transaction
/// (`SearchIndexWriter.store(_:)`).
///
/// What the rows held at the snapshot stays true: a full chunk gets no more scans, and a row changes only by
/// its report. The reports made after it (`through`) are listed by the chunk's `ReportSeqs` and merged into
/// the pieces by the write that stores them, as their own writes had merged them into the pieces before.
public struct RemadePieces: @unchecked Sendable {
    let chunk: UInt32
    /// The last event the rows were read at: the snapshot's head.
    let through: UInt64
    let listed: [(source: UInt8, bytes: [UInt8], members: ChunkBits)]
    /// The scans whose report's message is a listed message piece whole (`SearchIndex.wholeMessages`).
    let whole: ChunkBits
    /// The sets past the heads (`ChunkValues.uncovered`), the tails' sets (`ChunkValues.tailsAfter`), sealed.
    let uncovered: [(key: [UInt8], value: [UInt8])]
    let tailsAfter: [(key: [UInt8], value: [UInt8])]
    /// The heads' sets, before the heads are numbered (`PieceVocabulary`, in the write).
    let headNext: [(head: [UInt8], byte: UInt8, members: [UInt8])]
    let headFollowing: HeadFollowing?

    /// Counts `chunk`'s pieces from its rows in `tables`, as they are at event `through`.
    init(of chunk: UInt32, in tables: any ModelTables, through: UInt64) throws {
        var values = ChunkValues()
        var messages: [(offset: Int, text: [UInt8])] = []
        for offset in 0..<SearchIndex.scansPerChunk {
            let ordinal = SearchIndex.first(of: chunk) + UInt32(offset)
            try tables.withValue(.scans, Models.ordinalKey(ordinal)) { row in
                guard let row else { return }
                let fields = try ScanRowHeader(row, reportsThrough: .max).searchFields
                for (i, field) in fields.enumerated() {
                    let source = i == ScanRow.searchFieldCount - 1 ? ChunkValues.message : ChunkValues.own
                    values.add(offset, text: field, source: source, firstField: i)
                    if source == ChunkValues.message && !field.isEmpty { messages.append((offset, Array(field))) }
                }
            }
        }
        self.chunk = chunk
        self.through = through
        listed = values.listed()
        whole = SearchIndexWriter.wholeMessages(messages, in: listed)
        uncovered = values.uncovered().map { SearchIndexWriter.sealed($0, chunk: chunk) } ?? []
        headNext = values.headNext() ?? []
        headFollowing = values.headFollowing()
        tailsAfter = SearchIndexWriter.sealed(tailsAfter: values.tailsAfter(), chunk: chunk)
    }
}
