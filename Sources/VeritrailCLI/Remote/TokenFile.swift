import SystemCalls
import VeritrailKit

/// The session tokens `veritrail login` keeps (server.md §8): `$XDG_STATE_HOME/veritrail/tokens.json`
/// (default `~/.local/state/veritrail/`), one per server and user. A token is a secret: the directory is
/// 0700, the file 0600, and it is replaced whole (written beside it, then renamed) so that a reader never
/// sees half of it.
struct TokenFile {
    struct Entry: Equatable {
        var server: String
        var user: String
        var token: String
        var expiresAt: String
    }

    let directory: String
    var path: String { directory + "/tokens.json" }

    /// The file of this process's environment; usage error when neither XDG_STATE_HOME nor HOME says where.
    static func standard() throws(Failure) -> TokenFile {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return TokenFile(directory: state + "/veritrail") }
        guard let home = environment("HOME"), !home.isEmpty else {
            throw Failure.usage("where to keep the session token? set HOME or XDG_STATE_HOME")
        }
        return TokenFile(directory: home + "/.local/state/veritrail")
    }

    /// Every token kept; none when there is no file yet. A file that is not ours is refused, not overwritten.
    func entries() throws(Failure) -> [Entry] {
        guard let bytes = try read() else { return [] }
        guard case .object(let root)? = try? JSONValue.parse(bytes), case .array(let items)? = root["tokens"] else {
            throw Failure(code: Failure.storeFailed, message: "\(path) is not a token file of veritrail: move it away and log in again")
        }
        return items.compactMap { item in
            guard case .object(let o) = item, case .string(let server)? = o["server"], case .string(let user)? = o["user"],
                  case .string(let token)? = o["token"], case .string(let expiresAt)? = o["expiresAt"] else { return nil }
            return Entry(server: server, user: user, token: token, expiresAt: expiresAt)
        }
    }

    /// The token for `user` on `server`, or when `user` is nil the only one kept for `server`.
    func find(server: String, user: String?) throws(Failure) -> Entry? {
        let mine = try entries().filter { $0.server == server && (user == nil || $0.user == user) }
        return mine.count == 1 ? mine[0] : nil
    }

    /// Keeps `entry`, replacing the one of the same server and user.
    func keep(_ entry: Entry) throws(Failure) {
        try write(try entries().filter { !($0.server == entry.server && $0.user == entry.user) } + [entry])
    }

    /// Forgets the token of `user` on `server`.
    func forget(server: String, user: String) throws(Failure) {
        let all = try entries()
        let kept = all.filter { !($0.server == server && $0.user == user) }
        if kept.count != all.count { try write(kept) }
    }

    private func read() throws(Failure) -> [UInt8]? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            if error.errno == .noEntry { return nil }
            throw Failure(code: Failure.storeFailed, message: "can not read \(path): \(error)")
        }
        defer { fd.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { buffer throws(SystemError) in try fd.read(into: buffer) } } catch {
                throw Failure(code: Failure.storeFailed, message: "can not read \(path): \(error)")
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > 16 << 20 { throw Failure(code: Failure.storeFailed, message: "\(path) is over 16 MiB: not a token file") }
        }
    }

    private func write(_ entries: [Entry]) throws(Failure) {
        let items: [JSONValue] = entries.map { e in
            .object(JSONObject([("server", .string(e.server)), ("user", .string(e.user)), ("token", .string(e.token)),
                                ("expiresAt", .string(e.expiresAt))])!)
        }
        var bytes = canonicalJSON(.object(JSONObject([("tokens", .array(items))])!))
        bytes.append(0x0A)
        let temporary = path + ".tmp"
        do {
            try makeDirectories()
            try? FileSystem.unlink(temporary)
            let fd = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: 0o600)
            defer { fd.close() }
            try fd.writeAll(bytes)
            try fd.sync()
            try FileSystem.rename(temporary, to: path)
        } catch {
            throw Failure(code: Failure.storeFailed, message: "can not write \(path): \(error)")
        }
    }

    /// The directory and its missing parents; the last one 0700 whatever it was.
    private func makeDirectories() throws(SystemError) {
        var prefix = ""
        for part in directory.split(separator: "/") {
            prefix += "/" + part
            do { try FileSystem.makeDirectory(prefix, permissions: 0o700) } catch where error.errno == .exists {}
        }
        try FileSystem.changePermissions(directory, to: 0o700)
    }
}
