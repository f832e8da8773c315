public import SystemCalls

/// The directory of a store, and the one way a store comes into being there: built aside, then put in place
/// in one step.
///
/// A store is its data file (`data.mdb`): LMDB makes the lock file again whenever it is missing. A new store is
/// built in a hidden directory inside the store's directory (`.new-PID-XXXXXX`), all its databases and first
/// events in one transaction, and its data file is then hard-linked into place, which fails when a store
/// appeared there meanwhile. So the store's directory holds no store, or a complete one that opens: a crash
/// while building leaves only the hidden directory (removed by the next creation or open once its process is gone),
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

    ///
    /// The corresponding C function is `access`.
    public var state: State {
        do {
            try FileSystem.checkAccess(dataFile, .exists)
        } catch {
            guard error.errno == .noEntry || error.errno == .notDirectory else { return .unreadable(error.reason) }
            // `--store` naming a regular file: say so, rather than the "permission denied" of the search below.
            if error.errno == .notDirectory, StoreDirectory.reaches(path, .exists) {
                return .unreadable("it is a file, not a directory (--store names the store's directory)")
            }
            // A directory that can not be searched hides whether it holds a store.
            if StoreDirectory.reaches(path, .exists) && !StoreDirectory.reaches(path, .execute) {
                return .unreadable("permission denied")
            }
            return .absent
        }
        return StoreDirectory.reaches(dataFile, .read) ? .store : .unreadable("permission denied")
    }

    /// Whether the directory holds a kept checkpoint (`checkpoint`) but no data file, and no store is being built
    /// there (no aside directory, as a creation killed before its data file appeared leaves): a store's data file
    /// was removed, or not restored with its checkpoint. That checkpoint is signed evidence of what the log held,
    /// which a new store must not replace: creating one there is refused (`orphanedCheckpoint`).
    public var holdsOrphanedCheckpoint: Bool {
        state == .absent && StoreDirectory.reaches(path + "/checkpoint", .exists)
            && !StoreDirectory.entries(of: path).contains(where: StoreDirectory.isAside)
    }

    /// What to say when the directory `holdsOrphanedCheckpoint`.
    public var orphanedCheckpoint: StoreError {
        StoreError("\(path) holds the signed checkpoint of a store whose data file (data.mdb) is missing: restore "
                   + "the data file from a backup; or, to give that log up and make a new store here, move its checkpoint "
                   + "(and its secrets file) elsewhere first; nothing was written")
    }

    /// Whether this process may reach `path` as `access` asks.
    private static func reaches(_ path: String, _ access: FileSystem.Access) -> Bool {
        (try? FileSystem.checkAccess(path, access)) != nil
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
            do {
                try FileSystem.makeDirectory(built, permissions: 0o700)
                made.append(built)
            } catch {
                guard error.errno == .exists else {
                    unprepare(made)
                    throw StoreError("can not create \(built): \(error.reason)")
                }
            }
        }
        // Left as it is when that fails: the store is then made in a directory others may read.
        if StoreDirectory.entries(of: path).allSatisfy(StoreDirectory.isAside) {
            try? FileSystem.changePermissions(path, to: 0o700)
        }
        return made
    }

    /// Removes the directories `prepare` made, when still empty: a creation that failed leaves nothing.
    public func unprepare(_ made: [String]) {
        // A directory something was put in meanwhile stays.
        for directory in made.reversed() { try? FileSystem.removeDirectory(directory) }
    }

    /// A new hidden directory to build a store in. Those of creations whose process is gone are removed first,
    /// unless a checkpoint is there without a data file: they tell that it is a killed creation's
    /// (`holdsOrphanedCheckpoint`), and stay until a creation succeeds (`publish`), should this one fail.
    public func makeAside() throws(StoreError) -> String {
        if !StoreDirectory.reaches(path + "/checkpoint", .exists) { removeAbandonedAsides() }
        do {
            return try FileSystem.makeTemporaryDirectory("\(path)/.new-\(CurrentProcess.id)-XXXXXX")
        } catch {
            throw StoreError("can not create a new store in \(path): \(error.reason)")
        }
    }

    /// Puts the store built in `aside` in place, unless a store is there already (another process made one
    /// meanwhile): then returns false and leaves that store alone. `aside` is removed either way.
    ///
    /// The files kept beside the data (`placing`, its secrets, renamed from where they were written; then its
    /// signed checkpoint) are put in place first and the data file last, under the lock of the checkpoint
    /// (`lockCheckpoint`), which every creation takes: a kill at any point leaves no store, or one whose
    /// secrets and checkpoint are there. Such files found where no data file is, beside the aside directory of
    /// the killed creation, are replaced; without one, they are a store's whose data file is gone, and a
    /// creation is refused before it gets here (`holdsOrphanedCheckpoint`).
    public func publish(aside: String, placing: [(from: String, to: String)] = []) throws(StoreError) -> Bool {
        defer { discard(aside: aside) }
        let lock = try StoreDirectory.lockCheckpoint(path)
        defer { lock.close() }
        guard state == .absent else { return false }
        for (from, to) in placing {
            do {
                try FileSystem.rename(from, to: to)
            } catch {
                throw StoreError("can not create the store at \(path): can not put \(to) in place: \(error.reason)")
            }
        }
        // Its lock files stay: the store's own `checkpoint.lock` is held here.
        let others = StoreDirectory.entries(of: aside).filter {
            $0 != "data.mdb" && $0 != "lock.mdb" && !$0.hasSuffix(".lock") && !$0.contains(".tmp-")
        }
        for name in others {
            do {
                try FileSystem.rename(aside + "/" + name, to: path + "/" + name)
            } catch {
                throw StoreError("can not create the store at \(path): can not put its \(name) in place: \(error.reason)")
            }
        }
        // The secrets may be kept in another directory (`--secrets`): it is flushed too.
        for directory in Set(placing.map { StoreDirectory.parent(of: $0.to) }) where directory != path {
            StoreDirectory.sync(directory)
        }
        if !others.isEmpty || !placing.isEmpty { syncDirectory() }
        // The data file is durable before it becomes visible: LMDB's commit synced it.
        do {
            try FileSystem.link(aside + "/data.mdb", to: dataFile)
        } catch {
            if error.errno == .exists { return false }
            throw StoreError("can not create the store at \(path): \(error.reason)")
        }
        // LMDB would make its lock file again, but this one has its mode and its space.
        try? FileSystem.link(aside + "/lock.mdb", to: path + "/lock.mdb")
        syncDirectory()
        removeAbandonedAsides()
        return true
    }

    /// Holds the exclusive lock of `<directory>/checkpoint.lock` until the returned descriptor is closed: the
    /// lock of every change to a store's checkpoint, and of a new store's publication. Opened without
    /// following a link or waiting on a FIFO planted in its place.
    ///
    /// The corresponding C functions are `open` and `flock`.
    public static func lockCheckpoint(_ directory: String) throws(StoreError) -> FileDescriptor {
        let lockPath = directory + "/checkpoint.lock"
        let lock: FileDescriptor
        do {
            lock = try FileDescriptor.open(lockPath, .readWrite, options: [.create, .closeOnExec, .noFollow, .nonBlocking],
                                           permissions: 0o600)
        } catch {
            throw StoreError("can not open \(lockPath): \(error.reason)")
        }
        do {
            try lock.lockExclusively()
        } catch {
            lock.close()
            throw StoreError("can not lock \(lockPath): \(error.reason)")
        }
        return lock
    }

    /// Removes a hidden directory made by `makeAside` and its files (never the store's own).
    public func discard(aside: String) {
        for name in StoreDirectory.entries(of: aside) { try? FileSystem.unlink(aside + "/" + name) }
        try? FileSystem.removeDirectory(aside)
    }

    /// Flushes the directory's entries, so that the new store survives a crash of the machine.
    /// Best effort: the store is in place either way, and a failure here has nothing left to undo.
    private func syncDirectory() { StoreDirectory.sync(path) }

    private static func sync(_ directory: String) {
        guard let fd = try? FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec]) else { return }
        try? fd.sync()
        fd.close()
    }

    /// The directory `file` is in.
    private static func parent(of file: String) -> String {
        file.lastIndex(of: "/").map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? "."
    }

    /// Removes hidden directories left by creations whose process is gone (killed while building); one
    /// whose process still runs is a creation in progress and stays. Called on every creation and open.
    public func removeAbandonedAsides() {
        for name in StoreDirectory.entries(of: path) where StoreDirectory.isAside(name) {
            let pid = name.dropFirst(5).prefix { $0 != "-" }
            guard let pid = Int32(pid), pid != CurrentProcess.id, !CurrentProcess.exists(pid) else { continue }
            discard(aside: path + "/" + name)
        }
    }

    private static func isAside(_ name: String) -> Bool { name.hasPrefix(".new-") }

    /// The names in `directory`, but `.` and `..`; none when it can not be read.
    private static func entries(of directory: String) -> [String] {
        (try? FileSystem.entries(of: directory)) ?? []
    }
}
