internal import CLMDB
internal import CLMDBGuard
internal import SystemCalls

/// What a fault while reading a store's map does, instead of a crash.
///
/// LMDB trusts the pages it maps: a damaged file can make it follow a page number out of the map
/// (SIGSEGV), and a file on a failing disk, or one another program cut shorter while it was open, faults on a
/// page (SIGBUS). Neither can be turned into an error code where it happens.
///
/// - A SIGBUS inside the map of an open environment is mended: the page is replaced by zeros of the process's
///   own (`MemoryMap.replaceWithZeros`), the access goes on, and the environment is marked. The transaction it
///   happened in then fails with `MapPageLost` (nothing it made is kept or committed), and so does every later
///   one of that environment: its map no longer shows the file. A server so answers every request that needs
///   the store with an error, and goes on; it needs a restart once the file is mended. Each environment takes
///   one of `slots` places where the signal handler finds its map (`watch`), lock-free. The zeros may fail one of
///   LMDB's own checks of a page, which would abort: the call LMDB was in returns an error instead (`lmdbAssertion`).
/// - Any other fault ends a process that opted in (`install`) with a message and a documented exit code, once
///   an environment is open; otherwise it ends the process as it would have.
///   LMDB's own assertions (which would abort) are routed here too.
public enum MapFaults {
    /// The message written on a fault, prepared when an environment opens: a signal handler may not
    /// allocate. One buffer for the whole process.
    nonisolated(unsafe) private static var message = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var messageLength = 0
    nonisolated(unsafe) private static var exitCode: Int32 = 74
    nonisolated(unsafe) private static var prefix = ""
    private static let capacity = 4096

    /// How many environments of one process can have their faults mended at once; one past that faults as
    /// an environment did before (a process opens one or two stores).
    static let slots = 16
    /// Each slot's map: its first byte, the byte past its last, its page size, and 1 once a page was mended.
    /// Written by `watch` (the map's place) and by the handler (the mark); read by the handler without a lock:
    /// each is one aligned word. A free slot has an empty map.
    nonisolated(unsafe) private static let maps: UnsafeMutablePointer<UInt> = {
        let words = UnsafeMutablePointer<UInt>.allocate(capacity: 4 * slots)
        words.initialize(repeating: 0, count: 4 * slots)
        return words
    }()
    /// Which slots are taken, under `slotsLock`.
    nonisolated(unsafe) private static var taken = [Bool](repeating: false, count: slots)
    private static let slotsLock = ConditionLock()

    /// Has SIGSEGV and SIGBUS end the process with `exitCode` and a line on stderr that begins with
    /// `prefix` and names the store last opened, unless the fault is one `MapFaults` mends. Signals before any
    /// store was opened are left to do what they would have done. Call once, at the start of the process: the
    /// `veritrail` executable does, for every command, `serve` included.
    ///
    /// The corresponding C function is `sigaction` (`Signals.handleFaults`).
    public static func install(prefix: String, exitCode: Int32) {
        self.prefix = prefix
        self.exitCode = exitCode
        _ = handlingFaults
    }

    /// This process's faults come to `fault` once this is read (`install`, `claimSlot`).
    private static let handlingFaults: Void = {
        // Made before the handler may run: a handler may not allocate.
        _ = maps
        Signals.handleFaults([.segmentationFault, .busError]) { signal, info, _ in
            MapFaults.fault(Signal(rawValue: signal), at: Signals.faultAddress(info))
        }
    }()

    /// Takes a slot for an environment's map, and has faults come here; nil when every slot is taken.
    static func claimSlot() -> Int? {
        _ = handlingFaults
        slotsLock.lock()
        defer { slotsLock.unlock() }
        guard let slot = taken.firstIndex(of: false) else { return nil }
        taken[slot] = true
        return slot
    }

    /// Gives back `slot`: its environment's map is gone, and the place may hold another mapping.
    static func releaseSlot(_ slot: Int) {
        slotsLock.lock()
        defer { slotsLock.unlock() }
        // The end first: the handler never sees a range that runs from the old start to a new end.
        maps[4 * slot + 1] = 0
        maps[4 * slot] = 0
        maps[4 * slot + 3] = 0
        taken[slot] = false
    }

    /// Records where the map of `slot` lies, while a transaction keeps it there. Nothing when it is known.
    static func watch(_ slot: Int, start: UInt, end: UInt, pageSize: Int) {
        let words = maps + 4 * slot
        guard words[0] != start || words[1] != end else { return }
        words[1] = 0
        words[2] = UInt(pageSize)
        words[0] = start
        words[1] = end
    }

    /// Whether a page of the map of `slot` was mended: what the environment's transactions saw since is not
    /// the file's.
    static func lostPage(_ slot: Int) -> Bool { maps[4 * slot + 3] != 0 }

    /// Notes the environment just opened at `path`, whose name a fault message gives.
    static func opened(_ path: String) {
        guard !prefix.isEmpty else { return }
        let text = "\(prefix)the store at \(path) could not be read or written: its file is damaged or its disk failed or is full; "
            + "nothing more was done (check it with `veritrail log verify`)\n"
        let bytes = Array(text.utf8.prefix(capacity))
        for (i, byte) in bytes.enumerated() { message[i] = byte }
        messageLength = bytes.count
    }

    /// The signal handler: mends a SIGBUS inside a watched map, or writes the prepared message and exits, or,
    /// before any store was opened or in a process that did not `install`, lets the signal do what it would
    /// have done. Async-signal-safe: it allocates nothing, takes no lock, and its calls are `Signals`' and
    /// `MemoryMap`'s inlined `mmap`, `signal`, `raise`, `write` and `_exit`.
    private static func fault(_ signal: Signal, at address: UInt) {
        if signal == .busError {
            for slot in 0..<slots {
                let words = maps + 4 * slot
                let start = words[0], end = words[1], pageSize = words[2]
                guard start <= address, address < end, pageSize > 0 else { continue }
                if MemoryMap.replaceWithZeros(address & ~(pageSize - 1), count: Int(pageSize)) {
                    words[3] = 1
                    return
                }
            }
        }
        guard messageLength > 0 else {
            // The access faults again, and the signal's default ends the process (with a core, as it would have).
            Signals.restoreDefault(signal)
            if signal == .abort { Signals.raise(signal) }
            return
        }
        Signals.writeOnce(.standardError, message, count: messageLength)
        Signals.exitImmediately(exitCode)
    }

    /// Whether a page of any watched map was mended.
    private static var anyPageLost: Bool { (0..<slots).contains { maps[4 * $0 + 3] != 0 } }

    /// LMDB's assertion handler (`mdb_env_set_assert`): a failed internal check means a damaged file. Once a
    /// page was mended, the zeros put there may be what failed it: LMDB's call returns `MDB_CORRUPTED` instead
    /// (`vt_guard_escape`, CLMDBGuard), whose transaction is then refused as `MapPageLost`. Otherwise, and for
    /// a call the shim does not guard, as any other fault.
    static let lmdbAssertion: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void = { _, _ in
        if MapFaults.anyPageLost { vt_guard_escape() }
        MapFaults.fault(.abort, at: 0)
    }
}
