/// The full chunks whose pieces are to be made again from their rows by a write to come, as their mark says
/// (`SearchIndex.piecesDueKey`): a served store's (`Store.groupCommits`), whose remaker makes them from a
/// read snapshot on a thread of its own and hands them to a later write (`RemadePieces`).
///
/// Why: a chunk filled by many small writes has its pieces made again from its 16,000 rows when it is full
/// (`SearchIndexWriter.remakePieces`), 170–260 ms of which 80 % is reading the rows and counting their pieces.
/// In the write that fills it, that held up every writer waiting on the server's group commit. A chunk
/// whose pieces are due is searched as a chunk not yet full is: its sets hold every scan, its pieces prove
/// fewer matches, and its rows are read for the others.
///
/// Stored as the chunks' numbers, 4 bytes big-endian each, ascending, sealed (`SealedValue`).
enum DuePieces {
    /// The most chunks a mark names: a write that would name more remakes the oldest itself.
    static let most = 64

    /// The chunks of a stored mark; nil when it does not read (a damaged value, chunks not ascending).
    static func chunks(stored value: UnsafeRawBufferPointer) -> [UInt32]? {
        let count = value.count - SealedValue.checkBytes
        guard count >= 4, count % 4 == 0, count / 4 <= most,
              SealedValue.isSound(key: SearchIndex.piecesDueKey, value: value) else { return nil }
        var chunks: [UInt32] = []
        for at in stride(from: 0, to: count, by: 4) {
            let chunk = UInt32(bigEndian: value.loadUnaligned(fromByteOffset: at, as: UInt32.self))
            guard chunk > chunks.last ?? 0 || chunks.isEmpty else { return nil }
            chunks.append(chunk)
        }
        return chunks
    }

    /// The stored form of a mark naming `chunks` (ascending, at most `most`, not empty).
    static func stored(_ chunks: [UInt32]) -> [UInt8] {
        SealedValue.seal(key: SearchIndex.piecesDueKey, chunks.flatMap { PieceVocabulary.bigEndian($0) })
    }
}
