public import Glibc

/// A system error number (`errno`), kept raw so that nothing the system says is lost, with names for the
/// codes callers act on.
///
/// Match a code in a `catch` clause as swift-system's `Errno` allows:
///
/// ```swift
/// do { try FileSystem.makeDirectory(path) } catch Errno.exists { /* there already */ }
/// ```
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    public let rawValue: Int32

    /// The error number `rawValue`.
    @inlinable
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now: read it right after the failed call, before anything else may
    /// change it.
    @inlinable
    public static var current: Errno { Errno(rawValue: errno) }

    /// The C library's own explanation ("No space left on device"), as every message of the CLI quotes it.
    ///
    /// The corresponding C function is `strerror`.
    public var description: String { String(cString: strerror(rawValue)) }

    /// Whether `error` is a `SystemError` or an `Errno` with this code, so that `catch Errno.exists` works
    /// where the thrown type is `any Error`.
    public static func ~= (pattern: Errno, error: any Error) -> Bool {
        switch error {
        case let error as SystemError: error.errno == pattern
        case let error as Errno: error == pattern
        default: false
        }
    }

    /// The call was interrupted by a signal: the wrappers try it again themselves. (`EINTR`)
    @inlinable public static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// No such file or directory. (`ENOENT`)
    @inlinable public static var noEntry: Errno { Errno(rawValue: ENOENT) }
    /// A part of the path is not a directory. (`ENOTDIR`)
    @inlinable public static var notDirectory: Errno { Errno(rawValue: ENOTDIR) }
    /// The file exists already. (`EEXIST`)
    @inlinable public static var exists: Errno { Errno(rawValue: EEXIST) }
    /// The disk is full. (`ENOSPC`)
    @inlinable public static var noSpace: Errno { Errno(rawValue: ENOSPC) }
    /// Not enough memory. (`ENOMEM`)
    @inlinable public static var noMemory: Errno { Errno(rawValue: ENOMEM) }
    /// An input/output error. (`EIO`)
    @inlinable public static var io: Errno { Errno(rawValue: EIO) }
    /// The reader of a pipe has gone (`| head`). (`EPIPE`)
    @inlinable public static var brokenPipe: Errno { Errno(rawValue: EPIPE) }
    /// No such process. (`ESRCH`)
    @inlinable public static var noProcess: Errno { Errno(rawValue: ESRCH) }
    /// Too many symbolic links, or one where `O_NOFOLLOW` forbids it. (`ELOOP`)
    @inlinable public static var symbolicLink: Errno { Errno(rawValue: ELOOP) }
    /// An argument the call does not know, such as advice an older kernel lacks. (`EINVAL`)
    @inlinable public static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    /// The operation is not supported, such as allocation on a file system without it. (`EOPNOTSUPP`)
    @inlinable public static var notSupported: Errno { Errno(rawValue: EOPNOTSUPP) }
}

/// A system call that failed: which call, and the `errno` it left.
///
/// The one error every wrapper of this module throws (`valueOrErrno` makes it), so that a caller can both
/// `catch` a code (`catch Errno.noSpace`) and say what failed.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed (`open`, `fsync`, …).
    public let call: String
    /// What the system said.
    public let errno: Errno

    /// A failure of `call` with `errno`.
    @inlinable
    public init(_ call: String, errno: Errno) {
        self.call = call
        self.errno = errno
    }

    /// The C library's explanation alone ("Permission denied"): the CLI's messages quote it after their own
    /// words, which already say what was being done.
    public var reason: String { errno.description }

    /// `call: reason`, for logs and tests.
    public var description: String { "\(call): \(reason)" }
}
