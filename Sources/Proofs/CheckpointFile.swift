public import EventLog
import SystemCalls

/// The store's latest signed checkpoint, kept in `<store>/checkpoint` (0600), outside LMDB: a store rolled
/// back to an older data file still has it. Replaced atomically (a temporary file of a unique name made with
/// `O_CREAT|O_EXCL|O_NOFOLLOW`, fsync, rename, fsync of the directory) under an `flock` of
/// `<store>/checkpoint.lock`, and never by one of a smaller size: two processes that commit one after the
/// other may sign in the other order.
///
/// Read without ever waiting or following a link (`SmallFile`): a FIFO, a directory, a symbolic link or an
/// oversized file in its place is a kept checkpoint that is not there as it should be (`Kept.refused`).
public struct CheckpointFile: Sendable {
    public let directory: String

    /// A checkpoint is about 200 bytes; nothing larger is read.
    public static let limit = 65_536

    public init(directory: String) { self.directory = directory }

    public var path: String { directory + "/checkpoint" }

    /// What is kept.
    public enum Kept: Sendable, Equatable {
        case missing
        case note(String)
        /// Something that is not a readable checkpoint file (why, naming the path).
        case refused(String)
    }

    /// The kept note.
    public func read() -> Kept { CheckpointFile.read(path: path, followLinks: false) }

    /// A checkpoint or verifier key at `path`, bounded, never waiting on a FIFO.
    public static func read(path: String, followLinks: Bool) -> Kept {
        switch SmallFile.read(path, limit: limit, followLinks: followLinks) {
        case .missing: .missing
        case .bytes(let bytes): .note(String(decoding: bytes, as: UTF8.self))
        case .refused(let why): .refused(why)
        }
    }

    /// Replaces the kept note with `note`, a checkpoint of `size` events, unless the kept one is of `size`
    /// or more already (another process signed a later tree meanwhile). With `force` (a reseal), whatever is
    /// kept is replaced.
    public func replace(with note: String, size: UInt64, force: Bool = false) throws(StoreError) {
        try install(prepare(note), size: size, force: force)
    }

    /// Writes `note` to a new temporary file beside the kept one and returns its path: the part of keeping a
    /// checkpoint that takes space (the file system gives a `write` its blocks, or refuses it: no space, no
    /// inode), done before the commit it signs (`Store.write`), so that a full disk refuses the write instead
    /// of leaving a commit without its checkpoint. It is flushed by `install`, after the commit: an `fsync`
    /// here would hold every other writer for its length.
    ///
    /// The corresponding C functions are `open`, `write` and `close`.
    public func prepare(_ note: String) throws(StoreError) -> String {
        try failing("can not write a checkpoint in \(directory)") { () throws(SystemError) in
            try SafeWrite.temporary(Array(note.utf8), in: directory, prefix: "checkpoint", flushed: false)
        }
    }

    /// Flushes the prepared note at `temporary` (a checkpoint of `size` events) and puts it in place, unless
    /// the kept one is of `size` or more already; the temporary file is gone afterwards either way.
    ///
    /// The corresponding C functions are `open`, `flock`, `fsync`, `rename`, `unlink` and `close`.
    public func install(_ temporary: String, size: UInt64, force: Bool = false) throws(StoreError) {
        let lock: FileDescriptor
        do {
            lock = try StoreDirectory.lockCheckpoint(directory)
        } catch {
            discard(temporary)
            throw error
        }
        defer { lock.close() }
        if !force, case .note(let kept) = read(), let keptSize = CheckpointFile.size(of: kept), keptSize >= size {
            discard(temporary)
            return
        }
        SafeWrite.removeAbandoned(in: directory, prefix: "checkpoint")
        do {
            try failing("can not write \(path)") { () throws(SystemError) in
                try SafeWrite.flush(temporary)
                try FileSystem.rename(temporary, to: path)
            }
        } catch {
            // Nothing is left half written: the kept note is as it was.
            discard(temporary)
            throw error
        }
        try failing("can not flush \(directory)") { () throws(SystemError) in try SafeWrite.syncDirectory(directory) }
    }

    /// Removes a prepared note that was not installed (its commit failed).
    public func discard(_ temporary: String) { try? FileSystem.unlink(temporary) }

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

/// A checkpoint file (kept or given) that is not a readable, well-formed checkpoint, or a kept checkpoint
/// that does not match its store: a refused input (cli.md §6: exit 65) for a command that reads it; a write
/// refuses with a `StoreError` instead (exit 74).
public struct BadCheckpoint: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
