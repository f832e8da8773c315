public import Glibc

/// An open file: a raw descriptor with the calls made on it. A value, not an owner: whoever opens one
/// closes it (`close`), as swift-system's `FileDescriptor` leaves it.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The descriptor number.
    public let rawValue: Int32

    /// The descriptor `rawValue` (one opened elsewhere, or a standard stream).
    @inlinable
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Standard input (0).
    @inlinable public static var standardInput: FileDescriptor { FileDescriptor(rawValue: STDIN_FILENO) }
    /// Standard output (1).
    @inlinable public static var standardOutput: FileDescriptor { FileDescriptor(rawValue: STDOUT_FILENO) }
    /// Standard error (2).
    @inlinable public static var standardError: FileDescriptor { FileDescriptor(rawValue: STDERR_FILENO) }

    /// How a file is opened for reading and writing.
    public enum AccessMode: Sendable {
        case readOnly, writeOnly, readWrite

        @usableFromInline var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// What else `open` does.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Creates the file when missing, with the given permissions. (`O_CREAT`)
        @inlinable public static var create: OpenOptions { OpenOptions(rawValue: O_CREAT) }
        /// Empties the file. (`O_TRUNC`)
        @inlinable public static var truncate: OpenOptions { OpenOptions(rawValue: O_TRUNC) }
        /// Fails unless the path is a directory (opened to be synced). (`O_DIRECTORY`)
        @inlinable public static var directory: OpenOptions { OpenOptions(rawValue: O_DIRECTORY) }
        /// Closes the descriptor in a program this process executes. (`O_CLOEXEC`)
        @inlinable public static var closeOnExec: OpenOptions { OpenOptions(rawValue: O_CLOEXEC) }
        /// With `create`, fails with `Errno.exists` when the path exists, a symbolic link included. (`O_EXCL`)
        @inlinable public static var exclusive: OpenOptions { OpenOptions(rawValue: O_EXCL) }
        /// Fails (`ELOOP`) when the last part of the path is a symbolic link, instead of following it. (`O_NOFOLLOW`)
        @inlinable public static var noFollow: OpenOptions { OpenOptions(rawValue: O_NOFOLLOW) }
        /// Never waits in `open` (a FIFO without a writer) or in a read of a pipe. (`O_NONBLOCK`)
        @inlinable public static var nonBlocking: OpenOptions { OpenOptions(rawValue: O_NONBLOCK) }
    }

    /// Opens `path`.
    ///
    /// The corresponding C function is `open`.
    public static func open(_ path: String, _ mode: AccessMode, options: OpenOptions = [],
                            permissions: FileMode = 0o600) throws(SystemError) -> FileDescriptor {
        let fd = try valueOrErrno("open") { Glibc.open(path, mode.flags | options.rawValue, permissions) }
        return FileDescriptor(rawValue: fd)
    }

    /// Closes the descriptor. Its error is not reported: Linux frees the descriptor even when `close`
    /// fails, so there is nothing to retry, and data that must be on disk is synced before (`sync`).
    ///
    /// The corresponding C function is `close`.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Reads at most `buffer.count` bytes into `buffer` and returns how many (0 at the end of the file).
    ///
    /// The corresponding C function is `read`.
    @inlinable
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try valueOrErrno("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads at most `buffer.count` bytes from `offset` into `buffer`, leaving the file's position as it is,
    /// and returns how many (0 at the end of the file).
    ///
    /// The corresponding C function is `pread`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
        try valueOrErrno("pread") { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Writes some of `buffer` and returns how many bytes were written.
    ///
    /// The corresponding C function is `write`.
    @inlinable
    public func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try valueOrErrno("write") { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `buffer`, in as many calls as it takes. A write that takes nothing fails with `EIO`.
    ///
    /// The corresponding C function is `write`.
    @inlinable
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < buffer.count {
            let n = try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            guard n > 0 else { throw SystemError("write", errno: .io) }
            offset += n
        }
    }

    /// Writes all of `bytes`, as `writeAll(_:)` with a buffer does.
    ///
    /// The corresponding C function is `write`.
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { try writeAll(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Flushes the file's data and metadata to disk (for a directory, its entries).
    ///
    /// The corresponding C function is `fsync`.
    public func sync() throws(SystemError) {
        try nothingOrErrno("fsync") { fsync(rawValue) }
    }

    /// What `fstat` tells of the open file.
    ///
    /// The corresponding C function is `fstat`.
    public func status() throws(SystemError) -> FileStatus {
        var info = stat()
        try nothingOrErrno("fstat") { fstat(rawValue, &info) }
        return FileStatus(info)
    }

    /// Waits until this process holds the file's exclusive advisory lock (released by `close`).
    ///
    /// The corresponding C function is `flock` with `LOCK_EX`.
    public func lockExclusively() throws(SystemError) {
        try nothingOrErrno("flock") { flock(rawValue, LOCK_EX) }
    }

    /// Lets go of the file's advisory lock taken with `lockExclusively`, the descriptor staying open.
    ///
    /// The corresponding C function is `flock` with `LOCK_UN`.
    public func unlock() throws(SystemError) {
        try nothingOrErrno("flock") { flock(rawValue, LOCK_UN) }
    }

    /// Allocates the first `bytes` of the file on disk, extending it if shorter, so that writes through a
    /// map of it never meet a hole the disk has no room for. Throws `Errno.noSpace` when the disk is full,
    /// `Errno.notSupported` on a file system without allocation.
    ///
    /// The corresponding C function is `posix_fallocate`.
    public func allocate(bytes: Int) throws(SystemError) {
        try nothingOrCode("posix_fallocate") { posix_fallocate(rawValue, 0, off_t(bytes)) }
    }

    /// Whether the descriptor is a terminal.
    ///
    /// The corresponding C function is `isatty`.
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}

/// The permission bits of a created file or directory, as `open(2)` and `mkdir(2)` take them.
public typealias FileMode = mode_t

/// What `stat` tells of a file, as far as the store asks.
public struct FileStatus: Sendable {
    /// Its size in bytes.
    public let size: Int
    /// Whether it is a regular file (not a pipe, a terminal or a directory).
    public let isRegularFile: Bool
    /// What kind of file it is, in words: "a regular file", "a directory", "a FIFO", …
    public let kind: String
    /// Its inode and the time of its last change, in nanoseconds: with `size`, whether a file was written since
    /// it was last read.
    public let inode: UInt64
    public let changedNanoseconds: Int64

    init(_ info: stat) {
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
        changedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        kind = switch info.st_mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }
}
