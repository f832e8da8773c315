internal import Glibc

/// The terminal a person types at: its size, and reading from it without echo.
public enum TerminalDevice {
    /// The width in columns of the terminal `fd` is, or nil when it is not a terminal.
    ///
    /// The corresponding C function is `ioctl` with `TIOCGWINSZ`.
    public static func columns(of fd: FileDescriptor) -> Int? {
        var size = winsize()
        guard ioctl(fd.rawValue, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The height in rows of the terminal `fd` is, or nil when it is not a terminal (or does not say).
    ///
    /// The corresponding C function is `ioctl` with `TIOCGWINSZ`.
    public static func rows(of fd: FileDescriptor) -> Int? {
        var size = winsize()
        guard ioctl(fd.rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// Opens the process's controlling terminal (`/dev/tty`) for reading and writing, even when stdin and
    /// stdout are files or pipes; fails when the process has none.
    ///
    /// The corresponding C function is `open`.
    public static func openControlling() throws(SystemError) -> FileDescriptor {
        try FileDescriptor.open("/dev/tty", .readWrite)
    }

    /// Runs `body` with the terminal `fd` not echoing what is typed (a passcode), and echoing again after,
    /// whatever `body` does. Input typed before is discarded (`TCSAFLUSH`), as a password prompt does.
    ///
    /// The corresponding C functions are `tcgetattr` and `tcsetattr`.
    public static func withoutEcho<R, E: Error>(_ fd: FileDescriptor, _ body: () throws(E) -> R) throws(E) -> R {
        var saved = termios()
        // A descriptor that is not a terminal fails both calls and is read as it is.
        _ = tcgetattr(fd.rawValue, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(fd.rawValue, TCSAFLUSH, &silent)
        defer { _ = tcsetattr(fd.rawValue, TCSAFLUSH, &saved) }
        return try body()
    }
}
