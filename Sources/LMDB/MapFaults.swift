internal import CLMDB
internal import SystemCalls

/// Turns a fault while reading a store's map into a message that names the store and an exit code,
/// instead of a crash.
///
/// LMDB trusts the pages it maps: a damaged file can make it follow a page number out of the map
/// (SIGSEGV), and a file on a failing or full disk can fault on a page (SIGBUS). Neither can be turned into
/// an error code where it happens, so a process that opts in (`install`) has these signals end it with a
/// message and a documented exit code, once an environment is open. LMDB's own assertions (which would
/// abort) are routed here too.
public enum MapFaults {
    /// The message written on a fault, prepared when an environment opens: a signal handler may not
    /// allocate. One buffer for the whole process.
    nonisolated(unsafe) private static var message = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var messageLength = 0
    nonisolated(unsafe) private static var exitCode: Int32 = 74
    nonisolated(unsafe) private static var prefix = ""
    private static let capacity = 4096

    /// Has SIGSEGV and SIGBUS end the process with `exitCode` and a line on stderr that begins with
    /// `prefix` and names the store last opened. Signals before any store was opened are left as they were.
    /// Call once, at the start of the process (a command-line tool does; a server may prefer to crash).
    ///
    /// The corresponding C function is `sigaction` (`Signals.handleOnce`).
    public static func install(prefix: String, exitCode: Int32) {
        self.prefix = prefix
        self.exitCode = exitCode
        Signals.handleOnce([.segmentationFault, .busError]) { signal in MapFaults.fault(Signal(rawValue: signal)) }
    }

    /// Notes the environment just opened at `path`, whose name a fault message gives.
    static func opened(_ path: String) {
        guard !prefix.isEmpty else { return }
        let text = "\(prefix)the store at \(path) could not be read or written: its file is damaged or its disk failed or is full; "
            + "nothing more was done (check it with `veritrail log verify`)\n"
        let bytes = Array(text.utf8.prefix(capacity))
        for (i, byte) in bytes.enumerated() { message[i] = byte }
        messageLength = bytes.count
    }

    /// The signal handler: writes the prepared message and exits, or, before any store was opened, lets the
    /// signal do what it would have done (the handler was reset by `SA_RESETHAND`). Async-signal-safe: it
    /// allocates nothing, and the three calls are `Signals`' inlined `raise`, `write` and `_exit`.
    private static func fault(_ signal: Signal) {
        guard messageLength > 0 else {
            Signals.raise(signal)
            return
        }
        Signals.writeOnce(.standardError, message, count: messageLength)
        Signals.exitImmediately(exitCode)
    }

    /// LMDB's assertion handler (`mdb_env_set_assert`): a failed internal check means a damaged file.
    static let lmdbAssertion: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void = { _, _ in
        MapFaults.fault(.abort)
    }
}
