internal import Glibc

/// Calls on paths: directories, links, permissions, the status of a file.
public enum FileSystem {
    /// What `checkAccess` asks of a path.
    public struct Access: OptionSet, Sendable {
        public let rawValue: Int32
        @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Only whether the path exists (the empty set, `F_OK`).
        public static let exists: Access = []
        /// May be read. (`R_OK`)
        public static let read = Access(rawValue: R_OK)
        /// May be searched (a directory) or run. (`X_OK`)
        public static let execute = Access(rawValue: X_OK)
    }

    /// Returns when this process may reach `path` as `access` asks; throws why not (`Errno.noEntry`,
    /// a permission denied, …).
    ///
    /// The corresponding C function is `access`.
    public static func checkAccess(_ path: String, _ access: Access) throws(SystemError) {
        try nothingOrErrno("access") { Glibc.access(path, access.rawValue) }
    }

    /// Makes the directory `path` (not its parents) with `permissions`.
    ///
    /// The corresponding C function is `mkdir`.
    public static func makeDirectory(_ path: String, permissions: FileMode) throws(SystemError) {
        try nothingOrErrno("mkdir") { mkdir(path, permissions) }
    }

    /// Makes a new directory named by `template`, whose last six characters are `XXXXXX`, and returns its
    /// name (the template with them replaced).
    ///
    /// The corresponding C function is `mkdtemp`.
    public static func makeTemporaryDirectory(_ template: String) throws(SystemError) -> String {
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { throw SystemError("mkdtemp", errno: .current) }
        return String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Makes a new file named by `template` (its last six characters `XXXXXX`), open for reading and writing,
    /// and removes its name at once: the file lives while the descriptor is open, and nothing is left behind
    /// whatever becomes of the process.
    ///
    /// The corresponding C functions are `mkstemp` and `unlink`.
    public static func makeUnlinkedTemporaryFile(_ template: String) throws(SystemError) -> FileDescriptor {
        var bytes = Array(template.utf8CString)
        let fd = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw SystemError("mkstemp", errno: .current) }
        _ = bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { Glibc.unlink($0) } }
        return FileDescriptor(rawValue: fd)
    }

    /// Removes the directory `path`, which must be empty.
    ///
    /// The corresponding C function is `rmdir`.
    public static func removeDirectory(_ path: String) throws(SystemError) {
        try nothingOrErrno("rmdir") { rmdir(path) }
    }

    /// Makes `newPath` a hard link to `existing`; fails with `Errno.exists` when `newPath` is taken, which
    /// makes it the way to put a file in place unless one is there already.
    ///
    /// The corresponding C function is `link`.
    public static func link(_ existing: String, to newPath: String) throws(SystemError) {
        try nothingOrErrno("link") { Glibc.link(existing, newPath) }
    }

    /// Removes the name `path` (the file goes with its last name and last open descriptor).
    ///
    /// The corresponding C function is `unlink`.
    public static func unlink(_ path: String) throws(SystemError) {
        try nothingOrErrno("unlink") { Glibc.unlink(path) }
    }

    /// Renames `path` to `newPath` in one step, replacing a file there.
    ///
    /// The corresponding C function is `rename`.
    public static func rename(_ path: String, to newPath: String) throws(SystemError) {
        try nothingOrErrno("rename") { Glibc.rename(path, newPath) }
    }

    /// Sets the permission bits of `path`.
    ///
    /// The corresponding C function is `chmod`.
    public static func changePermissions(_ path: String, to permissions: FileMode) throws(SystemError) {
        try nothingOrErrno("chmod") { chmod(path, permissions) }
    }

    /// What `stat` tells of `path`, following links.
    ///
    /// The corresponding C function is `stat`.
    public static func status(_ path: String) throws(SystemError) -> FileStatus {
        var info = stat()
        try nothingOrErrno("stat") { stat(path, &info) }
        return FileStatus(info)
    }

    /// The names in the directory `path`, but `.` and `..`, in the order the directory keeps them.
    ///
    /// The corresponding C functions are `opendir`, `readdir` and `closedir`.
    public static func entries(of path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw SystemError("opendir", errno: .current) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The directory for temporary files: `TMPDIR` when it is set and not empty, else `/tmp` (POSIX).
    public static var temporaryDirectory: String {
        guard let dir = CurrentProcess.environment("TMPDIR"), !dir.isEmpty else { return "/tmp" }
        return dir
    }

    /// The bytes an unprivileged process may still write to the file system that holds `path`.
    ///
    /// The corresponding C function is `statvfs`.
    public static func freeSpace(_ path: String) throws(SystemError) -> Int {
        var info = statvfs()
        try nothingOrErrno("statvfs") { statvfs(path, &info) }
        let (bytes, overflow) = Int(info.f_bavail).multipliedReportingOverflow(by: Int(info.f_frsize))
        return overflow ? Int.max : bytes
    }
}

/// The running process, and others by their id.
public enum CurrentProcess {
    /// This process's id.
    ///
    /// The corresponding C function is `getpid`.
    public static var id: Int32 { getpid() }

    /// Whether a process with id `pid` exists (one of another user's counts: only its absence, `ESRCH`,
    /// says no).
    ///
    /// The corresponding C function is `kill` with signal 0.
    public static func exists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The value of the environment variable `name`, or nil when it is not set.
    ///
    /// The corresponding C function is `getenv`.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// A setting from the environment: its value, or nil when it is unset or empty (`VERITRAIL_NOW=` left from a
    /// script is no setting, as `NO_COLOR=` is none).
    public static func setting(_ name: String) -> String? {
        environment(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Ends the process with `code`, flushing the C library's streams.
    ///
    /// The corresponding C function is `exit`.
    public static func exit(_ code: Int32) -> Never {
        Glibc.exit(code)
    }
}
