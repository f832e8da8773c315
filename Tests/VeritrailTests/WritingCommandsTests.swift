import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

// End-to-end tests of the commands that write (cli.md §3–§6), through the real `veritrail` binary on real
// stores in temporary directories. Every refusal is checked for its exit code, its message and that it
// wrote nothing (`log status --json` unchanged), except the passcode attempt the spec says is recorded.

// MARK: - The helper (private to these tests; named so it does not clash with other helpers)

/// One run of the binary.
struct WritingCLIRun {
    var exit: Int32
    var out: String
    var err: String
    var outData: Data

    var transcript: String { "exit \(exit)\n--- stdout ---\n\(out)\n--- stderr ---\n\(err)" }
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: outData)) as? [String: Any] }
}

/// A store in a temporary directory and the runs made against it.
final class WritingCLI {
    /// The admin, inspector and customer of the template store, with their passcodes.
    static let admin = "ada", adminCode = "2468"
    static let inspector = "ines", inspectorCode = "1357"
    static let customer = "carl", customerCode = "1122"

    /// 2026-11-20T09:00:00Z: every event of the template is stamped with it.
    static let t0: TimeInterval = 1_795_165_200

    /// `t0 + seconds` in the form the log keeps.
    static func at(_ seconds: Int) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: t0 + TimeInterval(seconds)))
    }

    let root: URL
    var store: String { root.appendingPathComponent("store").path }
    /// Every stdout and stderr this helper captured (the secrecy test reads it).
    private(set) var captured: [String] = []

    init(root: URL) { self.root = root }

    // MARK: Locating the binary

    static let binary: URL? = {
        let fm = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["VERITRAIL_TEST_BINARY"], fm.isExecutableFile(atPath: explicit) {
            return URL(fileURLWithPath: explicit)
        }
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        folders.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        if let arg0 = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: arg0).deletingLastPathComponent()) }
        for folder in folders {
            var dir = folder
            for _ in 0..<4 {
                let candidate = dir.appendingPathComponent("veritrail")
                var isDirectory: ObjCBool = false
                if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   fm.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }()

    static func requireBinary(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard let binary else {
            XCTFail("the veritrail executable is not next to the test bundle: run `swift build` with the same --scratch-path first",
                    file: file, line: line)
            throw XCTSkip("no veritrail binary")
        }
        return binary
    }

    // MARK: Running

    /// Runs `veritrail args… --store STORE` with VERITRAIL_NOW = `now`, stdin = `stdin` (or /dev/null),
    /// in a session of its own (so no controlling terminal: /dev/tty can not be opened).
    @discardableResult
    func run(_ args: [String], stdin: String? = nil, now: String, store: Bool = true,
             environment: [String: String] = [:]) throws -> WritingCLIRun {
        let binary = try WritingCLI.requireBinary()
        let process = Process()
        var arguments = args
        if store { arguments += ["--store", self.store] }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = ["-w", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VERITRAIL_") }
        env["NO_COLOR"] = "1"
        env["VERITRAIL_NOW"] = now
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let tag = UUID().uuidString.lowercased()
        let outURL = root.appendingPathComponent("out-\(tag)"), errURL = root.appendingPathComponent("err-\(tag)")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        var inHandle: FileHandle?
        if let stdin {
            let inURL = root.appendingPathComponent("in-\(tag)")
            try Data(stdin.utf8).write(to: inURL)
            inHandle = try FileHandle(forReadingFrom: inURL)
            process.standardInput = inHandle
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try? outHandle.close(); try? errHandle.close(); try? inHandle?.close()
        let out = (try? Data(contentsOf: outURL)) ?? Data()
        let err = (try? Data(contentsOf: errURL)) ?? Data()
        for url in [outURL, errURL, root.appendingPathComponent("in-\(tag)")] { try? FileManager.default.removeItem(at: url) }
        let result = WritingCLIRun(exit: process.terminationStatus, out: String(decoding: out, as: UTF8.self),
                                   err: String(decoding: err, as: UTF8.self), outData: out)
        captured.append(result.out)
        captured.append(result.err)
        return result
    }

    /// Runs and fails the test unless it exits 0.
    @discardableResult
    func ok(_ args: [String], stdin: String? = nil, now: String, file: StaticString = #filePath, line: UInt = #line) throws -> WritingCLIRun {
        let r = try run(args, stdin: stdin, now: now)
        XCTAssertEqual(r.exit, 0, "veritrail \(args.joined(separator: " "))\n\(r.transcript)", file: file, line: line)
        return r
    }

    /// `log status --json`, raw (unchanged means byte-identical).
    func logStatus() throws -> String {
        try run(["log", "status", "--json"], now: WritingCLI.at(0)).out
    }

    /// How many events of `type` the log holds.
    func count(_ type: String) throws -> Int {
        let r = try run(["log", "status", "--json"], now: WritingCLI.at(0))
        return ((r.json?["byType"] as? [String: Any])?[type] as? Int) ?? 0
    }

    /// The last `n` events of the log, oldest first, in their out form.
    func tail(_ n: Int) throws -> [[String: Any]] {
        let r = try run(["log", "tail", "-n", "\(n)", "--json"], now: WritingCLI.at(0))
        return r.out.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// A query's JSON answer at `now`.
    func query(_ args: [String], now: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try run(args + ["--json"], now: now)
        XCTAssertEqual(r.exit, 0, "veritrail \(args.joined(separator: " "))\n\(r.transcript)", file: file, line: line)
        return r.json ?? [:]
    }

    /// Runs a command that must be refused with `code`, saying each of `mentions` (case-insensitively) on
    /// stderr and nothing on stdout, and writing nothing — or exactly `attempts` more `passcode.attempted`
    /// (and nothing else) when the spec says the attempt is recorded.
    @discardableResult
    func refused(_ args: [String], stdin: String? = nil, now: String, code: Int32, mentions: [String] = [],
                 attempts: Int = 0, file: StaticString = #filePath, line: UInt = #line) throws -> WritingCLIRun {
        let before = try run(["log", "status", "--json"], now: WritingCLI.at(0))
        let r = try run(args, stdin: stdin, now: now)
        let label = "veritrail \(args.joined(separator: " "))\n\(r.transcript)"
        XCTAssertEqual(r.exit, code, label, file: file, line: line)
        XCTAssertFalse(r.err.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "a refusal says why: \(label)", file: file, line: line)
        XCTAssertEqual(r.out, "", "a refusal prints nothing on stdout: \(label)", file: file, line: line)
        for m in mentions {
            XCTAssertTrue(r.err.lowercased().contains(m.lowercased()), "stderr should mention \"\(m)\": \(label)", file: file, line: line)
        }
        let after = try run(["log", "status", "--json"], now: WritingCLI.at(0))
        if attempts == 0 {
            XCTAssertEqual(before.out, after.out, "a refusal writes nothing: \(label)", file: file, line: line)
        } else {
            let b = before.json ?? [:], a = after.json ?? [:]
            XCTAssertEqual((a["events"] as? Int ?? -1) - (b["events"] as? Int ?? 0), attempts,
                           "only the passcode attempt is recorded: \(label)", file: file, line: line)
            var bt = b["byType"] as? [String: Int] ?? [:], at = a["byType"] as? [String: Int] ?? [:]
            XCTAssertEqual((at["passcode.attempted"] ?? 0) - (bt["passcode.attempted"] ?? 0), attempts,
                           "the recorded events are passcode attempts: \(label)", file: file, line: line)
            bt["passcode.attempted"] = nil; at["passcode.attempted"] = nil
            XCTAssertEqual(bt, at, "nothing but the attempt is written: \(label)", file: file, line: line)
        }
        return r
    }

    // MARK: The template store

    /// A store with admin `ada` (unlocked from t0 for 15 minutes), inspector `ines` and self-registered
    /// customer `carl` (both `required`), and scan `s-0001` by ada — all at t0. Built once per test class.
    static func buildTemplate(in root: URL) throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let cli = WritingCLI(root: root)
        let t = at(0)
        try cli.expectOK(["init", "--admin", admin, "--name", "Ada Admin", "--email", "ada@example.org", "--passcode-stdin"],
                         stdin: "\(adminCode)\n\(adminCode)\n", now: t)
        try cli.expectOK(["unlock", "--as", admin, "--passcode-stdin"], stdin: "\(adminCode)\n", now: t)
        try cli.expectOK(["register", inspector, "--role", "inspector", "--name", "Inès Duval", "--email", "ines@example.org",
                          "--as", admin], now: t)
        try cli.expectOK(["passcode", "set", inspector, "--as", admin, "--passcode-stdin"],
                         stdin: "\(inspectorCode)\n\(inspectorCode)\n", now: t)
        try cli.expectOK(["register", customer, "--name", "Carl Customer", "--email", "carl@example.org", "--street", "1 Main St",
                          "--city", "Gwenborough", "--zipcode", "12345", "--passcode-stdin"],
                         stdin: "\(customerCode)\n\(customerCode)\n", now: t)
        try cli.expectOK(["scan", "--as", admin, "--code", "C-0001", "--product", "Serum 30 ml", "--category", "Cosmetics",
                          "--result", "counterfeit", "--scan-id", "s-0001"], now: t)
    }

    /// Like `ok`, but throws instead of recording a failure (for building fixtures outside a test).
    func expectOK(_ args: [String], stdin: String? = nil, now: String) throws {
        let r = try run(args, stdin: stdin, now: now)
        guard r.exit == 0 else {
            throw NSError(domain: "WritingCLI", code: Int(r.exit),
                          userInfo: [NSLocalizedDescriptionKey: "fixture step failed: veritrail \(args.joined(separator: " "))\n\(r.transcript)"])
        }
    }

    /// A copy of the class's template store in a fresh directory, removed when the test ends.
    static func copy(of template: URL, for test: XCTestCase) throws -> WritingCLI {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("veritrail-wtests-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: template.appendingPathComponent("store"), to: root.appendingPathComponent("store"))
        return WritingCLI(root: root)
    }

    /// An empty directory for a new store, removed when the test ends.
    static func fresh(for test: XCTestCase) throws -> WritingCLI {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("veritrail-wtests-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        return WritingCLI(root: root)
    }

    /// Whether `secret` occurs in `text` as a token of its own (not inside a hex digest, a base64 string
    /// or a UUID, where four given digits turn up by chance).
    static func leaks(_ secret: String, in text: String) -> Bool { leaks(secret, in: Array(text.utf8)) }

    /// The same over raw bytes (a store's data file, which may be large and mostly zeros: memchr skips them).
    static func leaks(_ secret: String, in bytes: [UInt8]) -> Bool {
        let needle = Array(secret.utf8)
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        func isWordish(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2B || b == 0x2F || b == 0x3D || b == 0x2D
        }
        return bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            let n = buffer.count, m = needle.count
            var i = 0
            while i + m <= n {
                guard let hit = memchr(base + i, Int32(first), n - i) else { return false }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if at + m > n { return false }
                var j = 1
                while j < m && buffer[at + j] == needle[j] { j += 1 }
                if j == m && !(at > 0 && isWordish(buffer[at - 1])) && !(at + m < n && isWordish(buffer[at + m])) { return true }
                i = at + 1
            }
            return false
        }
    }
}

// MARK: - The tests

final class WritingCommandsTests: XCTestCase {
    nonisolated(unsafe) private static var templateRoot: URL?
    nonisolated(unsafe) private static var templateError: String?

    override class func tearDown() {
        if let root = templateRoot { try? FileManager.default.removeItem(at: root) }
        templateRoot = nil
        super.tearDown()
    }

    /// A copy of the template store for this test.
    private func store() throws -> WritingCLI {
        _ = try WritingCLI.requireBinary()
        if WritingCommandsTests.templateRoot == nil && WritingCommandsTests.templateError == nil {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("veritrail-wtemplate-\(UUID().uuidString.lowercased())")
            do {
                try WritingCLI.buildTemplate(in: root)
                WritingCommandsTests.templateRoot = root
            } catch {
                WritingCommandsTests.templateError = "\(error)"
                try? FileManager.default.removeItem(at: root)
            }
        }
        if let message = WritingCommandsTests.templateError {
            XCTFail("the template store could not be built: \(message)")
            throw XCTSkip("no template")
        }
        return try WritingCLI.copy(of: WritingCommandsTests.templateRoot!, for: self)
    }

    private typealias W = WritingCLI
    /// ada is unlocked from t0 until t0+900; "soon" is inside that window, "later" after it.
    private let soon = W.at(60), later = W.at(1_000)

    private func lastEvent(_ cli: WritingCLI) throws -> [String: Any] { try cli.tail(1).last ?? [:] }
    private func data(_ e: [String: Any]) -> [String: Any] { e["data"] as? [String: Any] ?? [:] }

    // MARK: register

    func testAdminRegistersAnInspectorAskingThePasscodeOnlyWhenNotUnlocked() throws {
        let cli = try store()
        // While ada is unlocked, no passcode is asked (nothing on stdin, no --passcode-stdin).
        try cli.ok(["register", "ivan", "--role", "inspector", "--name", "Ivan", "--email", "ivan@example.org", "--as", "ada"], now: soon)
        let ivan = try lastEvent(cli)
        XCTAssertEqual(ivan["type"] as? String, "account.registered")
        XCTAssertEqual(ivan["actor"] as? String, "ada")
        XCTAssertEqual(data(ivan)["role"] as? String, "inspector")
        XCTAssertEqual(ivan["at"] as? String, soon, "VERITRAIL_NOW stamps the event")

        // After the 15 minutes, the admin's passcode is asked first: one granted attempt, then the registration.
        let attempts = try cli.count("passcode.attempted")
        try cli.ok(["register", "iris", "--role", "inspector", "--name", "Iris", "--email", "iris@example.org", "--as", "ada",
                    "--passcode-stdin"], stdin: "2468\n", now: later)
        XCTAssertEqual(try cli.count("passcode.attempted"), attempts + 1)
        let two = try cli.tail(2)
        XCTAssertEqual(two.first?["type"] as? String, "passcode.attempted")
        XCTAssertEqual(two.first.map(data)?["outcome"] as? String, "granted")
        XCTAssertEqual(two.first.map(data)?["username"] as? String, "ada")
        XCTAssertEqual(two.last?["type"] as? String, "account.registered")
        XCTAssertEqual(two.last.map(data)?["username"] as? String, "iris")

        // A wrong admin passcode: 77, the denied attempt is recorded, the account is not.
        try cli.refused(["register", "ivo", "--role", "inspector", "--name", "Ivo", "--email", "ivo@example.org", "--as", "ada",
                         "--passcode-stdin"], stdin: "0000\n", now: W.at(2_000), code: 77, mentions: ["wrong passcode"], attempts: 1)
        XCTAssertEqual(data(try lastEvent(cli))["outcome"] as? String, "denied")
    }

    func testACustomerRegistersThemselvesWithAnAddressAndAPasscode() throws {
        let cli = try store()
        let r = try cli.ok(["register", "dora", "--name", "Dora Diaz", "--email", "dora@example.org", "--street", "2 Elm St",
                            "--city", "Gwenborough", "--zipcode", "92998", "--passcode-stdin"], stdin: "4321\n4321\n", now: soon)
        let two = try cli.tail(2)
        XCTAssertEqual(two.map { $0["type"] as? String }, ["account.registered", "passcode.set"])
        XCTAssertEqual(two.map { $0["actor"] as? String }, ["dora", "dora"], "both events are by the new user")
        XCTAssertEqual(two.map { data($0)["username"] as? String }, ["dora", "dora"])
        XCTAssertEqual(data(two[0])["role"] as? String, "customer")
        // Gwenborough is not a real city: a note says so and no geo is kept.
        XCTAssertTrue(r.err.contains("Gwenborough") && r.err.lowercased().contains("could not place"), r.transcript)
        XCTAssertNil(data(two[0])["geo"])
        let shown = try cli.query(["customer", "show", "dora"], now: soon)
        XCTAssertNil(shown["geo"], "an address the gazetteer can not place is kept without geo")
        XCTAssertEqual(shown["status"] as? String, "AWAITED")
        XCTAssertEqual((shown["address"] as? [String: Any])?["city"] as? String, "Gwenborough")
        let lockout = try cli.query(["lockout", "dora"], now: soon)
        XCTAssertEqual(lockout["state"] as? String, "required", "the new customer has a passcode")
        // The passcode works.
        try cli.ok(["unlock", "--as", "dora", "--passcode-stdin"], stdin: "4321\n", now: W.at(61))
        // Registering yourself without a way to read the new passcode is refused before anything is written.
        try cli.refused(["register", "edna", "--name", "Edna", "--email", "edna@example.org", "--street", "2 Elm St",
                         "--city", "Lyon", "--zipcode", "69001"], now: W.at(62), code: 64, mentions: ["--passcode-stdin"])
    }

    func testGeocodingPlacesParis() throws {
        let cli = try store()
        let r = try cli.ok(["register", "pierre", "--name", "Pierre", "--email", "pierre@example.org", "--street", "1 Rue de Rivoli",
                            "--city", "Paris", "--zipcode", "75001", "--passcode-stdin"], stdin: "4321\n4321\n", now: soon)
        let shown = try cli.query(["customer", "show", "pierre"], now: soon)
        guard let geo = shown["geo"] as? [String: Any] else {
            if r.err.lowercased().contains("could not place") {
                throw XCTSkip("KNOWN GAP: the gazetteer did not place Paris (\(r.err.trimmingCharacters(in: .whitespacesAndNewlines)))")
            }
            return XCTFail("no geo for Paris and no note saying so\n\(r.transcript)")
        }
        func number(_ v: Any?) -> Double { (v as? Double) ?? (v as? Int).map(Double.init) ?? .nan }
        let lat = number(geo["lat"]), lng = number(geo["lng"])
        XCTAssertEqual(lat, 48.85, accuracy: 0.1, "\(geo)")
        XCTAssertEqual(lng, 2.35, accuracy: 0.1, "\(geo)")
        XCTAssertFalse(r.err.lowercased().contains("could not place"), r.transcript)
        // Changing the address to Paris geocodes it too (account update).
        try cli.ok(["account", "update", "carl", "--street", "5 Quai d'Orsay", "--city", "Paris", "--zipcode", "75007", "--as", "ada"],
                   now: soon)
        let carl = try cli.query(["customer", "show", "carl"], now: soon)
        let carlGeo = carl["geo"] as? [String: Any] ?? [:]
        XCTAssertEqual(number(carlGeo["lat"]), 48.85, accuracy: 0.1, "\(carl)")
        XCTAssertEqual(number(carlGeo["lng"]), 2.35, accuracy: 0.1, "\(carl)")
    }

    func testRegisteringYourselfAsAnInspectorIsNotAllowed() throws {
        let cli = try store()
        try cli.refused(["register", "eve", "--role", "inspector", "--name", "Eve", "--email", "eve@example.org", "--passcode-stdin"],
                        stdin: "4321\n4321\n", now: soon, code: 77, mentions: ["customer"])
        // As an admin role too.
        try cli.refused(["register", "eve", "--role", "admin", "--name", "Eve", "--email", "eve@example.org", "--as", "eve",
                         "--passcode-stdin"], stdin: "4321\n4321\n", now: soon, code: 77, mentions: ["customer"])
    }

    func testANonAdminCanNotRegisterSomeoneElse() throws {
        let cli = try store()
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.refused(["register", "frank", "--name", "Frank", "--email", "frank@example.org", "--street", "3 Oak St", "--city", "Lyon",
                         "--zipcode", "69001", "--as", "ines"], now: soon, code: 77, mentions: ["admin"])
        try cli.refused(["register", "frank", "--role", "inspector", "--name", "Frank", "--email", "frank@example.org", "--as", "carl",
                         "--passcode-stdin"], stdin: "1122\n", now: soon, code: 77, mentions: ["admin"])
    }

    func testADuplicateEmailIsRefusedWhateverItsCase() throws {
        let cli = try store()
        try cli.refused(["register", "ivan", "--role", "inspector", "--name", "Ivan", "--email", "INES@Example.ORG", "--as", "ada"],
                        now: soon, code: 65, mentions: ["e-mail", "ines"])
        // Self-registration: refused before any passcode is read.
        try cli.refused(["register", "dora", "--name", "Dora", "--email", "Carl@example.org", "--street", "2 Elm St", "--city", "Lyon",
                         "--zipcode", "69001", "--passcode-stdin"], stdin: "4321\n4321\n", now: soon, code: 65, mentions: ["e-mail"])
        // A username that is taken.
        try cli.refused(["register", "carl", "--name", "Carl Two", "--email", "carl2@example.org", "--street", "2 Elm St", "--city", "Lyon",
                         "--zipcode", "69001", "--passcode-stdin"], stdin: "4321\n4321\n", now: soon, code: 65, mentions: ["carl"])
    }

    func testACustomerNeedsAnAddress() throws {
        let cli = try store()
        let selfReg = try cli.run(["register", "gina", "--name", "Gina", "--email", "gina@example.org", "--passcode-stdin"],
                                  stdin: "4321\n4321\n", now: soon)
        XCTAssertTrue([64, 65].contains(selfReg.exit), selfReg.transcript)
        XCTAssertTrue(selfReg.err.lowercased().contains("address"), selfReg.transcript)
        XCTAssertEqual(try cli.count("account.registered"), 3)
        XCTAssertEqual(try cli.count("passcode.set"), 3)
        let byAdmin = try cli.refused(["register", "gina", "--name", "Gina", "--email", "gina@example.org", "--as", "ada"],
                                      now: soon, code: selfReg.exit, mentions: ["address"])
        XCTAssertTrue([64, 65].contains(byAdmin.exit))
        // Half an address is a usage error.
        try cli.refused(["register", "gina", "--name", "Gina", "--email", "gina@example.org", "--city", "Lyon", "--as", "ada"],
                        now: soon, code: 64, mentions: ["--street"])
    }

    // MARK: account update / delete

    func testAccountUpdateByItselfOrAnAdminOnly() throws {
        let cli = try store()
        // carl updates himself; he is not unlocked, so his passcode is asked (one granted attempt).
        let attempts = try cli.count("passcode.attempted")
        try cli.ok(["account", "update", "carl", "--phone", "+33 4 00 00 00 00", "--as", "carl", "--passcode-stdin"], stdin: "1122\n", now: soon)
        XCTAssertEqual(try cli.count("passcode.attempted"), attempts + 1)
        let updated = try lastEvent(cli)
        XCTAssertEqual(updated["type"] as? String, "account.updated")
        XCTAssertEqual(updated["actor"] as? String, "carl")
        XCTAssertEqual(try cli.query(["customer", "show", "carl"], now: soon)["phone"] as? String, "+33 4 00 00 00 00")
        // The admin updates carl (ada is unlocked).
        try cli.ok(["account", "update", "carl", "--name", "Carl Carlsson", "--as", "ada"], now: soon)
        XCTAssertEqual(try cli.query(["customer", "show", "carl"], now: soon)["name"] as? String, "Carl Carlsson")
        // Another non-admin may not.
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.refused(["account", "update", "carl", "--phone", "000", "--as", "ines"], now: soon, code: 77, mentions: ["admin"])
        // The e-mail can not be changed: there is no such option.
        try cli.refused(["account", "update", "carl", "--email", "new@example.org", "--as", "ada"], now: soon, code: 64, mentions: ["email"])
        // An unknown account.
        try cli.refused(["account", "update", "nobody", "--phone", "000", "--as", "ada"], now: soon, code: 65, mentions: ["nobody"])
    }

    func testAnAdminDeletesAnAccountWhichCanNoLongerAct() throws {
        let cli = try store()
        try cli.ok(["account", "delete", "ines", "--reason", "not a real inspector", "--yes", "--as", "ada"], now: soon)
        let deleted = try lastEvent(cli)
        XCTAssertEqual(deleted["type"] as? String, "account.deleted")
        XCTAssertEqual(data(deleted)["reason"] as? String, "not a real inspector")
        let accounts = try cli.query(["accounts"], now: soon)["accounts"] as? [[String: Any]] ?? []
        XCTAssertEqual(accounts.first { $0["username"] as? String == "ines" }?["deleted"] as? Bool, true)
        // The deleted account can no longer act: an unknown or deleted user is refused input (cli.md §6: 65).
        try cli.refused(["scan", "--code", "X", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines",
                         "--passcode-stdin"], stdin: "1357\n", now: soon, code: 65, mentions: ["ines"])
        try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon, code: 65, mentions: ["ines"])
        // Nor can a user who never existed.
        try cli.refused(["scan", "--code", "X", "--product", "P", "--category", "C", "--result", "authentic", "--as", "nobody",
                         "--passcode-stdin"], stdin: "1357\n", now: soon, code: 65, mentions: ["nobody"])
        // Deleting it again.
        try cli.refused(["account", "delete", "ines", "--yes", "--as", "ada"], now: soon, code: 65, mentions: ["deleted"])
    }

    func testADeletedCustomerLeavesTheCustomerList() throws {
        let cli = try store()
        let before = try cli.query(["customers"], now: soon)["customers"] as? [[String: Any]] ?? []
        XCTAssertEqual(before.map { $0["username"] as? String }, ["carl"])
        try cli.ok(["account", "delete", "carl", "--yes", "--as", "ada"], now: soon)
        let after = try cli.query(["customers"], now: soon)
        XCTAssertEqual((after["customers"] as? [Any])?.count, 0)
        XCTAssertEqual((after["counts"] as? [String: Int])?["AWAITED"], 0)
        let show = try cli.run(["customer", "show", "carl", "--json"], now: soon)
        XCTAssertEqual(show.exit, 65, show.transcript)
    }

    func testAccountDeleteRefusals() throws {
        let cli = try store()
        // The last admin.
        try cli.refused(["account", "delete", "ada", "--yes", "--as", "ada"], now: soon, code: 65, mentions: ["last admin"])
        // A non-admin (ines is unlocked, so the only reason is her role).
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.refused(["account", "delete", "carl", "--yes", "--as", "ines"], now: soon, code: 77, mentions: ["admin"])
        // Without --yes and without a terminal to confirm on.
        try cli.refused(["account", "delete", "carl", "--as", "ada"], now: soon, code: 64, mentions: ["--yes"])
        // Without --as.
        try cli.refused(["account", "delete", "carl", "--yes"], now: soon, code: 64, mentions: ["--as"])
    }

    // MARK: passcode set

    func testSettingAFirstPasscodeAsksNoCurrentOne() throws {
        let cli = try store()
        try cli.ok(["register", "ivan", "--role", "inspector", "--name", "Ivan", "--email", "ivan@example.org", "--as", "ada"], now: soon)
        // Without a passcode ivan can not act, and is told how to set one.
        try cli.refused(["scan", "--code", "X", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ivan",
                         "--passcode-stdin"], stdin: "5555\n", now: soon, code: 77, mentions: ["passcode set"])
        let attempts = try cli.count("passcode.attempted")
        try cli.ok(["passcode", "set", "--as", "ivan", "--passcode-stdin"], stdin: "5555\n5555\n", now: soon)
        XCTAssertEqual(try cli.count("passcode.attempted"), attempts, "no current passcode is asked")
        let set = try lastEvent(cli)
        XCTAssertEqual(set["type"] as? String, "passcode.set")
        XCTAssertEqual(set["actor"] as? String, "ivan")
        XCTAssertEqual(data(set)["username"] as? String, "ivan")
        XCTAssertEqual(try cli.query(["lockout", "ivan"], now: soon)["state"] as? String, "required")
        try cli.ok(["unlock", "--as", "ivan", "--passcode-stdin"], stdin: "5555\n", now: W.at(61))
    }

    func testChangingYourOwnPasscodeAsksTheCurrentOneFirst() throws {
        let cli = try store()
        let attempts = try cli.count("passcode.attempted")
        try cli.ok(["passcode", "set", "--as", "ines", "--passcode-stdin"], stdin: "1357\n9999\n9999\n", now: soon)
        XCTAssertEqual(try cli.count("passcode.attempted"), attempts + 1)
        let two = try cli.tail(2)
        XCTAssertEqual(two.map { $0["type"] as? String }, ["passcode.attempted", "passcode.set"])
        XCTAssertEqual(data(two[0])["outcome"] as? String, "granted")
        XCTAssertEqual(two[1]["actor"] as? String, "ines")
        // The new one works, the old one does not.
        try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: W.at(61), code: 77,
                        mentions: ["wrong passcode"], attempts: 1)
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "9999\n", now: W.at(62))
    }

    func testAWrongCurrentPasscodeChangesNothingButIsRecorded() throws {
        let cli = try store()
        try cli.refused(["passcode", "set", "--as", "ines", "--passcode-stdin"], stdin: "0000\n9999\n9999\n", now: soon, code: 77,
                        mentions: ["wrong passcode"], attempts: 1)
        let attempt = try lastEvent(cli)
        XCTAssertEqual(data(attempt)["outcome"] as? String, "denied")
        XCTAssertEqual(data(attempt)["username"] as? String, "ines")
        XCTAssertEqual(try cli.query(["lockout", "ines"], now: soon)["failures"] as? Int, 1)
        // The passcode is unchanged.
        try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "9999\n", now: W.at(61), code: 77, attempts: 1)
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: W.at(62))
    }

    func testAnAdminResetsAnotherAccountsPasscode() throws {
        let cli = try store()
        try cli.ok(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "8642\n8642\n", now: soon)
        let set = try lastEvent(cli)
        XCTAssertEqual(set["type"] as? String, "passcode.set")
        XCTAssertEqual(set["actor"] as? String, "ada")
        XCTAssertEqual(data(set)["username"] as? String, "ines")
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "8642\n", now: W.at(61))
        // A non-admin can not reset another's.
        try cli.refused(["passcode", "set", "carl", "--as", "ines", "--passcode-stdin"], stdin: "4444\n4444\n", now: W.at(61),
                        code: 77, mentions: ["admin"])
    }

    func testANewPasscodeMustBeRepeatedAndBeFourToEightDigits() throws {
        let cli = try store()
        try cli.refused(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "8642\n8643\n", now: soon, code: 65,
                        mentions: ["differ"])
        for bad in ["123", "123456789", "abcd", "12a4", ""] {
            try cli.refused(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "\(bad)\n\(bad)\n", now: soon,
                            code: 65, mentions: ["4–8 digits"])
        }
        // Only one line: the repeat is missing.
        try cli.refused(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "8642\n", now: soon, code: 65)
        // The old passcode still works.
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: W.at(61))
    }

    func testAPasscodeIsNeverTakenFromTheCommandLine() throws {
        let cli = try store()
        // `passcode set 1234` names a user 1234, which does not exist.
        try cli.refused(["passcode", "set", "1234", "--as", "ada", "--passcode-stdin"], stdin: "8642\n8642\n", now: soon, code: 65,
                        mentions: ["1234"])
        try cli.refused(["unlock", "1357", "--as", "ines"], now: soon, code: 64)
        try cli.refused(["unlock", "--passcode", "1357", "--as", "ines"], now: soon, code: 64)
    }

    // MARK: unlock and the lockout

    func testUnlockOpensAccessForFifteenMinutes() throws {
        let cli = try store()
        let t1 = 100
        let r = try cli.ok(["unlock", "--as", "ines", "--passcode-stdin", "--json"], stdin: "1357\n", now: W.at(t1))
        XCTAssertEqual(r.json?["state"] as? String, "unlocked")
        let attempt = try lastEvent(cli)
        XCTAssertEqual(attempt["type"] as? String, "passcode.attempted")
        XCTAssertEqual(attempt["actor"] as? String, "ines")
        XCTAssertEqual(data(attempt)["outcome"] as? String, "granted")
        let lockout = try cli.query(["lockout", "ines"], now: W.at(t1))
        XCTAssertEqual(lockout["state"] as? String, "unlocked")
        XCTAssertEqual(lockout["unlockedUntil"] as? String, W.at(t1 + 900))
        // Inside the 15 minutes, a writing command needs no passcode.
        let attempts = try cli.count("passcode.attempted")
        try cli.ok(["scan", "--code", "C-2", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines"], now: W.at(t1 + 899))
        XCTAssertEqual(try cli.count("passcode.attempted"), attempts)
        // 15 minutes later it asks again: refused without a way to read it, granted with it.
        try cli.refused(["scan", "--code", "C-3", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines"],
                        now: W.at(t1 + 900), code: 77, mentions: ["unlock", "--passcode-stdin"])
        XCTAssertEqual(try cli.query(["lockout", "ines"], now: W.at(t1 + 900))["state"] as? String, "required")
        try cli.ok(["scan", "--code", "C-3", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines",
                    "--passcode-stdin"], stdin: "1357\n", now: W.at(t1 + 900))
        XCTAssertEqual(try cli.count("passcode.attempted"), attempts + 1)
    }

    func testThreeWrongPasscodesLockForAMinute() throws {
        let cli = try store()
        let t1 = 100
        let first = try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "0000\n", now: W.at(t1), code: 77,
                                    mentions: ["wrong passcode", "2 attempts"], attempts: 1)
        XCTAssertFalse(first.err.contains("0000"), "the passcode is never printed")
        XCTAssertEqual(data(try lastEvent(cli))["outcome"] as? String, "denied")
        try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "0001\n", now: W.at(t1), code: 77,
                        mentions: ["1 attempt"], attempts: 1)
        try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "0002\n", now: W.at(t1), code: 77,
                        mentions: ["locked out", "60 s"], attempts: 1)
        var lockout = try cli.query(["lockout", "ines"], now: W.at(t1))
        XCTAssertEqual(lockout["state"] as? String, "locked")
        XCTAssertEqual(lockout["lockedUntil"] as? String, W.at(t1 + 60))
        XCTAssertEqual(lockout["failures"] as? Int, 3)

        // While locked, unlock records a `locked` attempt without checking, and says how long is left.
        try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: W.at(t1 + 18), code: 77,
                        mentions: ["locked", "42 s"], attempts: 1)
        XCTAssertEqual(data(try lastEvent(cli))["outcome"] as? String, "locked")
        // Any other writing command refuses at once, recording nothing.
        try cli.refused(["scan", "--code", "C-2", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines",
                         "--passcode-stdin"], stdin: "1357\n", now: W.at(t1 + 30), code: 77, mentions: ["locked", "30 s"])
        lockout = try cli.query(["lockout", "ines"], now: W.at(t1 + 30))
        XCTAssertEqual(lockout["remainingSeconds"] as? Int, 30)
        XCTAssertEqual((lockout["totals"] as? [String: Int])?["locked"], 1)

        // Exactly at lockedUntil the lock has run out: the right passcode is granted.
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: W.at(t1 + 60))
        XCTAssertEqual(data(try lastEvent(cli))["outcome"] as? String, "granted")
        lockout = try cli.query(["lockout", "ines"], now: W.at(t1 + 60))
        XCTAssertEqual(lockout["state"] as? String, "unlocked")
        XCTAssertEqual(lockout["failures"] as? Int, 0)
    }

    func testAnAdminResetClearsALockout() throws {
        let cli = try store()
        for wrong in ["0000", "0001", "0002"] {
            try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "\(wrong)\n", now: W.at(100), code: 77, attempts: 1)
        }
        XCTAssertEqual(try cli.query(["lockout", "ines"], now: W.at(101))["state"] as? String, "locked")
        // Changing one's own passcode while locked out: the attempt is recorded as `locked`, nothing else.
        try cli.refused(["passcode", "set", "--as", "ines", "--passcode-stdin"], stdin: "1357\n4444\n4444\n", now: W.at(101), code: 77,
                        mentions: ["locked"], attempts: 1)
        XCTAssertEqual(data(try lastEvent(cli))["outcome"] as? String, "locked")
        // An admin's reset clears the lockout at once.
        try cli.ok(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "4444\n4444\n", now: W.at(102))
        let lockout = try cli.query(["lockout", "ines"], now: W.at(102))
        XCTAssertEqual(lockout["state"] as? String, "required")
        XCTAssertEqual(lockout["failures"] as? Int, 0)
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "4444\n", now: W.at(103))
    }

    func testNotUnlockedAndNoWayToReadAPasscode() throws {
        let cli = try store()
        // stdin is /dev/null, there is no terminal and no --passcode-stdin.
        try cli.refused(["scan", "--code", "C-2", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines"],
                        now: soon, code: 77, mentions: ["unlock", "--passcode-stdin"])
        try cli.refused(["settings", "set", "--flash", "on", "--as", "carl"], now: soon, code: 77, mentions: ["unlock", "--passcode-stdin"])
        try cli.refused(["register", "ivan", "--role", "inspector", "--name", "Ivan", "--email", "ivan@example.org", "--as", "ada"],
                        now: later, code: 77, mentions: ["unlock", "--passcode-stdin"])
        // With --passcode-stdin but an empty stdin: no passcode given.
        try cli.refused(["scan", "--code", "C-2", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines",
                         "--passcode-stdin"], stdin: "", now: soon, code: 77)
    }

    // MARK: scan

    private func scanArgs(_ code: String, _ extra: [String] = []) -> [String] {
        ["scan", "--code", code, "--product", "Serum 30 ml", "--category", "Cosmetics", "--result", "authentic", "--as", "ines"] + extra
    }

    private func show(_ cli: WritingCLI, _ scanId: String, now: String) throws -> [String: Any] {
        try cli.query(["show", scanId], now: now)
    }

    func testASingleScanTakesModeAndFlashFromTheSettings() throws {
        let cli = try store()
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.ok(scanArgs("C-10", ["--scan-id", "s-10"]), now: soon)
        var scan = try show(cli, "s-10", now: soon)
        XCTAssertEqual(scan["mode"] as? String, "single")
        XCTAssertEqual(scan["flash"] as? Bool, false)
        XCTAssertEqual(scan["source"] as? String, "camera")
        XCTAssertEqual(scan["actor"] as? String, "ines")
        XCTAssertEqual(scan["result"] as? String, "authentic")

        try cli.ok(["settings", "set", "--capture-mode", "batch", "--flash", "on", "--history-window", "7d", "--as", "ines"], now: soon)
        let settings = try cli.query(["settings", "ines"], now: soon)
        XCTAssertEqual(settings["captureMode"] as? String, "batch")
        XCTAssertEqual(settings["flash"] as? Bool, true)
        XCTAssertEqual(settings["historyWindow"] as? String, "7d")
        XCTAssertEqual(settings["color"] as? String, "white")

        // A plain scan now: mode batch and flash on from the settings, and no batchId (it is optional).
        try cli.ok(scanArgs("C-11", ["--scan-id", "s-11"]), now: soon)
        scan = try show(cli, "s-11", now: soon)
        XCTAssertEqual(scan["mode"] as? String, "batch")
        XCTAssertEqual(scan["flash"] as? Bool, true)
        XCTAssertNil(scan["batchId"])
        // Given on the command line, they win; a code typed in by hand.
        try cli.ok(scanArgs("C-12", ["--scan-id", "s-12", "--mode", "single", "--no-flash", "--source", "manual",
                                     "--brand", "Acme", "--location", "Lyon", "--notes", "box torn"]), now: soon)
        scan = try show(cli, "s-12", now: soon)
        XCTAssertEqual(scan["mode"] as? String, "single")
        XCTAssertEqual(scan["flash"] as? Bool, false)
        XCTAssertEqual(scan["source"] as? String, "manual")
        XCTAssertEqual(scan["brand"] as? String, "Acme")
        XCTAssertEqual(scan["location"] as? String, "Lyon")
        XCTAssertEqual(scan["notes"] as? String, "box torn")
        XCTAssertEqual(scan["seenBefore"] as? Int, 0)
        // The same code again is seen before.
        try cli.ok(scanArgs("C-12", ["--scan-id", "s-13"]), now: soon)
        XCTAssertEqual(try show(cli, "s-13", now: soon)["seenBefore"] as? Int, 1)
        // A clock behind the head: the event takes the head's time (time never runs backwards in the log).
        try cli.ok(scanArgs("C-14", ["--scan-id", "s-14"]), now: W.at(-3_600))
        XCTAssertEqual(try lastEvent(cli)["at"] as? String, soon)
        try cli.ok(["log", "verify"], now: soon)
    }

    func testScanRefusals() throws {
        let cli = try store()
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.refused(["scan", "--code", "X", "--product", "P", "--category", "C", "--as", "ines"], now: soon, code: 64, mentions: ["--result"])
        try cli.refused(["scan", "--code", "X", "--product", "P", "--category", "C", "--result", "fake", "--as", "ines"], now: soon, code: 64)
        try cli.refused(["scan", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines"], now: soon, code: 64,
                        mentions: ["--code"])
        try cli.refused(scanArgs("X", ["--source", "telepathy"]), now: soon, code: 64)
        try cli.refused(scanArgs("X", ["--scan-id", "s-0001"]), now: soon, code: 65, mentions: ["s-0001"])
        try cli.refused(scanArgs("X", ["--scan-id", "bad id!"]), now: soon, code: 65, mentions: ["--scan-id"])
        try cli.refused(["scan", "--code", "   ", "--product", "P", "--category", "C", "--result", "authentic", "--as", "ines"],
                        now: soon, code: 65, mentions: ["code"])
        try cli.refused(["scan", "--code", "X", "--product", "P", "--category", "C", "--result", "authentic"], now: soon, code: 64,
                        mentions: ["--as"])
    }

    private func batchScans(_ cli: WritingCLI, now: String) throws -> [[String: Any]] {
        let history = try cli.query(["history", "--by", "ines", "--window", "all", "--limit", "1000"], now: now)
        return history["items"] as? [[String: Any]] ?? []
    }

    func testABatchFromCSV() throws {
        let cli = try store()
        let file = cli.root.appendingPathComponent("scans.csv")
        try Data("""
            code,productName,category,result
            C-100,Serum 30 ml,Cosmetics,authentic
            C-101,"Sneaker, red",Apparel,counterfeit
            C-102,"The ""Best"" Watch",Watches,authentic

            """.utf8).write(to: file)
        // ines is not unlocked: the passcode is asked once, before the whole batch.
        let r = try cli.ok(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin", "--json"], stdin: "1357\n", now: soon)
        let logged = r.json?["events"] as? [[String: Any]] ?? []
        XCTAssertEqual(logged.count, 3, r.transcript)
        XCTAssertTrue(logged.allSatisfy { $0["type"] as? String == "scan.recorded" })
        let scans = try batchScans(cli, now: soon)
        XCTAssertEqual(scans.count, 3)
        XCTAssertEqual(Set(scans.compactMap { $0["mode"] as? String }), ["batch"])
        let batchIds = Set(scans.compactMap { $0["batchId"] as? String })
        XCTAssertEqual(batchIds.count, 1, "one batchId for the whole batch: \(scans)")
        XCTAssertEqual(scans.compactMap { $0["batchId"] as? String }.count, 3)
        XCTAssertEqual(Set(scans.compactMap { $0["productName"] as? String }), ["Serum 30 ml", "Sneaker, red", "The \"Best\" Watch"])
        XCTAssertEqual(scans.first { $0["code"] as? String == "C-101" }?["result"] as? String, "counterfeit")
        XCTAssertEqual(Set(scans.compactMap { $0["flash"] as? Bool }), [false])
    }

    func testABatchFromNDJSON() throws {
        let cli = try store()
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.ok(["settings", "set", "--flash", "on", "--as", "ines"], now: soon)
        let file = cli.root.appendingPathComponent("scans.ndjson")
        try Data("""
            {"code":"N-1","productName":"Bag","category":"Leather","result":"authentic","brand":"Acme"}
            {"code":"N-2","productName":"Belt","category":"Leather","result":"counterfeit","source":"manual","scanId":"s-n2"}

            {"code":"N-3","productName":"Wallet","category":"Leather","result":"authentic","flash":false}

            """.utf8).write(to: file)
        try cli.ok(["scan", "--batch", file.path, "--as", "ines"], now: soon)
        let scans = try batchScans(cli, now: soon)
        XCTAssertEqual(scans.count, 3)
        XCTAssertEqual(Set(scans.compactMap { $0["mode"] as? String }), ["batch"])
        XCTAssertEqual(Set(scans.compactMap { $0["batchId"] as? String }).count, 1)
        XCTAssertEqual(scans.first { $0["code"] as? String == "N-1" }?["brand"] as? String, "Acme")
        XCTAssertEqual(scans.first { $0["code"] as? String == "N-1" }?["flash"] as? Bool, true, "flash from the settings")
        XCTAssertEqual(scans.first { $0["code"] as? String == "N-3" }?["flash"] as? Bool, false, "flash from the record")
        XCTAssertEqual(scans.first { $0["code"] as? String == "N-2" }?["scanId"] as? String, "s-n2")
        XCTAssertEqual(scans.first { $0["code"] as? String == "N-2" }?["source"] as? String, "manual")
    }

    func testABatchWithOneBadRecordWritesNothing() throws {
        let cli = try store()
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        let csv = cli.root.appendingPathComponent("bad.csv")
        try Data("code,productName,category,result\nC-1,P,C,authentic\nC-2,P,C,fake\nC-3,P,C,authentic\n".utf8).write(to: csv)
        try cli.refused(["scan", "--batch", csv.path, "--as", "ines"], now: soon, code: 65, mentions: ["record 2", "result", "fake"])
        let ndjson = cli.root.appendingPathComponent("bad.ndjson")
        try Data("""
            {"code":"N-1","productName":"Bag","category":"Leather","result":"authentic"}
            {"code":"N-2","productName":"Belt","category":"Leather","result":"authentic","scanId":"s-0001"}

            """.utf8).write(to: ndjson)
        try cli.refused(["scan", "--batch", ndjson.path, "--as", "ines"], now: soon, code: 65, mentions: ["s-0001"])
        let garbage = cli.root.appendingPathComponent("garbage.ndjson")
        try Data("{\"code\":\"N-1\"\nnot json\n".utf8).write(to: garbage)
        try cli.refused(["scan", "--batch", garbage.path, "--as", "ines"], now: soon, code: 65)
        try cli.refused(["scan", "--batch", cli.root.appendingPathComponent("missing.csv").path, "--as", "ines"], now: soon, code: 65,
                        mentions: ["missing.csv"])
        // Refused before the passcode is asked: a batch by carl (not unlocked) writes no attempt either.
        try cli.refused(["scan", "--batch", csv.path, "--as", "carl", "--passcode-stdin"], stdin: "1122\n", now: soon, code: 65)
        XCTAssertEqual(try batchScans(cli, now: soon).count, 0)
    }

    // MARK: report

    func testReportingAScan() throws {
        let cli = try store()
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.ok(["report", "s-0001", "--reason", "packaging", "--message", "box misprinted", "--as", "ines"], now: soon)
        let report = try cli.query(["show", "s-0001"], now: soon)["report"] as? [String: Any]
        XCTAssertEqual(report?["reason"] as? String, "packaging")
        XCTAssertEqual(report?["message"] as? String, "box misprinted")
        XCTAssertEqual(report?["by"] as? String, "ines")
        XCTAssertEqual(report?["at"] as? String, soon)
        try cli.refused(["report", "s-0001", "--reason", "label", "--as", "ines"], now: soon, code: 65, mentions: ["already reported"])
        try cli.refused(["report", "s-9999", "--reason", "label", "--as", "ines"], now: soon, code: 65, mentions: ["s-9999"])
        try cli.ok(scanArgs("C-20", ["--scan-id", "s-20"]), now: soon)
        try cli.refused(["report", "s-20", "--reason", "other", "--as", "ines"], now: soon, code: 65, mentions: ["message"])
        try cli.refused(["report", "s-20", "--reason", "fake", "--as", "ines"], now: soon, code: 64)
        try cli.refused(["report", "s-20", "--as", "ines"], now: soon, code: 64, mentions: ["--reason"])
        try cli.ok(["report", "s-20", "--reason", "other", "--message", "smells wrong", "--as", "ines"], now: soon)
    }

    // MARK: customer status

    func testCustomerStatusByAnAdmin() throws {
        let cli = try store()
        try cli.ok(["customer", "status", "carl", "ONBOARDED", "--note", "called back", "--as", "ada"], now: soon)
        let customers = try cli.query(["customers"], now: soon)
        let carl = (customers["customers"] as? [[String: Any]])?.first
        XCTAssertEqual(carl?["status"] as? String, "ONBOARDED")
        XCTAssertEqual(carl?["changedBy"] as? String, "ada")
        XCTAssertEqual(carl?["since"] as? String, soon)
        let history = try cli.query(["customer", "show", "carl"], now: soon)["statusHistory"] as? [[String: Any]] ?? []
        XCTAssertEqual(history.map { $0["status"] as? String }, ["AWAITED", "ONBOARDED"])
        XCTAssertEqual(history.last?["note"] as? String, "called back")

        try cli.refused(["customer", "status", "carl", "ONBOARDED", "--as", "ada"], now: soon, code: 65, mentions: ["differ"])
        try cli.refused(["customer", "status", "ines", "ONBOARDED", "--as", "ada"], now: soon, code: 65, mentions: ["not a customer"])
        try cli.refused(["customer", "status", "nobody", "ONBOARDED", "--as", "ada"], now: soon, code: 65, mentions: ["nobody"])
        try cli.refused(["customer", "status", "carl", "FINISHED", "--as", "ada"], now: soon, code: 64)
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.refused(["customer", "status", "carl", "DENIED", "--as", "ines"], now: soon, code: 77, mentions: ["admin"])
    }

    // MARK: settings, search

    func testSettingsSetShowsInSettings() throws {
        let cli = try store()
        XCTAssertEqual(try cli.query(["settings", "carl"], now: soon)["historyWindow"] as? String, "30d")
        try cli.ok(["settings", "set", "--history-window", "90d", "--color", "white", "--as", "carl", "--passcode-stdin"],
                   stdin: "1122\n", now: soon)
        let changed = try lastEvent(cli)
        XCTAssertEqual(changed["type"] as? String, "settings.changed")
        XCTAssertEqual(changed["actor"] as? String, "carl")
        let settings = try cli.query(["settings", "carl"], now: soon)
        XCTAssertEqual(settings["historyWindow"] as? String, "90d")
        XCTAssertEqual(settings["captureMode"] as? String, "single")
        XCTAssertEqual(settings["flash"] as? Bool, false)
        try cli.refused(["settings", "set", "--history-window", "1d", "--as", "carl"], now: soon, code: 64)
        // Nothing to change.
        let none = try cli.run(["settings", "set", "--as", "carl"], now: soon)
        XCTAssertTrue([64, 65].contains(none.exit), none.transcript)
    }

    func testSearchNeedsNoPasscodeEvenWhenLockedOut() throws {
        let cli = try store()
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.ok(scanArgs("SER-1", ["--scan-id", "s-30"]), now: soon)
        try cli.ok(["scan", "--code", "B-1", "--product", "Bag", "--category", "Leather", "--result", "authentic", "--as", "ines"], now: soon)
        for wrong in ["0000", "0001", "0002"] {
            try cli.refused(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "\(wrong)\n", now: W.at(100), code: 77, attempts: 1)
        }
        XCTAssertEqual(try cli.query(["lockout", "ines"], now: W.at(110))["state"] as? String, "locked")
        let attempts = try cli.count("passcode.attempted")
        let r = try cli.ok(["search", "SERUM", "--as", "ines", "--json"], now: W.at(110))
        XCTAssertEqual(try cli.count("passcode.attempted"), attempts)
        let recorded = try lastEvent(cli)
        XCTAssertEqual(recorded["type"] as? String, "search.performed")
        XCTAssertEqual(data(recorded)["query"] as? String, "SERUM")
        XCTAssertEqual(data(recorded)["username"] as? String, "ines")
        // It answers like history --search.
        let history = try cli.run(["history", "--search", "SERUM", "--as", "ines", "--json"], now: W.at(110))
        XCTAssertEqual(r.out, history.out)
        let items = r.json?["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(Set(items.compactMap { $0["scanId"] as? String }), ["s-0001", "s-30"])
        XCTAssertEqual(try cli.query(["searches", "ines"], now: W.at(110))["recent"] as? [String], ["SERUM"])
        // A search by a deleted or unknown account is refused.
        try cli.refused(["search", "x", "--as", "nobody"], now: W.at(110), code: 65, mentions: ["nobody"])
        try cli.refused(["search", "x", "--as", "ines", "--limit", "0"], now: W.at(110), code: 64)
    }

    // MARK: fitness, goals, sessions

    func testFitnessGoalsAndSessions() throws {
        let cli = try store()
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: soon)
        try cli.refused(["goal", "set", "--metric", "calories", "--target", "5000", "--as", "ines"], now: soon, code: 65,
                        mentions: ["fitness"])
        try cli.ok(["goal", "set", "--metric", "calories", "--target", "0", "--as", "ines"], now: soon)
        try cli.refused(["fitness", "set", "--body-type", "3", "--height-inches", "70", "--as", "ines"], now: soon, code: 65,
                        mentions: ["--body-type"])
        try cli.ok(["fitness", "set", "--body-type", "1", "--height-inches", "70", "--as", "ines"], now: soon)
        try cli.ok(["goal", "set", "--metric", "calories", "--target", "5000", "--as", "ines"], now: soon)
        let goal = try lastEvent(cli)
        XCTAssertEqual(data(goal)["month"] as? String, "2026-11", "the month defaults to the month of now")
        try cli.ok(["goal", "set", "--metric", "jumps", "--target", "30000", "--month", "2026-12", "--as", "ines"], now: soon)
        try cli.refused(["goal", "set", "--metric", "jumps", "--target", "30000", "--month", "2026-10", "--as", "ines"], now: soon,
                        code: 65, mentions: ["month"])
        try cli.refused(["goal", "set", "--metric", "jumps", "--target", "30000", "--month", "2026-13", "--as", "ines"], now: soon, code: 64)
        try cli.refused(["goal", "set", "--metric", "steps", "--target", "1", "--as", "ines"], now: soon, code: 64)
        try cli.ok(["goal", "set", "--metric", "jumps", "--target", "1000", "--as", "ines"], now: soon)

        // Sessions: her own, and one an admin records for her.
        try cli.ok(["session", "record", "--session-id", "ses-1", "--park", "Plainfield", "--start", "13:00", "--end", "14:00",
                    "--jumps", "300", "--calories", "40", "--as", "ines"], now: soon)
        XCTAssertEqual(data(try lastEvent(cli))["date"] as? String, "2026-11-20", "the date defaults to today")
        try cli.ok(["session", "record", "--user", "ines", "--session-id", "ses-2", "--date", "2026-11-19", "--park", "Plainfield",
                    "--start", "09:00", "--end", "09:30", "--jumps", "200", "--calories", "30", "--as", "ada"], now: soon)
        let byAdmin = try lastEvent(cli)
        XCTAssertEqual(byAdmin["actor"] as? String, "ada")
        XCTAssertEqual(data(byAdmin)["username"] as? String, "ines")
        // Another non-admin may not.
        try cli.refused(["session", "record", "--user", "ines", "--session-id", "ses-3", "--park", "P", "--start", "09:00", "--end", "10:00",
                         "--jumps", "1", "--calories", "1", "--as", "carl", "--passcode-stdin"], stdin: "1122\n", now: soon, code: 77,
                        mentions: ["admin"])
        try cli.refused(["session", "record", "--session-id", "ses-1", "--park", "P", "--start", "09:00", "--end", "10:00",
                         "--jumps", "1", "--calories", "1", "--as", "ines"], now: soon, code: 65, mentions: ["ses-1"])
        try cli.refused(["session", "record", "--session-id", "ses-4", "--park", "P", "--start", "10:00", "--end", "09:00",
                         "--jumps", "1", "--calories", "1", "--as", "ines"], now: soon, code: 65)
        try cli.refused(["session", "record", "--session-id", "ses-5", "--date", "2026-11-21", "--park", "P", "--start", "09:00",
                         "--end", "10:00", "--jumps", "1", "--calories", "1", "--as", "ines"], now: soon, code: 65, mentions: ["date"])

        let goals = try cli.query(["goals", "ines"], now: soon)
        let metrics = goals["metrics"] as? [[String: Any]] ?? []
        let jumps = metrics.first { $0["metric"] as? String == "jumps" }
        XCTAssertEqual(jumps?["target"] as? Int, 1000)
        XCTAssertEqual(jumps?["progress"] as? Int, 500)
        let calories = metrics.first { $0["metric"] as? String == "calories" }
        XCTAssertEqual(calories?["target"] as? Int, 5000)
        XCTAssertEqual(calories?["progress"] as? Int, 70)
    }

    // MARK: secrecy

    func testPasscodesAreNeverWrittenOrPrinted() throws {
        let cli = try WritingCLI.fresh(for: self)
        let t = W.at(0)
        try cli.ok(["init", "--admin", "ada", "--name", "Ada", "--email", "ada@example.org", "--passcode-stdin"], stdin: "2468\n2468\n", now: t)
        // The store is its owner's only.
        let attributes = try FileManager.default.attributesOfItem(atPath: cli.store)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        let mdb = URL(fileURLWithPath: cli.store).appendingPathComponent("data.mdb")
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: mdb.path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        try cli.ok(["register", "ines", "--role", "inspector", "--name", "Ines", "--email", "ines@example.org", "--as", "ada",
                    "--passcode-stdin"], stdin: "2468\n", now: t)
        try cli.ok(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "1357\n1357\n", now: t)
        try cli.ok(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n", now: W.at(1))
        _ = try cli.run(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "2468\n", now: W.at(2))
        try cli.ok(["passcode", "set", "--as", "ines", "--passcode-stdin"], stdin: "1357\n2468\n2468\n", now: W.at(3))
        try cli.ok(["register", "carl", "--name", "Carl", "--email", "carl@example.org", "--street", "1 Main St", "--city", "Lyon",
                    "--zipcode", "69001", "--passcode-stdin"], stdin: "1357\n1357\n", now: W.at(4))
        _ = try cli.run(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "2468\n1357\n", now: W.at(5))
        _ = try cli.run(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin", "--json"], stdin: "13579\n13579\n", now: W.at(5))

        let export = try cli.ok(["export"], now: W.at(6))
        let tail = try cli.ok(["log", "tail", "-n", "100", "--json"], now: W.at(6))
        XCTAssertEqual(export.out.split(separator: "\n").count, tail.out.split(separator: "\n").count)
        try cli.ok(["log", "verify"], now: W.at(6))
        let raw = [UInt8](try Data(contentsOf: mdb))
        var texts: [(String, [UInt8])] = [("export", Array(export.out.utf8)), ("log tail --json", Array(tail.out.utf8)), ("data.mdb", raw)]
        for (i, text) in cli.captured.enumerated() { texts.append(("captured output #\(i)", Array(text.utf8))) }
        for secret in ["2468", "1357", "13579"] {
            for (name, bytes) in texts {
                XCTAssertFalse(WritingCLI.leaks(secret, in: bytes), "\(secret) appears in \(name)")
            }
        }
        // The check itself finds a passcode written as a token of its own.
        XCTAssertTrue(WritingCLI.leaks("2468", in: "{\"passcode\":\"2468\"}"))
        XCTAssertFalse(WritingCLI.leaks("2468", in: "ab2468cd"))

        // A passcode.set carries only the credential: scheme, iterations ≥ 100000, salt, hash.
        let sets = tail.out.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .filter { $0["type"] as? String == "passcode.set" }
        XCTAssertEqual(sets.count, 5)
        for event in sets {
            let d = data(event)
            XCTAssertEqual(Set(d.keys), ["username", "credential"])
            let credential = d["credential"] as? [String: Any] ?? [:]
            XCTAssertEqual(Set(credential.keys), ["scheme", "iterations", "salt", "hash"])
            XCTAssertEqual(credential["scheme"] as? String, "pbkdf2-sha256-hmac")
            XCTAssertGreaterThanOrEqual(credential["iterations"] as? Int ?? 0, 100_000)
            let salt = Data(base64Encoded: credential["salt"] as? String ?? "")
            XCTAssertNotNil(salt)
            XCTAssertGreaterThanOrEqual(salt?.count ?? 0, 16)
            XCTAssertEqual(Data(base64Encoded: credential["hash"] as? String ?? "")?.count, 32)
        }
        // Two credentials for the same digits differ (random salt).
        let salts = sets.compactMap { (data($0)["credential"] as? [String: Any])?["salt"] as? String }
        XCTAssertEqual(Set(salts).count, salts.count)
        // And a passcode passed in the environment is ignored (not read from there).
        let envTry = try cli.run(["unlock", "--as", "ines"], now: W.at(7), environment: ["VERITRAIL_PASSCODE": "2468", "PASSCODE": "2468"])
        XCTAssertEqual(envTry.exit, 64, envTry.transcript)
    }
}
