#if canImport(Glibc)
import Glibc
#endif

/// The directory of a store, and the one way a store comes into being there: built aside, then put in place
/// in one step.
///
/// A store is its data file (`data.mdb`): LMDB makes the lock file again whenever it is missing. A new store is
/// built in a hidden directory inside the store's directory (`.new-PID-XXXXXX`), all its databases and first
/// events in one transaction, and its data file is then hard-linked into place, which fails when a store
/// appeared there meanwhile. So the store's directory holds no store, or a complete one that opens: a crash
/// while building leaves only the hidden directory (removed by the next creation once its process is gone),
/// and no process ever deletes a store's files, even when it fails.
public struct StoreDirectory: Sendable {
    public let path: String

    public init(_ path: String) { self.path = path }

    /// The store's data file, whose presence makes the directory a store.
    public var dataFile: String { path + "/data.mdb" }

    /// What is at `path`.
    public enum State: Sendable, Equatable {
        /// No store (the directory may or may not exist).
        case absent
        /// A store.
        case store
        /// The directory or its data file can not be reached (permissions): the reason.
        case unreadable(String)
    }

    public var state: State {
        if access(dataFile, F_OK) == 0 {
            return access(dataFile, R_OK) == 0 ? .store : .unreadable("permission denied")
        }
        let reason = errno
        if reason == ENOENT || reason == ENOTDIR {
            // A directory that can not be searched hides whether it holds a store.
            if access(path, F_OK) == 0 && access(path, X_OK) != 0 { return .unreadable("permission denied") }
            return .absent
        }
        return .unreadable(String(cString: strerror(reason)))
    }

    /// Makes the directory and its missing parents, owner-only (0700), and returns those it made, for
    /// `unprepare`. An existing empty directory becomes the store's own and is made 0700 too; a directory
    /// that holds other files is left as it is.
    public func prepare() throws(StoreError) -> [String] {
        var built = ""
        var made: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            built += built.isEmpty && part.isEmpty ? "/" : (built.isEmpty || built.hasSuffix("/") ? "" : "/") + part
            if built.isEmpty || built == "/" { continue }
            if mkdir(built, 0o700) == 0 {
                made.append(built)
            } else if errno != EEXIST {
                unprepare(made)
                throw StoreError("can not create \(built): \(String(cString: strerror(errno)))")
            }
        }
        if StoreDirectory.entries(of: path).allSatisfy(StoreDirectory.isAside) { chmod(path, 0o700) }
        return made
    }

    /// Removes the directories `prepare` made, when still empty: a creation that failed leaves nothing.
    public func unprepare(_ made: [String]) {
        for directory in made.reversed() { rmdir(directory) }
    }

    /// A new hidden directory to build a store in.
    public func makeAside() throws(StoreError) -> String {
        removeAbandonedAsides()
        var template = Array("\(path)/.new-\(getpid())-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) }
        guard made != nil else {
            throw StoreError("can not create a new store in \(path): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Puts the store built in `aside` in place, unless a store is there already (another process made one
    /// meanwhile): then returns false and leaves that store alone. `aside` is removed either way.
    public func publish(aside: String) throws(StoreError) -> Bool {
        defer { discard(aside: aside) }
        // The data file is durable before it becomes visible: LMDB's commit synced it.
        guard link(aside + "/data.mdb", dataFile) == 0 else {
            if errno == EEXIST { return false }
            throw StoreError("can not create the store at \(path): \(String(cString: strerror(errno)))")
        }
        // The store's other files follow (its lock file, which LMDB would make again but this one has its mode
        // and its space; files kept beside the data, such as a signed checkpoint); none replaces one there.
        for name in StoreDirectory.entries(of: aside) where name != "data.mdb" {
            _ = link(aside + "/" + name, path + "/" + name)
        }
        syncDirectory()
        return true
    }

    /// Removes a hidden directory made by `makeAside` and its files (never the store's own).
    public func discard(aside: String) {
        for name in StoreDirectory.entries(of: aside) { unlink(aside + "/" + name) }
        rmdir(aside)
    }

    /// Flushes the directory's entries, so that the new store survives a crash of the machine.
    private func syncDirectory() {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes hidden directories left by creations whose process is gone (killed while building).
    private func removeAbandonedAsides() {
        for name in StoreDirectory.entries(of: path) where StoreDirectory.isAside(name) {
            let pid = name.dropFirst(5).prefix { $0 != "-" }
            guard let pid = Int32(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            discard(aside: path + "/" + name)
        }
    }

    private static func isAside(_ name: String) -> Bool { name.hasPrefix(".new-") }

    /// The names in `directory`, but `.` and `..`.
    private static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
