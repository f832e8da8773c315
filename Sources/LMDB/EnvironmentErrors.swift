/// A commit that failed: LMDB reported an error (an I/O error while flushing, say), but with `MDB_WRITEMAP`
/// the pages, the meta page included, may already be in the file, so the transaction may have committed.
/// A caller must not assume that nothing was written: it checks, or retries idempotently.
public struct CommitFailed: Error, CustomStringConvertible {
    /// What LMDB said; catchable by its code (`catch let e as CommitFailed where e.underlying == .mapFull`).
    public let underlying: LMDBError

    /// A commit that failed with `underlying`.
    public init(underlying: LMDBError) {
        self.underlying = underlying
    }

    public var description: String { "the commit failed (\(underlying)); the write may have been recorded" }
}

/// A transaction that was tried again as often as `Environment` allows (the map grown, a map grown by
/// another process adopted, dead readers cleared) and still could not run: a damaged meta page can make
/// LMDB report a resized map for ever.
public struct RetriesExhausted: Error, CustomStringConvertible {
    /// The environment's path.
    public let path: String
    /// How many times the transaction was tried.
    public let attempts: Int

    public var description: String {
        "a transaction on \(path) could not run after \(attempts) attempts (its map size kept changing: is the file damaged?)"
    }
}

/// A data file whose meta page claims more than the file holds (a page past its end, a map larger than it):
/// damaged, so it is not opened, nor its map grown to what the damage asks (which could fill the disk).
public struct DamagedMetaPage: Error, CustomStringConvertible {
    /// The data file.
    public let path: String
    /// What is wrong with the meta page (a sentence's predicate: "names page …").
    public let reason: String

    public var description: String {
        "the data file \(path) is damaged: its meta page \(reason); restore the store from a backup or an export"
    }
}

/// A transaction that read or wrote a page of the map that the data file no longer had: another program cut the
/// file shorter while the store was open, or its disk failed (`MapFaults`). Nothing the transaction made was kept,
/// and every later transaction of the environment is refused too, since its map no longer shows the file.
public struct MapPageLost: Error, CustomStringConvertible {
    /// The data file.
    public let path: String

    public var description: String {
        "the data file \(path) could not be read: a page of it is gone (the file was cut while the store was open, or "
            + "its disk failed); nothing more was done: restore the store from a backup or an export, then open it again "
            + "(restart the server)"
    }
}
