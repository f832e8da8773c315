public import Domain
public import Engine
import EventLog
import LMDB
import Projections
import Proofs
import StrictJSON

/// Gives an actor's passcode when the gate asks for it (the actor never unlocked, or the fifteen minutes
/// ran out); nil when there is none to give, which refuses the write as not allowed. An error it throws
/// refuses the write too, kept as the `.notAllowed` error's cause.
public typealias PasscodeProvider = (_ actor: String) throws -> String?

/// One Veritrail store, opened for a program: appends through the rules and the passcode gate, queries as
/// of any point, rebuilds, verifies and exports.
///
/// Every decision about a write — the rules, who may, and whether the actor is unlocked — is made inside
/// the one write transaction that appends its events, so a racing process can not slip a write past a
/// lockout. A passcode attempt is recorded in a transaction of its own: it stands whatever happens to
/// the write after it (cli.md §6).
///
/// LMDB lets a process open a store once: keep one `VeritrailStore` per directory and share it.
public final class VeritrailStore: @unchecked Sendable {
    let store: Store
    /// The time now, from the system's real-time clock: every store's clock unless it is given one.
    public static let wallClock: @Sendable () -> Timestamp = WallClock.now

    /// The directory the store lives in.
    public let directory: String
    /// Where the store's secrets file is (proofs.md §2): `<directory>/secrets` unless opened with another.
    public let secretsPath: String
    /// The time new events carry (never before the log's head): the wall clock unless given.
    public let clock: @Sendable () -> Timestamp

    private init(store: Store, directory: String, clock: @escaping @Sendable () -> Timestamp) {
        self.store = store
        self.directory = directory
        secretsPath = store.proofs.secretsFile.path
        self.clock = clock
    }

    /// Opens the store in `directory`; `.storeFailure` when there is none (cli.md §6: exit 74). `mapSize`
    /// is the least map to start with; the data file is as large as the map, and the map grows as writes
    /// fill it (by a fifth, or by what a large write says it needs: `Environment.grownSize`). `secrets` is where the store's secrets file
    /// is (the signing key and the passcode pepper, proofs.md §2; `<directory>/secrets` when nil): every
    /// write and passcode check needs it (`.storeFailure` without it), reads do not.
    public static func open(at directory: String,
                            clock: @escaping @Sendable () -> Timestamp = WallClock.now,
                            mapSize: Int? = nil, secrets: String? = nil) throws(VeritrailError) -> VeritrailStore {
        let store = try VeritrailError.catching {
            try Store(directory: directory, mapSize: mapSize ?? EventLog.initialMapSize, secrets: secrets)
        }
        return VeritrailStore(store: store, directory: directory, clock: clock)
    }

    /// Has this process's reads map only the pages they touch, not the cached pages around each one
    /// (`Environment.mapOnlyTouchedPages`): for a process that answers a query and exits, as the command line
    /// does. Answers are the same either way, only sooner where a query touches many scattered pages
    /// (docs/SCALE.md, "Fault-around off for a query's process").
    public func mapOnlyTouchedPages() {
        store.log.environment.mapOnlyTouchedPages()
    }

    /// Creates a store in `directory` whose first events register `admin` (role admin, actor `system`) and
    /// set its passcode, as `veritrail init` does; the store appears whole or not at all. `origin` names
    /// its signed checkpoints (proofs.md §2; random when nil). Throws `.malformed` for a passcode not 4–8
    /// digits, `.ruleBroken` for a bad name or e-mail, and `.storeFailure(StoreExists)` when a store is
    /// there already. Its secrets file is written at `secrets` (`<directory>/secrets` when nil) before the
    /// store appears; one already there is taken (a restore).
    public static func create(at directory: String, admin: String, name: String, email: String, passcode: String,
                              origin: String? = nil, secrets: String? = nil,
                              clock: @escaping @Sendable () -> Timestamp = WallClock.now) throws(VeritrailError) -> VeritrailStore {
        try create(at: directory, admin: admin, name: name, email: email, origin: origin, secrets: secrets, clock: clock) { passcode }
    }

