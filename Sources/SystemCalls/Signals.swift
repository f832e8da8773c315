public import Glibc

/// A signal, by number.
public struct Signal: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

    /// An access outside any map, such as LMDB following a damaged page number. (`SIGSEGV`)
    @inlinable public static var segmentationFault: Signal { Signal(rawValue: SIGSEGV) }
    /// A page of a mapped file that can not be read or allocated (a failing or full disk). (`SIGBUS`)
    @inlinable public static var busError: Signal { Signal(rawValue: SIGBUS) }
    /// An abort, such as a failed assertion. (`SIGABRT`)
    @inlinable public static var abort: Signal { Signal(rawValue: SIGABRT) }
    /// A write to a pipe whose reader has gone. (`SIGPIPE`)
    @inlinable public static var brokenPipe: Signal { Signal(rawValue: SIGPIPE) }
}

/// Signals: handlers, and the few calls a handler may make.
///
/// A signal handler runs in the middle of whatever the thread was doing, perhaps inside `malloc`, so it may
/// only make async-signal-safe calls: no allocation, no lock, no Swift error. The calls marked so below are
/// the C function itself, inlined, and nothing more.
public enum Signals {
    /// Has `signals` run `handler` each time, told where the access that faulted was (`SA_SIGINFO`,
    /// `faultAddress`): a handler that mends the fault returns, and the access is tried again; one that does not
    /// restores the signal's default (`restoreDefault`) and returns, so that the access faults again and ends the
    /// process the usual way; or it ends the process itself.
    ///
    /// The corresponding C functions are `sigemptyset` and `sigaction`.
    public static func handleFaults(_ signals: [Signal],
                                    with handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handler
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        // Fails only for a signal that can not be caught (SIGKILL, SIGSTOP), which none of these is.
        for signal in signals { _ = sigaction(signal.rawValue, &action, nil) }
    }

    /// The address whose access raised the fault `info` describes (SIGSEGV, SIGBUS). Async-signal-safe.
    @inlinable @inline(__always)
    public static func faultAddress(_ info: UnsafeMutablePointer<siginfo_t>?) -> UInt {
        UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
    }

    /// Restores the default action of `signal` (for SIGPIPE, ending the process). Async-signal-safe.
    ///
    /// The corresponding C function is `signal` with `SIG_DFL`.
    public static func restoreDefault(_ signal: Signal) {
        _ = Glibc.signal(signal.rawValue, SIG_DFL)
    }

    /// Sends `signal` to the calling thread. Async-signal-safe.
    ///
    /// The corresponding C function is `raise`.
    @inlinable @inline(__always)
    public static func raise(_ signal: Signal) {
        _ = Glibc.raise(signal.rawValue)
    }

    /// Writes the `count` bytes at `bytes` to `fd` with one call, its result ignored: for a signal handler's
    /// last words, where nothing could be done about a failure. Async-signal-safe.
    ///
    /// The corresponding C function is `write`.
    @inlinable @inline(__always)
    public static func writeOnce(_ fd: FileDescriptor, _ bytes: UnsafeRawPointer, count: Int) {
        _ = Glibc.write(fd.rawValue, bytes, count)
    }

    /// Ends the process with `code` at once, without running `atexit` handlers or flushing the C library's
    /// streams. Async-signal-safe.
    ///
    /// The corresponding C function is `_exit`.
    @inlinable @inline(__always)
    public static func exitImmediately(_ code: Int32) -> Never {
        _exit(code)
    }
}
