import EventLog
import SystemCalls

/// The store's latest signed checkpoint, kept in `<store>/checkpoint` (0600), outside LMDB: a store rolled
/// back to an older data file still has it. Replaced atomically (a temporary file, fsync, rename, fsync of
/// the directory) under an `flock` of `<store>/checkpoint.lock`, and never by one of a smaller size: two
/// processes that commit one after the other may sign in the other order.
public struct CheckpointFile: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public var path: String { directory + "/checkpoint" }

    /// The kept note, or nil when there is none.
    public func read() throws -> String? { try CheckpointFile.read(path: path) }

    /// The text of a small file (a checkpoint or a verifier key), or nil when there is none. A file larger
    /// than 64 KiB is refused (a checkpoint is about 200 bytes), so that a damaged one is never read
    /// without bound.
    ///
    /// The corresponding C functions are `open`, `read` and `close`.
    public static func read(path: String) throws -> String? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            if error.errno == .noEntry { return nil }
            throw StoreError("can not read \(path): \(error.reason)")
        }
        defer { fd.close() }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n: Int
            do {
                n = try fd.read(into: chunk)
            } catch {
                throw StoreError("can not read \(path): \(error.reason)")
            }
            if n == 0 { break }
            bytes += chunk[..<n]
            guard bytes.count <= 65_536 else { throw StoreError("\(path) is not a checkpoint: it is larger than 64 KiB") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces the kept note with `note`, a checkpoint of `size` events, unless the kept one is of `size`
    /// or more already (another process signed a later tree meanwhile).
    ///
    /// The corresponding C functions are `open`, `flock`, `write`, `fsync`, `rename`, `unlink` and `close`.
    public func replace(with note: String, size: UInt64) throws {
        let lockPath = directory + "/checkpoint.lock"
        let lock = try failing("can not open \(lockPath)") { () throws(SystemError) in
            try FileDescriptor.open(lockPath, .readWrite, options: [.create, .closeOnExec], permissions: 0o600)
        }
        defer { lock.close() }
        try failing("can not lock \(lockPath)") { () throws(SystemError) in try lock.lockExclusively() }
        if let kept = try read(), let keptSize = CheckpointFile.size(of: kept), keptSize >= size { return }
        let temporary = path + ".tmp"
        let fd = try failing("can not write \(temporary)") { () throws(SystemError) in
            try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: 0o600)
        }
        do {
            try failing("can not write \(path)") { () throws(SystemError) in
                defer { fd.close() }
                try fd.writeAll(Array(note.utf8))
                try fd.sync()
            }
            try failing("can not write \(path)") { () throws(SystemError) in try FileSystem.rename(temporary, to: path) }
        } catch {
            // Nothing is left half written: the kept note is as it was.
            try? FileSystem.unlink(temporary)
            throw error
        }
        let dir = try failing("can not open \(directory)") { () throws(SystemError) in
            try FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec])
        }
        defer { dir.close() }
        try failing("can not flush \(directory)") { () throws(SystemError) in try dir.sync() }
    }

    /// The size line of a kept note, read without checking its signature (only to order two notes).
    static func size(of note: String) -> UInt64? {
        let lines = note.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        return lines.count >= 2 ? UInt64(lines[1]) : nil
    }

    /// The result of `body`, or a `StoreError` saying `what` could not be done and why.
    private func failing<R>(_ what: String, _ body: () throws(SystemError) -> R) throws(StoreError) -> R {
        do {
            return try body()
        } catch {
            throw StoreError("\(what): \(error.reason)")
        }
    }
}
