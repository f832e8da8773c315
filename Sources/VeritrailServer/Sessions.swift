import Crypto
import Foundation
import SystemCalls
import VeritrailKit

/// The server's sessions (server.md §2): a token is 32 random bytes in base64url, given once to its
/// holder; the server keeps only its SHA-256, with the grant that made it, in a file of its own in the
/// store's directory (`server-sessions`, 0600) — outside the log, which auditors read — so that a
/// restart logs nobody out.
///
/// A token is valid at most 15 minutes from its grant, and only while its account's lockout state is
/// `unlocked` and no event since the grant ended the account's access (a new passcode, a lockout, the
/// account's deletion): decided from the log at each request, so a CLI in another process ends sessions too.
///
/// Several servers may serve one store, and share the file: each change is made under the file's lock
/// (`server-sessions.lock`) to what the file holds then, so that no server writes over another's sessions,
/// and a token another server granted is found by reading the file again when it has changed.
final class SessionStore: @unchecked Sendable {
    /// A session's grant: the account, its role, and the granted attempt.
    struct Record: Sendable {
        var username: String
        var role: String
        var grantSeq: UInt64
        var grantAt: Timestamp
    }

    static let lifetimeSeconds: Int64 = 900
    let path: String
    private let lock = NSLock()
    private var records: [String: Record] = [:]
    /// The file as it was when last read or written (`FileStatus`'s inode, change time and size).
    private var read: (inode: UInt64, changed: Int64, size: Int)?
    private let ends: AccessEnds

    /// The sessions kept in `directory`; those over their 15 minutes are dropped at the next write.
    init(directory: String) throws {
        path = directory + "/server-sessions"
        ends = AccessEnds(from: .max)
        reloadIfChanged()
        if let oldest = records.values.map(\.grantSeq).min() { ends.watch(from: oldest) }
    }

    /// Makes a session for a grant and returns its token.
    func open(_ record: Record, now: Timestamp) throws -> String {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        let token = Self.base64url(bytes)
        try change {
            records = records.filter { now < $0.value.grantAt.adding(seconds: Self.lifetimeSeconds) }
            records[Self.digest(token)] = record
        }
        ends.watch(from: record.grantSeq)
        return token
    }

    /// Ends the session of `token` (`DELETE /v1/sessions/current`).
    func close(token: String) throws {
        try change { records[Self.digest(token)] = nil }
    }

    /// The account behind `token` now, or 401 saying why not.
    func viewer(forToken token: String, store: VeritrailStore) throws(Problem) -> Viewer {
        // Another server on the store may have granted it, or ended it (a sign-out): the file is read again when it
        // changed (a `stat` a request).
        let known = lock.withLock { () -> Record? in
            reloadIfChanged()
            return records[Self.digest(token)]
        }
        guard let record = known else {
            throw Problem.unauthorized("unknown token: sign in with POST /v1/sessions")
        }
        ends.watch(from: record.grantSeq)
        let now = store.clock()
        guard now < record.grantAt.adding(seconds: Self.lifetimeSeconds) else {
            throw Problem.unauthorized("the session is over (15 minutes after sign-in): sign in again with POST /v1/sessions")
        }
        let lockout: JSONValue
        do {
            lockout = try store.lockout(record.username)
        } catch .storeFailure(let e) {
            throw Problem.unavailable("\(e)")
        } catch {
            throw Problem.unauthorized("the session is over: \(error)")
        }
        let stateNow = lockout["state"]?.stringValue ?? "required"
        guard stateNow == "unlocked" else {
            throw Problem.unauthorized("the session is over: \(record.username) is \(stateNow) now; sign in again with POST /v1/sessions")
        }
        let ended: UInt64
        do {
            ended = try ends.lastEnd(of: record.username, store: store)
        } catch {
            throw Problem.unavailable("\(error)")
        }
        guard ended < record.grantSeq else {
            throw Problem.unauthorized("the session is over: \(record.username)'s access ended at seq \(ended); sign in again with POST /v1/sessions")
        }
        return Viewer(username: record.username, role: record.role)
    }

    /// Makes `body`'s change to the sessions the file holds now, under the file's lock, and writes them back.
    private func change(_ body: () -> Void) throws {
        try lock.withLock {
            let guardFile = try FileDescriptor.open(path + ".lock", .readWrite, options: [.create, .closeOnExec], permissions: 0o600)
            defer { guardFile.close() }
            try guardFile.lockExclusively()
            reloadIfChanged()
            body()
            try persist()
        }
    }

