import Domain
public import Engine
public import EventLog
#if canImport(Glibc)
import Glibc
#endif

extension VeritrailStore {
    /// Recomputes every read model, and the Merkle tree, from the log (`veritrail rebuild`); `progress`
    /// gets the events applied so far, of how many.
    @discardableResult
    public func rebuild(progress: (RebuildProgress) -> Void = { _ in }) throws(VeritrailError) -> RebuildSummary {
        let summary = try VeritrailError.catching {
            let total = try store.read { reader, _ in try reader.head().seq }
            return try store.rebuild { progress(RebuildProgress(applied: $0, total: total)) }
        }
        return RebuildSummary(events: summary.events, rewroteScanList: summary.rewroteScanList)
    }

    /// Recomputes the hash chain from the first event (`veritrail log verify`): ok with the head, or the
    /// first bad seq and why. A chain that does not hold is an answer, not an error; an error is a store
    /// that can not be read.
    public func verify() throws(VeritrailError) -> VerificationOutcome {
        try VeritrailError.catching { try LogVerifier.verify(store.log) }
    }

    /// Calls `line` with the out form of every event `filter` keeps (events.md §1: with `seq`, `id` and
    /// `hash`, one JSON object and its `\n`), in seq order, on one snapshot of the log. Returns how many.
    @discardableResult
    public func export(filter: LogFilter = LogFilter(), _ line: ([UInt8]) throws -> Void) throws(VeritrailError) -> Int {
        try VeritrailError.catching {
            var count = 0
            try store.read { reader, _ in
                try filter.forEach(reader) { seq, bytes in
                    var out = try StoredEvent.canonical(bytes, seq: seq, withHash: true)
                    out.append(0x0A)
                    try line(out)
                    count += 1
                }
            }
            return count
        }
    }

    /// Writes the export (`veritrail export --output`) to the file at `path`, created 0600 (or emptied),
    /// and returns how many events it holds. Import it into an empty store to restore this one.
    @discardableResult
    public func export(to path: String, filter: LogFilter = LogFilter()) throws(VeritrailError) -> Int {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unknown("can not write \(path): \(String(cString: strerror(errno)))", cause: nil) }
        defer { close(fd) }
        return try export(filter: filter) { bytes in
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + done }, $0.count - done) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw StoreError("can not write \(path): \(String(cString: strerror(errno)))") }
                done += n
            }
        }
    }
}
