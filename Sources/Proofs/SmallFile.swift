import SystemCalls

/// A small file the store keeps or is given (a checkpoint, a verifier key, the secrets file), read so that
/// nothing about it can hang or exhaust the reader: opened without waiting (`O_NONBLOCK`: a FIFO planted in
/// its place answers at once), taken only when it is a regular file, and read up to a bound.
public enum SmallFile {
    /// What is at a path.
    public enum Contents: Sendable, Equatable {
        /// Nothing (`ENOENT`), or a symbolic link to nothing.
        case missing
        /// The file's bytes, within the bound.
        case bytes([UInt8])
        /// Something that is not a small regular file, or can not be read: why, as a sentence that names it.
        case refused(String)
    }

    /// Reads the file at `path`, at most `limit` bytes. With `followLinks` false, a symbolic link in its place
    /// (dangling or not) is refused, so that a link planted beside the store never stands for the file.
    ///
    /// The corresponding C functions are `open`, `fstat`, `read` and `close`.
    public static func read(_ path: String, limit: Int, followLinks: Bool) -> Contents {
        var options: FileDescriptor.OpenOptions = [.closeOnExec, .nonBlocking]
        if !followLinks { options.insert(.noFollow) }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: options)
        } catch {
            switch error.errno {
            case .noEntry: return .missing
            case .symbolicLink: return .refused("\(path) is a symbolic link, not the file itself")
            default: return .refused("\(path) can not be read: \(error.reason)")
            }
        }
        defer { fd.close() }
        let status: FileStatus
        do {
            status = try fd.status()
        } catch {
            return .refused("\(path) can not be read: \(error.reason)")
        }
        guard status.isRegularFile else { return .refused("\(path) is \(status.kind), not a regular file") }
        guard status.size <= limit else { return .refused("\(path) is larger than \(limit) bytes: it is not what it should be") }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n: Int
            do {
                n = try fd.read(into: chunk)
            } catch {
                return .refused("\(path) can not be read: \(error.reason)")
            }
            if n == 0 { return .bytes(bytes) }
            bytes += chunk[..<n]
            // The file grew since `fstat`.
            guard bytes.count <= limit else { return .refused("\(path) is larger than \(limit) bytes: it is not what it should be") }
        }
    }
}

/// Writing a small file in a directory safely: a temporary file of a new, unique name made with
/// `O_CREAT|O_EXCL|O_NOFOLLOW` (never a file or link someone planted), written, flushed, then put in place
/// and the directory flushed.
enum SafeWrite {
    /// Writes `bytes` to a new temporary file in `directory` and returns its path; removed again on failure.
    /// With `flushed` false, it is written but not flushed (`flush` does that later).
    ///
    /// The corresponding C functions are `open`, `write`, `fsync` and `close`.
    static func temporary(_ bytes: [UInt8], in directory: String, prefix: String, flushed: Bool = true) throws(SystemError) -> String {
        var generator = SystemRandomNumberGenerator()
        var tries = 0
        while true {
            let path = "\(directory)/\(prefix).tmp-\(CurrentProcess.id)-\(UInt32.random(in: 0...UInt32.max, using: &generator))"
            let fd: FileDescriptor
            do {
                fd = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive, .noFollow, .closeOnExec], permissions: 0o600)
            } catch {
                tries += 1
                if error.errno == .exists && tries < 16 { continue }
                throw error
            }
            do {
                defer { fd.close() }
                try fd.writeAll(bytes)
                if flushed { try fd.sync() }
            } catch {
                try? FileSystem.unlink(path)
                throw error
            }
            return path
        }
    }

    /// Flushes the file at `path` (one this process wrote with `temporary`) to disk.
    ///
    /// The corresponding C functions are `open`, `fsync` and `close`.
    static func flush(_ path: String) throws(SystemError) {
        let fd = try FileDescriptor.open(path, .readOnly, options: [.noFollow, .closeOnExec])
        defer { fd.close() }
        try fd.sync()
    }

    /// Flushes `directory`'s entries to disk.
    ///
    /// The corresponding C functions are `open` and `fsync`.
    static func syncDirectory(_ directory: String) throws(SystemError) {
        let dir = try FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec])
        defer { dir.close() }
        try dir.sync()
    }

    /// Removes temporary files named `prefix.tmp-PID-…` in `directory` whose process is gone (killed while
    /// writing one).
    static func removeAbandoned(in directory: String, prefix: String) {
        let lead = prefix + ".tmp-"
        for name in (try? FileSystem.entries(of: directory)) ?? [] where name.hasPrefix(lead) {
            guard let pid = Int32(name.dropFirst(lead.count).prefix { $0 != "-" }), pid != CurrentProcess.id,
                  !CurrentProcess.exists(pid) else { continue }
            try? FileSystem.unlink(directory + "/" + name)
        }
    }
}