    /// `create(at:admin:name:email:passcode:origin:clock:)` asking the passcode only once everything else
    /// is known to be right: the directory holds no store (`.storeFailure(StoreExists)`, or a `StoreError`
    /// when it can not be read) and the admin's registration keeps the rules. So a person is not asked a
    /// new passcode twice for nothing (`veritrail init`). An error `newPasscode` throws refuses the call as
    /// not allowed, with that error as its cause.
    public static func create(at directory: String, admin: String, name: String, email: String, origin: String? = nil,
                              secrets: String? = nil,
                              clock: @escaping @Sendable () -> Timestamp = WallClock.now,
                              newPasscode: () throws -> String) throws(VeritrailError) -> VeritrailStore {
        switch StoreDirectory(directory).state {
        case .absent: break
        case .store: throw .storeFailure(underlying: StoreExists(directory: directory))
        case .unreadable(let reason): throw .storeFailure(underlying: StoreError("the store at \(directory) can not be read: \(reason)"))
        }
        let at = clock()
        let registered = try VeritrailError.catching {
            try EventData.event(.accountRegistered, actor: "system", at: at, [
                ("username", .string(admin)), ("role", .string(Role.admin.rawValue)), ("name", .string(name)),
                ("email", .string(email)),
            ])
        }
        let passcode: String
        do {
            passcode = try newPasscode()
        } catch {
            throw .notAllowed("\(error)", lockedSeconds: nil, cause: error)
        }
        // The store's secrets are known before it is made: the admin's credential is made with their pepper.
        let newSecrets = try VeritrailError.catching {
            try SecretsFile(path: secrets ?? SecretsFile(storeDirectory: directory).path).load() ?? StoreSecrets.generate()
        }
        let credential = try Gatekeeper.credential(for: passcode, pepper: { newSecrets.pepper })
        let made: LogHead? = try VeritrailError.catching {
            let passcodeSet = try EventData.event(.passcodeSet, actor: "system", at: at, EventData.passcode(admin, credential))
            return try Store.create(directory: directory, origin: origin, secrets: secrets, newSecrets: newSecrets) { appender in
                _ = try appender.append(registered)
                _ = try appender.append(passcodeSet)
                return appender.head
            }
        }
        guard made != nil else { throw .storeFailure(underlying: StoreExists(directory: directory)) }
        return try open(at: directory, clock: clock, secrets: secrets)
    }

    /// The store in `directory`, made as `create` makes it when there is none yet (or opened when another
    /// process made it meanwhile).
    public static func openOrCreate(at directory: String, admin: String, name: String, email: String, passcode: String,
                                    origin: String? = nil, secrets: String? = nil,
                                    clock: @escaping @Sendable () -> Timestamp = WallClock.now) throws(VeritrailError) -> VeritrailStore {
        if StoreDirectory(directory).state != .absent { return try open(at: directory, clock: clock, secrets: secrets) }
        do {
            return try create(at: directory, admin: admin, name: name, email: email, passcode: passcode, origin: origin,
                              secrets: secrets, clock: clock)
        } catch .storeFailure(let e) where e is StoreExists {
            return try open(at: directory, clock: clock, secrets: secrets)
        }
    }

    /// Makes the writes of this store's many threads share commits (server.md §3, group commit): writes that
    /// arrive together are checked one after the other in one write transaction, committed with one flush
    /// and one signed checkpoint, and each returns once its group is on disk; a refused write leaves the
    /// others untouched. `onCommit` hears each group's size and its time in microseconds. Call it once,
    /// right after opening, before the store is shared.
    public func groupCommits(onCommit: (@Sendable (_ size: Int, _ microseconds: Int64) -> Void)? = nil) {
        store.groupCommits(onCommit: onCommit)
    }

    /// The head of the log: its last seq and hash.
    public func head() throws(VeritrailError) -> StoreHead {
        try VeritrailError.catching { try store.read { reader, _ in try reader.head() } }
    }

    /// Appends `events` as they are, all or none, in one write transaction, checked against every rule as
    /// an import line is (no passcode gate: like `veritrail import`, this is the trusted way in). An event
    /// whose `id` is in the log already with the same content is not written again (`isNew` false).
    @discardableResult
    public func append(_ events: [IncomingEvent]) throws(VeritrailError) -> [AppendedEvent] {
        try VeritrailError.catching {
            try store.write { appender in
                try events.map { event in try appender.appendReported(event) }
            }
        }
    }

    /// Appends one event given as an interchange JSON line (events.md §1), as `append(_:)` does.
    @discardableResult
    public func append(ndjsonLine line: String) throws(VeritrailError) -> AppendedEvent {
        let event = try Array(line.utf8).withUnsafeBytes { bytes in
            Result { () throws(VeritrailError) in try decodeLine(bytes, number: nil, scanner: JSONScanner()) }
        }.get()
        guard let appended = try append([event]).first else { throw .storeFailure(underlying: StoreError("nothing was appended")) }
        return appended
    }
}

/// `create` found a store in the directory already.
public struct StoreExists: Error, CustomStringConvertible {
    /// The directory that holds a store.
    public var directory: String
    /// Says where.
    public var description: String { "a store already exists at \(directory)" }
}
