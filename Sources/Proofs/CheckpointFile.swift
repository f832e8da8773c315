import EventLog
#if canImport(Glibc)
import Glibc
#endif

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
    public static func read(path: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw StoreError("can not read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError("can not read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            bytes += chunk[..<n]
            guard bytes.count <= 65_536 else { throw StoreError("\(path) is not a checkpoint: it is larger than 64 KiB") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces the kept note with `note`, a checkpoint of `size` events, unless the kept one is of `size`
    /// or more already (another process signed a later tree meanwhile).
    public func replace(with note: String, size: UInt64) throws {
        let lock = open(directory + "/checkpoint.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw failure("can not open \(directory)/checkpoint.lock") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("can not lock \(directory)/checkpoint.lock") }
        }
        if let kept = try read(), let keptSize = CheckpointFile.size(of: kept), keptSize >= size { return }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("can not write \(temporary)") }
        var ok = Array(note.utf8).withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let error = failure("can not write \(path)")
            unlink(temporary)
            throw error
        }
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw failure("can not open \(directory)") }
        defer { close(dir) }
        guard fsync(dir) == 0 else { throw failure("can not flush \(directory)") }
    }

    /// The size line of a kept note, read without checking its signature (only to order two notes).
    static func size(of note: String) -> UInt64? {
        let lines = note.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        return lines.count >= 2 ? UInt64(lines[1]) : nil
    }

    private func failure(_ what: String) -> StoreError {
        StoreError("\(what): \(String(cString: strerror(errno)))")
    }
}
