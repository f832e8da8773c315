import Domain
import LMDB
#if canImport(Glibc)
import Glibc
#endif

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

    /// The name of LMDB's data file: a directory holding it is a store.
    public static let dataFile = "data.mdb"

    /// Whether `directory` holds a store.
    public static func exists(at directory: String) -> Bool {
        access(directory + "/" + dataFile, F_OK) == 0
    }

    /// Opens the store in `directory`. With `create`, makes the directory (0700) and the store's files (0600)
    /// when missing; without, a missing store is an error.
    /// The map starts at `mapSize` or the data file's size, whichever is larger, and doubles whenever it is
    /// full, so a store never stops at a fixed size. Writes go straight to the map (`MDB_WRITEMAP`): a large
    /// import holds its dirty pages in the file's pages, not in the heap; the data file is as large as the
    /// map (sparse where unused).
    public init(directory: String, create: Bool, mapSize: Int = 64 << 20) throws(StoreError) {
        if !EventLog.exists(at: directory) {
            guard create else { throw StoreError("no store at \(directory) (create one with `veritrail init` or `veritrail import`)") }
            try EventLog.makeDirectory(directory)
        }
        self.directory = directory
        do {
            let size = max(mapSize, EventLog.dataFileSize(directory))
            environment = try Environment(path: directory, mapSize: (size + 0xFFFF) & ~0xFFFF, maxDatabases: 32,
                                          maxReaders: 126, flags: [.noReadAhead, .writeMap], fileMode: 0o600)
        } catch {
            throw StoreError(error, doing: "can not open the store at \(directory)")
        }
        do {
            events = try environment.openDatabase("events", flags: create ? [.create] : [])
            ids = try environment.openDatabase("ids", flags: create ? [.create] : [])
        } catch {
            throw StoreError("can not open the log in \(directory): \(error)")
        }
    }

    /// The size of the store's data file (0 when there is none).
    static func dataFileSize(_ directory: String) -> Int {
        var info = stat()
        return stat(directory + "/" + dataFile, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Creates `directory` and any missing parents, owner-only (0700).
    private static func makeDirectory(_ directory: String) throws(StoreError) {
        var path = ""
        for part in directory.split(separator: "/", omittingEmptySubsequences: false) {
            path += path.isEmpty && part.isEmpty ? "/" : (path.isEmpty || path.hasSuffix("/") ? "" : "/") + part
            if path.isEmpty || path == "/" { continue }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw StoreError("can not create \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Reads in a consistent snapshot of the log.
    public func read<R>(_ body: (LogReader) throws -> R) throws -> R {
        try environment.read { txn in try body(LogReader(log: self, transaction: txn)) }
    }
}
