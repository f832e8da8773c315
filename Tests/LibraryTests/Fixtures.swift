import Foundation
import Synchronization
import VeritrailKit

/// A directory of its own for one test, removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("veritrail-library-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A clock the test moves by hand, so that no assertion depends on how fast the machine runs.
final class TestClock: Sendable {
    private let micros: Mutex<Int64>

    init(_ start: String) {
        micros = Mutex(Timestamp(start)?.microseconds ?? 0)
    }

    var now: Timestamp { micros.withLock { Timestamp(microseconds: $0) } }

    func advance(seconds: Int64) { micros.withLock { $0 += seconds * 1_000_000 } }
}

extension VeritrailStore {
    /// A new store in `directory` whose first admin is `admin` (passcode 2468), on the test's `clock`.
    static func withAdmin(in directory: TemporaryDirectory, clock: TestClock, origin: String? = nil) throws -> VeritrailStore {
        try VeritrailStore.create(at: directory.path + "/store", admin: "admin", name: "Ada Admin", email: "admin@example.org",
                                  passcode: "2468", origin: origin, clock: { clock.now })
    }

    /// Registers the inspector `ines` as the admin and sets her passcode, 1357 (four events: the admin's
    /// granted attempt, the registration, and hers); with `unlocked`, she enters it too.
    func addInspector(unlocked: Bool = false) throws {
        try register(NewAccount(username: "ines", name: "Inès Duval", email: "ines@example.org", role: .inspector),
                     as: "admin", passcode: { _ in "2468" })
        try setPasscode(to: "1357", as: "ines")
        if unlocked { try unlock("ines", passcode: "1357") }
    }
}
