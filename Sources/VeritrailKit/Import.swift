public import Domain
import Engine
import EventLog

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
            try store.write(large: reader.isLarge) { appender in try NDJSONImport.append(reader, to: &appender, progress: progress) }
        }
    }

    /// Creates a store in `directory` whose first write is every event of the NDJSON file at `path`
    /// (`veritrail import` into no store): an export restores its store bit for bit. The store appears
    /// whole or not at all; `.storeFailure(StoreExists)` when one is there already.
    public static func create(at directory: String, importingNDJSON path: String, origin: String? = nil,
                              clock: @escaping @Sendable () -> Timestamp = VeritrailStore.wallClock,
                              progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> VeritrailStore {
        let reader = try LineReader(path: path)
        let made = try VeritrailError.catching {
            try Store.create(directory: directory, mapSize: NDJSONImport.mapSize(reader), large: reader.isLarge, origin: origin) { appender in
                try NDJSONImport.append(reader, to: &appender, progress: progress)
            }
        }
        guard made != nil else { throw .storeFailure(underlying: StoreExists(directory: directory)) }
        return try open(at: directory, clock: clock)
    }

    /// What `veritrail import FILE` does: appends every event of the NDJSON file at `path` to the store in
    /// `directory`, or, when there is none, creates it with them as its first write (whole or not at all;
    /// when another process creates it meanwhile, the events are appended to that store). `origin` names a
    /// new store's checkpoints; an existing store keeps its own, and refuses a different one (`.unknown`).
    /// The map is sized for the input up front, so a large import need not grow it on the way.
    @discardableResult
    public static func importNDJSON(path: String, into directory: String, origin: String? = nil,
                                    progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ImportSummary {
        try importNDJSON(try LineReader(path: path), into: directory, origin: origin, progress: progress)
    }

    /// `importNDJSON(path:into:origin:progress:)` for the NDJSON read from `fd` (`veritrail import -`), kept
    /// as `importNDJSON(fileDescriptor:)` keeps it. `fd` is not closed.
    @discardableResult
    public static func importNDJSON(fileDescriptor fd: Int32, into directory: String, origin: String? = nil,
                                    progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ImportSummary {
        try importNDJSON(try LineReader(fileDescriptor: fd), into: directory, origin: origin, progress: progress)
    }

    private static func importNDJSON(_ reader: LineReader, into directory: String, origin: String?,
                                     progress: (ImportProgress) -> Void) throws(VeritrailError) -> ImportSummary {
        let mapSize = NDJSONImport.mapSize(reader)
        func append(_ appender: inout Appender) throws -> ImportSummary {
            try NDJSONImport.append(reader, to: &appender, progress: progress)
        }
        return try VeritrailError.catching {
            if let made = try Store.create(directory: directory, mapSize: mapSize, large: reader.isLarge, origin: origin, append) {
                return made
            }
            let store = try Store(directory: directory, mapSize: mapSize)
            try store.adopt(origin: origin)
            return try store.write(large: reader.isLarge, append)
        }
    }
}

/// The one way NDJSON goes into a store: every line decoded on a second thread (`decodedLines`) while
/// this one appends, in one write transaction.
enum NDJSONImport {
    /// The map for importing `reader`: a store takes about 2.2 times the NDJSON it is imported from, so
    /// this much is mapped up front.
    static func mapSize(_ reader: LineReader) -> Int { EventLog.initialMapSize + 3 * reader.size }

    /// Appends every line of `reader` and says how many were appended and how many were in the log
    /// already. Runs again from the first line when the write does.
    static func append(_ reader: LineReader, to appender: inout Appender,
                       progress: (ImportProgress) -> Void) throws -> ImportSummary {
        let lines = decodedLines(reader)
        defer { lines.cancel() }
        var appended = 0, existing = 0
        let total = reader.size
        while let batch = try lines.next() {
            var bytesRead = 0, number = 0
            // Read in place, not taken out: the decoding thread frees what it allocated.
            try batch.forEach { line in
                bytesRead = line.bytesRead
                number = line.number
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
        }
        return ImportSummary(appended: appended, existing: existing, head: appender.head)
    }
}
