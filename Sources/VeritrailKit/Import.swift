public import Domain
public import Engine
public import EventLog
import StrictJSON
#if canImport(Glibc)
import Glibc
#endif

/// How far an import has read its input.
public struct ImportProgress: Sendable, Equatable {
    /// Lines read so far (blank ones included, as line numbers count them).
    public var lines: Int
    /// Bytes read so far.
    public var bytes: Int
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

/// NDJSON lines as events.md §1 reads them.
enum NDJSON {
    /// No event is anywhere near this long; a longer line is refused without looking for its end.
    static let maxLineBytes = 1 << 20

    /// Decodes one line; `line` names it in a refusal.
    static func decode(_ bytes: [UInt8], line: Int?) throws(VeritrailError) -> IncomingEvent {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .malformed("not valid JSON: \(error)", line: line)
        }
        do {
            return try EventJSON.decode(value)
        } catch {
            throw VeritrailError.from(error, line: line)
        }
    }

    /// Whether a line is empty or only JSON white space (skipped, but counted).
    static func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Reads `fd` to its end and decodes every line, calling `progress` after each chunk read.
    static func events(from fd: Int32, progress: (ImportProgress) -> Void) throws(VeritrailError) -> [(line: Int, event: IncomingEvent)] {
        var events: [(line: Int, event: IncomingEvent)] = []
        var pending: [UInt8] = []
        var lines = 0, bytes = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        func finish(_ line: ArraySlice<UInt8>) throws(VeritrailError) {
            lines += 1
            let text = Array(line)
            if !isBlank(text) { events.append((lines, try decode(text, line: lines))) }
        }
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .storeFailure(underlying: StoreError("can not read the input: \(String(cString: strerror(errno)))")) }
            if n == 0 { break }
            bytes += n
            pending.append(contentsOf: chunk[0..<n])
            var start = pending.startIndex
            while let end = pending[start...].firstIndex(of: 0x0A) {
                try finish(pending[start..<end])
                start = end + 1
            }
            pending.removeSubrange(..<start)
            if pending.count > maxLineBytes {
                throw .malformed("is longer than \(maxLineBytes >> 20) MiB, far more than any event", line: lines + 1)
            }
            progress(ImportProgress(lines: lines, bytes: bytes))
        }
        if !pending.isEmpty { try finish(pending[...]) }
        progress(ImportProgress(lines: lines, bytes: bytes))
        return events
    }
}

extension VeritrailStore {
    /// Appends every event of the NDJSON file at `path` (`veritrail import`), all or nothing, checked
    /// against every rule: a bad line refuses the whole file, naming the line. Exported lines (with `seq`
    /// and `hash`) restore a store bit for bit. `progress` is called as the input is read.
    @discardableResult
    public func importNDJSON(path: String, progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ImportSummary {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unknown("can not read \(path): \(String(cString: strerror(errno)))", cause: nil) }
        defer { close(fd) }
        return try importNDJSON(fileDescriptor: fd, progress: progress)
    }

    /// Appends every event of the NDJSON read from `fd` (a pipe, a socket, stdin) to its end, as
    /// `importNDJSON(path:)` does. The events are decoded as they are read and written in one transaction
    /// at the end of the input; `fd` is not closed.
    @discardableResult
    public func importNDJSON(fileDescriptor fd: Int32, progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> ImportSummary {
        let events = try NDJSON.events(from: fd, progress: progress)
        return try VeritrailError.catching {
            try store.write(large: events.count > NDJSON.largeWrite) { appender in try NDJSON.append(events, to: &appender) }
        }
    }

    /// Creates a store in `directory` whose first write is every event of the NDJSON file at `path`
    /// (`veritrail import` into no store): an export restores its store bit for bit. The store appears
    /// whole or not at all; `.storeFailure(StoreExists)` when one is there already.
    public static func create(at directory: String, importingNDJSON path: String, origin: String? = nil,
                              clock: @escaping @Sendable () -> Timestamp = WallClock.now,
                              progress: (ImportProgress) -> Void = { _ in }) throws(VeritrailError) -> VeritrailStore {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unknown("can not read \(path): \(String(cString: strerror(errno)))", cause: nil) }
        defer { close(fd) }
        let events = try NDJSON.events(from: fd, progress: progress)
        let made = try VeritrailError.catching {
            try Store.create(directory: directory, large: events.count > NDJSON.largeWrite, origin: origin) { appender in
                try NDJSON.append(events, to: &appender)
            }
        }
        guard made != nil else { throw .storeFailure(underlying: StoreExists(directory: directory)) }
        return try open(at: directory, clock: clock)
    }
}

extension NDJSON {
    /// Above this many events, a write is paged on a companion thread (`Store.write(large:)`).
    static let largeWrite = 10_000

    /// Appends the decoded lines in order, naming the line of a refusal.
    static func append(_ events: [(line: Int, event: IncomingEvent)], to appender: inout Appender) throws -> ImportSummary {
        var appended = 0, existing = 0
        for (line, event) in events {
            do {
                switch try appender.append(event) {
                case .appended: appended += 1
                case .existing: existing += 1
                }
            } catch let e as EventError {
                throw VeritrailError.from(e, line: line)
            }
        }
        return ImportSummary(appended: appended, existing: existing, head: appender.head)
    }
}
