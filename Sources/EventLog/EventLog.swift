import Domain
public import LMDB
import SystemCalls

/// The append-only event log of one store: an LMDB environment in a directory of its own.
///
/// Databases: `events` (seq, 8 bytes big-endian → the stored event), `ids` (event id → seq). The head is
/// the last record of `events`, so it can never disagree with the log. Other components (the read models)
/// open their own databases in the same environment so that they commit in the same transactions.
public final class EventLog: @unchecked Sendable {
    public let environment: Environment
    public let directory: String
    let events: Database
    let ids: Database

    /// The databases other components opened with the log's (`init`'s `alsoOpening`), in that order.
    public let companions: [Database]

    /// The map a new store starts with; it grows by a fifth (at least 64 MiB) whenever it fills. Small,
    /// because the data file is allocated on disk as far as the map reaches (`FileSpace`): an import into a
    /// new store asks for what it needs, and its file is cut back to its pages in use before it appears.
    public static let initialMapSize = 4 << 20

    /// Opens the store in `directory`, with its databases and those named in `alsoOpening` (the read models':
    /// `companions`), all in one transaction. With `creating` (a new store being built aside,
    /// `StoreDirectory`), the files and databases are made; without, a missing store is an error.
    /// The map starts at `mapSize` or the data file's size, whichever is larger, and grows whenever it is
    /// full (`Environment.grownSize`), so a store never stops at a fixed size. Writes go straight to the map
    /// (`MDB_WRITEMAP`): a large import holds its dirty pages in the file's pages, not in the heap. A reader
    /// slot is held only while a read transaction is (`MDB_NOTLS`): tied to threads, every thread of a
    /// server that ever read kept one, and three servers on one store took all 126.
    public init(directory: String, mapSize: Int = EventLog.initialMapSize, alsoOpening: [String] = [],
                creating: Bool = false) throws(StoreError) {
        let fileSize = EventLog.dataFileSize(directory)
        if !creating {
            let place = StoreDirectory(directory)
            switch place.state {
            case .store:
                // LMDB takes an empty data file for a new one: a store cut to nothing would open as a new, empty
                // log, and its next write start another.
                guard fileSize > 0 else {
                    throw StoreError("the store's data file \(directory)/data.mdb is empty: its events are gone (a cut "
                                     + "copy, a full disk, a damaged file); restore it from a backup, then `veritrail log verify`")
                }
            case .absent:
                if place.holdsOrphanedCheckpoint { throw place.orphanedCheckpoint }
                throw StoreError("no store at \(directory) (create one with `veritrail init` or `veritrail import`)")
            case .unreadable(let reason): throw StoreError("the store at \(directory) can not be read: \(reason)")
            }
        }
        self.directory = directory
        do {
            let size = max(mapSize, fileSize)
            environment = try Environment(path: directory, mapSize: (size + 0xFFFF) & ~0xFFFF, maxDatabases: 32,
                                          maxReaders: 126, flags: [.noReadAhead, .writeMap, .noTLS], fileMode: 0o600)
        } catch let error as LMDBError {
            throw StoreError(error, doing: "can not open the store at \(directory)")
        } catch {
            throw StoreError("can not open the store at \(directory): \(error)")
        }
        do {
            let names = ["events", "ids"] + alsoOpening
            let databases: [Database]
            do {
                databases = try environment.openDatabases(names, flags: creating ? [.create] : [])
            } catch LMDBError.notFound where !creating {
                // A data file without the log itself is not a store (another program's LMDB file, a damaged one).
                do {
                    _ = try environment.openDatabases(["events", "ids"], flags: [])
                } catch LMDBError.notFound {
                    throw StoreError("\(directory)/data.mdb holds no log: it is not a Veritrail store, or it is damaged; "
                                     + "restore the store from a backup")
                }
                // A store written by a version before one of the companions (the search index): made now,
                // empty, in one write; its owner fills it (`rebuild`).
                databases = try environment.openDatabases(names, flags: [.create])
            }
            events = databases[0]
            ids = databases[1]
            companions = Array(databases.dropFirst(2))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("can not open the log in \(directory): \(error)")
        }
    }

    /// The size of the store's data file (0 when there is none).
    ///
    /// The corresponding C function is `stat`.
    static func dataFileSize(_ directory: String) -> Int {
        (try? FileSystem.status(directory + "/data.mdb"))?.size ?? 0
    }

    /// Reads in a consistent snapshot of the log.
    public func read<R>(_ body: (LogReader) throws -> R) throws -> R {
        try environment.read { txn in try body(LogReader(log: self, transaction: txn)) }
    }
}
