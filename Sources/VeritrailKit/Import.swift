public import Domain
import Engine
import EventLog
import LMDB
import Projections

/// How far an import has read its input.
public struct ImportProgress: Sendable, Equatable {
    /// Lines read so far (blank ones included, as line numbers count them).
    public var lines: Int
    /// Bytes read so far.
    public var bytes: Int
    /// The input's size in bytes (a pipe's once it has been read in whole): what `bytes` counts up to,
    /// for a progress bar.
    public var totalBytes: Int
}

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Events written.
    public var appended: Int
    /// Events whose id was in the log already with the same content (not written again).
    public var existing: Int
    /// The log's head after the import.
    public var head: StoreHead
    /// The accounts whose passcode the import set with another store's pepper (`pbkdf2-sha256-hmac`): they
    /// can not unlock in this store until it has that store's secrets, or an admin resets their passcode.
    public var foreignPasscodes: [String] = []
}

extension VeritrailStore {
    /// Appends every event of the NDJSON file at `path` (`veritrail import`), all or nothing, checked
    /// against every rule: a bad line refuses the whole file, naming the line (`.ruleBroken` or
    /// `.malformed` with its `line`; in an import a "who may" rule is a broken rule of the line too, exit
    /// 65). Exported lines (with `seq` and `hash`) restore a store bit for bit. `progress` is called as the
    /// input is read.
    @discardableResult
    public func importNDJSON(path: String, progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ImportSummary {
        try importNDJSON(try LineReader(path: path), progress: progress)
    }

    /// Appends every event of the NDJSON read from `fd` (a pipe, a socket, stdin) to its end, as
    /// `importNDJSON(path:)` does. Input that is not a regular file is kept in an unlinked temporary file
    /// as it is read, and refused as it streams in when it can not be NDJSON (a NUL byte, bytes that are
    /// not UTF-8, a line over 1 MiB), so endless input is never kept whole. `fd` is not closed.
    @discardableResult
    public func importNDJSON(fileDescriptor fd: Int32, progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ImportSummary {
        try importNDJSON(try LineReader(fileDescriptor: fd), progress: progress)
    }

    private func importNDJSON(_ reader: LineReader, progress: (ImportProgress) -> Void) throws(VeritrailError) -> ImportSummary {
        try VeritrailError.catching {
            // No map reserved ahead: the file of an open store is never cut back, and is as large as its map.
            // The import tells how far it has read (`workDone`) and what the rest will take (`bytesLeft`), so
            // that a full map grows once by what the rest needs (`Environment.grownSize`) and the import runs
            // again once, early.
            try NDJSONImport.foreign(try store.write(large: reader.isLarge) { appender in
                try NDJSONImport.append(reader, to: &appender, progress: progress)
            }, in: store)
        }
    }

    /// Creates a store in `directory` whose first write is every event of the NDJSON file at `path`
    /// (`veritrail import` into no store): an export restores its store bit for bit. The store appears
    /// whole or not at all; `.storeFailure(StoreExists)` when one is there already.
    public static func create(at directory: String, importingNDJSON path: String, origin: String? = nil,
                              secrets: String? = nil,
                              clock: @escaping @Sendable () -> Timestamp = VeritrailStore.wallClock,
                              progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> VeritrailStore {
        let reader = try LineReader(path: path)
        let made = try VeritrailError.catching {
            try Store.create(directory: directory, mapSize: NDJSONImport.mapSize(reader), large: reader.isLarge, origin: origin,
                             secrets: secrets) { appender in
                try NDJSONImport.append(reader, to: &appender, progress: progress)
            }
        }
        guard made != nil else { throw .storeFailure(underlying: StoreExists(directory: directory)) }
        return try open(at: directory, clock: clock, secrets: secrets)
    }

    /// What `veritrail import FILE` does: appends every event of the NDJSON file at `path` to the store in
    /// `directory`, or, when there is none, creates it with them as its first write (whole or not at all;
    /// when another process creates it meanwhile, the events are appended to that store). `origin` names a
    /// new store's checkpoints; an existing store keeps its own, and refuses a different one (`.unknown`).
    /// A new store's map is sized for the input up front, so a large import need not grow it on the way.
    @discardableResult
    /// `secrets` is where the store's secrets file is (`<directory>/secrets` when nil); a new store takes
    /// one that is there already (the secrets of the store an export came from: a restore).
    public static func importNDJSON(path: String, into directory: String, origin: String? = nil, secrets: String? = nil,
                                    progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ImportSummary {
        try importNDJSON(try LineReader(path: path), into: directory, origin: origin, secrets: secrets, progress: progress)
    }

    /// `importNDJSON(path:into:origin:progress:)` for the NDJSON read from `fd` (`veritrail import -`), kept
    /// as `importNDJSON(fileDescriptor:)` keeps it. `fd` is not closed.
    @discardableResult
    public static func importNDJSON(fileDescriptor fd: Int32, into directory: String, origin: String? = nil,
                                    secrets: String? = nil,
                                    progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ImportSummary {
        try importNDJSON(try LineReader(fileDescriptor: fd), into: directory, origin: origin, secrets: secrets, progress: progress)
    }

    private static func importNDJSON(_ reader: LineReader, into directory: String, origin: String?, secrets: String?,
                                     progress: (ImportProgress) -> Void) throws(VeritrailError) -> ImportSummary {
        let mapSize = NDJSONImport.mapSize(reader)
        func append(_ appender: inout Appender) throws -> ImportSummary {
            try NDJSONImport.append(reader, to: &appender, progress: progress)
        }
        return try VeritrailError.catching {
            if let made = try Store.create(directory: directory, mapSize: mapSize, large: reader.isLarge, origin: origin,
                                           secrets: secrets, append) {
                return made.foreignPasscodes.isEmpty ? made : try NDJSONImport.foreign(made, in: try Store(directory: directory, secrets: secrets))
            }
            let store = try Store(directory: directory, secrets: secrets)
            try store.adopt(origin: origin)
            return try NDJSONImport.foreign(try store.write(large: reader.isLarge, append), in: store)
        }
    }
}

/// The one way NDJSON goes into a store: every line decoded on a second thread (`decodedLines`) while
/// this one appends, in one write transaction.
enum NDJSONImport {
    /// The map for importing `reader` into a new store: a store takes about 2.7 times the NDJSON it is
    /// imported from (2.74 for a million events of `scripts/gen_bench.py`'s log, 2.65 for ten million), so
    /// `storeBytes` is mapped up front, and the file cut to its pages in use before the store
    /// is published (`Store.create`). An existing store is given no more ahead: see `importNDJSON(_:progress:)`.
    static func mapSize(_ reader: LineReader) -> Int { EventLog.initialMapSize + storeBytes(reader.size) }

    /// What `bytes` of NDJSON take of a store's map, with room to spare: three times as much. A new store's map
    /// is sized by it, and an import into an open store tells its transaction what the rest of its input will
    /// take (`Transaction.bytesLeft`), so that a map that fills early grows once for all of it.
    static func storeBytes(_ bytes: Int) -> Int { 3 * bytes }

    /// Appends every line of `reader` and says how many were appended and how many were in the log
    /// already. Runs again from the first line when the write does.
    static func append(_ reader: LineReader, to appender: inout Appender,
                       progress: (ImportProgress) -> Void) throws -> ImportSummary {
        let lines = decodedLines(reader)
        defer { lines.cancel() }
        var appended = 0, existing = 0
        var peppered: Set<String> = []
        let total = reader.size
        while let batch = try lines.next() {
            var bytesRead = 0, number = 0
            // Read in place, not taken out: the decoding thread frees what it allocated.
            try batch.forEach { line in
                bytesRead = line.bytesRead
                number = line.number
                if case .passcodeSet(let set) = line.event.payload, set.credential.scheme == .pbkdf2SHA256HMAC {
                    peppered.insert(set.username)
                }
                do {
                    switch try appender.append(line.event, prepared: line.prepared) {
                    case .appended: appended += 1
                    case .existing: existing += 1
                    }
                } catch let e as EventError {
                    throw VeritrailError.ruleBroken(e, line: line.number)
                }
            }
            progress(ImportProgress(lines: number, bytes: bytesRead, totalBytes: total))
            if total > 0 {
                let transaction = appender.writer.reader.transaction
                transaction.workDone = Double(bytesRead) / Double(total)
                transaction.bytesLeft = storeBytes(total - bytesRead)
            }
        }
        var summary = ImportSummary(appended: appended, existing: existing, head: appender.head)
        summary.foreignPasscodes = peppered.sorted()
        return summary
    }

    /// `summary` with `foreignPasscodes` narrowed, from the accounts whose peppered passcode the import set,
    /// to those whose passcode now is one this store can not check (made with another store's pepper).
    static func foreign(_ summary: ImportSummary, in store: Store) throws -> ImportSummary {
        guard !summary.foreignPasscodes.isEmpty else { return summary }
        let pepper = try store.pepper()
        var narrowed = summary
        narrowed.foreignPasscodes = try store.read { _, models in
            try summary.foreignPasscodes.filter { name in
                guard let account = try models.account(name), !account.deleted, let credential = account.credential,
                      credential.scheme == .pbkdf2SHA256HMAC else { return false }
                return pepper.map { !Passcodes.isMade(credential, with: $0) } ?? true
            }
        }
        return narrowed
    }
}
