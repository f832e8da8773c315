public import Glibc

// The one place where a C return code and `errno` become a Swift error, as swift-system's `valueOrErrno`
// and NIO's `syscall` do: every wrapper of this module passes its C function's result through here.
// Inlined, so that nothing runs between the call and the read of `errno` that could change it.

/// The result of `body` (a C call that returns -1 and sets `errno` on failure), trying it again while it is
/// interrupted by a signal; a `SystemError` naming `call` otherwise.
@inlinable @inline(__always)
func valueOrErrno<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Errno.current
        if code != .interrupted { throw SystemError(call, errno: code) }
    }
}

/// As `valueOrErrno`, for a call whose result is only success or failure.
@inlinable @inline(__always)
func nothingOrErrno(_ call: String, _ body: () -> Int32) throws(SystemError) {
    _ = try valueOrErrno(call, body)
}

/// As `valueOrErrno`, for a call that returns the error number itself (0 on success) instead of setting
/// `errno`: `posix_fallocate` and the pthread functions do.
@inlinable @inline(__always)
func nothingOrCode(_ call: String, _ body: () -> Int32) throws(SystemError) {
    while true {
        let code = body()
        if code == 0 { return }
        if code != EINTR { throw SystemError(call, errno: Errno(rawValue: code)) }
    }
}