    /// Reads the file again when it is not the one last read or written (another server wrote it). Under `lock`.
    private func reloadIfChanged() {
        guard let status = try? FileSystem.status(path) else {
            read = nil
            return
        }
        let now = (status.inode, status.changedNanoseconds, status.size)
        if let read, read == now { return }
        var loaded: [String: Record] = [:]
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard f.count == 5, let seq = UInt64(f[3]), let at = Timestamp(String(f[4])) else { continue }
                loaded[String(f[0])] = Record(username: String(f[1]), role: String(f[2]), grantSeq: seq, grantAt: at)
            }
        }
        records = loaded
        read = now
    }

    /// Writes every session to a new file and renames it over the old one (0600, synced), under the file's lock.
    private func persist() throws {
        var text = ""
        for (hash, r) in records.sorted(by: { $0.key < $1.key }) {
            text += "\(hash)\t\(r.username)\t\(r.role)\t\(r.grantSeq)\t\(r.grantAt)\n"
        }
        let temporary = path + ".tmp"
        let fd = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: 0o600)
        do {
            try fd.writeAll(Array(text.utf8))
            try fd.sync()
            fd.close()
        } catch {
            fd.close()
            throw error
        }
        try FileSystem.rename(temporary, to: path)
        read = (try? FileSystem.status(path)).map { ($0.inode, $0.changedNanoseconds, $0.size) }
    }

    static func digest(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Array(token.utf8)))
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// The last event of each account that ended its access — a `passcode.set` for it, its deletion, or the
/// wrong passcode that locked it — found by reading the log forward from the oldest live grant, once:
/// each request reads only the events written since the one before.
///
/// Whether a wrong passcode locked the account is decided here, from the same events, by the rules of the
/// gate (projections.md §3: three denied in a row lock it for 60 s; a grant or a new passcode starts the
/// count again; a lock that has run out too), not by asking the lockout as of each denied attempt: that
/// replayed the log up to the attempt, each time, and a server whose log got an import with thousands of
/// denied attempts then spent hours on its next request. The count is right for every account from its
/// grant on (a grant sets it to 0), which is all that matters: only ends after a grant are compared.
final class AccessEnds: @unchecked Sendable {
    private let lock = NSLock()
    /// The last seq read (the scan starts after it).
    private var readThrough: UInt64
    /// The first seq the scan read, or is to read.
    private var scannedFrom: UInt64
    private var lastEnd: [String: UInt64] = [:]
    /// Each account's gate since the scan began: wrong passcodes in a row, and the end of its lock.
    private var gates: [String: (failures: Int, lockedUntil: Timestamp?)] = [:]

    init(from seq: UInt64) {
        readThrough = seq == .max ? .max : seq - 1
        scannedFrom = seq
    }

    /// Makes sure events from `seq` on are read: a grant older than every one so far (another server's, found in
    /// the sessions' file) starts the scan again from it, or an end between its grant and the scan's start would
    /// go unseen.
    func watch(from seq: UInt64) {
        lock.withLock {
            guard seq < scannedFrom else { return }
            readThrough = seq - 1
            scannedFrom = seq
            lastEnd = [:]
            gates = [:]
        }
    }

    /// The seq of the last event that ended `user`'s access, 0 when none (since the oldest grant).
    func lastEnd(of user: String, store: VeritrailStore) throws -> UInt64 {
        try lock.withLock {
            guard readThrough != .max else { return 0 }
            let head = try store.head().seq
            if head > readThrough {
                var filter = LogFilter(from: readThrough + 1, through: head)
                filter.types = [.passcodeSet, .passcodeAttempted, .accountDeleted]
                try store.tail(filter) { seq, event in self.read(seq, event) }
                readThrough = head
            }
            return lastEnd[user] ?? 0
        }
    }

    /// One event of the gate, in seq order (projections.md §3, rules 1–5).
    private func read(_ seq: UInt64, _ event: Event) {
        let username: String
        switch event.payload {
        case .passcodeSet(let p): username = p.username
        case .accountDeleted(let p): username = p.username
        case .passcodeAttempted(let p): username = p.username
        default: return
        }
        var gate = gates[username] ?? (0, nil)
        if let until = gate.lockedUntil, event.at >= until { gate = (0, nil) }
        switch event.payload {
        case .passcodeSet, .accountDeleted:
            gate = (0, nil)
            lastEnd[username] = seq
        case .passcodeAttempted(let p):
            switch p.outcome {
            case .granted: gate.failures = 0
            case .denied:
                gate.failures += 1
                if gate.failures >= 3 {
                    gate.lockedUntil = event.at.adding(seconds: 60)
                    lastEnd[username] = seq
                }
            case .locked: break
            }
        default: break
        }
        gates[username] = gate
    }
}
