import Foundation
import XCTest

// The terminal paths of the writing commands (cli.md §3–§4), driven through a real pseudo-terminal:
// passcodes are read from /dev/tty with echo off (the digits never show in what the terminal displays),
// and `account delete` without --yes asks "Delete USER? [y/N]".
//
// The driver is python3's `pty` module: it starts `veritrail` in a new session whose controlling terminal
// is the pty, waits for each prompt before typing the answer (typing ahead would be flushed by the
// TCSAFLUSH that turns echo off), and returns everything the terminal displayed. Its deadlines only bound
// a hang (5 minutes for a prompt, 10 for the end): a loaded host makes a run slower, never a failure.

/// What a run on a pseudo-terminal gave back.
private struct TerminalRun {
    var exit: Int32
    /// Everything the terminal displayed (stdout, stderr and the prompts on /dev/tty, with echo).
    var screen: String
    /// Why the driver stopped early (a prompt that never came), or nil.
    var problem: String?
    var transcript: String { "exit \(exit)\(problem.map { " (\($0))" } ?? "")\n--- terminal ---\n\(screen)" }
}

private enum TerminalDriver {
    static let script = #"""
import json, os, pty, select, sys, time, signal
spec = json.load(open(sys.argv[1]))
pid, fd = pty.fork()
if pid == 0:
    try:
        os.execve(spec["argv"][0], spec["argv"], spec["env"])
    finally:
        os._exit(127)
buf = bytearray()
pos = 0
eof = False
def pump(timeout):
    global eof
    if eof:
        return False
    r, _, _ = select.select([fd], [], [], timeout)
    if not r:
        return True
    try:
        data = os.read(fd, 4096)
    except OSError:
        data = b""
    if not data:
        eof = True
        return False
    buf.extend(data)
    return True
problem = None
for kind, arg in spec["steps"]:
    if kind == "expect":
        needle = arg.encode()
        deadline = time.time() + 300
        while True:
            i = buf.find(needle, pos)
            if i >= 0:
                pos = i + len(needle)
                break
            if time.time() > deadline:
                problem = "timed out waiting for %r" % arg
                break
            if not pump(0.1):
                problem = "the program ended before %r" % arg
                break
        if problem:
            break
    else:
        os.write(fd, arg.encode())
deadline = time.time() + 600
while not eof and time.time() < deadline:
    pump(0.2)
if not eof:
    os.kill(pid, signal.SIGKILL)
    problem = (problem or "") + " (killed: it did not end)"
    while pump(0.2):
        pass
_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
open(spec["out"], "wb").write(bytes(buf))
json.dump({"exit": code, "problem": problem}, sys.stdout)
"""#

    static var python: String? {
        ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `veritrail args…` on a pseudo-terminal, answering `steps`: ("expect", text) waits for text,
    /// ("send", text) types it.
    static func run(_ cli: WritingCLI, _ args: [String], steps: [(String, String)], now: String) throws -> TerminalRun {
        guard let python else { throw XCTSkip("python3 is not available to drive a pseudo-terminal") }
        let binary = try WritingCLI.requireBinary()
        let tag = UUID().uuidString.lowercased()
        let scriptURL = cli.root.appendingPathComponent("pty-\(tag).py")
        let specURL = cli.root.appendingPathComponent("pty-\(tag).json")
        let outURL = cli.root.appendingPathComponent("pty-\(tag).out")
        defer { for url in [scriptURL, specURL, outURL] { try? FileManager.default.removeItem(at: url) } }
        try Data(script.utf8).write(to: scriptURL)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VERITRAIL_") }
        env["NO_COLOR"] = "1"
        env["TERM"] = "xterm"
        env["VERITRAIL_NOW"] = now
        let spec: [String: Any] = [
            "argv": [binary.path] + args + ["--store", cli.store],
            "env": env,
            "steps": steps.map { [$0.0, $0.1] },
            "out": outURL.path,
        ]
        try JSONSerialization.data(withJSONObject: spec).write(to: specURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scriptURL.path, specURL.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let report = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let result = (try? JSONSerialization.jsonObject(with: report)) as? [String: Any] else {
            XCTFail("the pty driver failed (exit \(process.terminationStatus)): \(String(decoding: report, as: UTF8.self))")
            throw XCTSkip("pty driver failed")
        }
        let screen = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        return TerminalRun(exit: Int32(result["exit"] as? Int ?? -1), screen: screen, problem: result["problem"] as? String)
    }
}

final class TerminalPromptTests: XCTestCase {
    private typealias W = WritingCLI

    private func expectClean(_ r: TerminalRun, secrets: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(r.problem, r.transcript, file: file, line: line)
        XCTAssertEqual(r.exit, 0, r.transcript, file: file, line: line)
        for secret in secrets {
            XCTAssertFalse(r.screen.contains(secret), "the passcode \(secret) was echoed or printed:\n\(r.transcript)", file: file, line: line)
        }
    }

    func testPasscodesAreReadWithEchoOff() throws {
        let cli = try WritingCLI.fresh(for: self)
        // init asks the new passcode twice on the terminal.
        var r = try TerminalDriver.run(cli, ["init", "--admin", "ada", "--name", "Ada Admin", "--email", "ada@example.org"], steps: [
            ("expect", "New passcode for ada"), ("send", "2468\n"), ("expect", "Repeat the passcode"), ("send", "2468\n"),
        ], now: W.at(0))
        expectClean(r, secrets: ["2468"])
        XCTAssertEqual(try cli.count("passcode.set"), 1)

        // unlock asks it once.
        r = try TerminalDriver.run(cli, ["unlock", "--as", "ada"], steps: [("expect", "Passcode for ada"), ("send", "2468\n")], now: W.at(1))
        expectClean(r, secrets: ["2468"])
        XCTAssertTrue(r.screen.contains("unlocked"), r.transcript)
        XCTAssertEqual(try cli.query(["lockout", "ada"], now: W.at(1))["state"] as? String, "unlocked")

        // A wrong one on the terminal: 77, recorded, not echoed.
        r = try TerminalDriver.run(cli, ["unlock", "--as", "ada"], steps: [("expect", "Passcode for ada"), ("send", "8080\n")], now: W.at(2))
        XCTAssertNil(r.problem, r.transcript)
        XCTAssertEqual(r.exit, 77, r.transcript)
        XCTAssertFalse(r.screen.contains("8080"), r.transcript)
        XCTAssertTrue(r.screen.contains("wrong passcode"), r.transcript)

        // A writing command when not unlocked (15 minutes later) asks on the terminal first.
        let attempts = try cli.count("passcode.attempted")
        r = try TerminalDriver.run(cli, ["register", "ines", "--role", "inspector", "--name", "Ines", "--email", "ines@example.org", "--as", "ada"],
                                   steps: [("expect", "Passcode for ada"), ("send", "2468\n")], now: W.at(2_000))
        expectClean(r, secrets: ["2468"])
        XCTAssertEqual(try cli.count("passcode.attempted"), attempts + 1)
        XCTAssertEqual(try cli.count("account.registered"), 2)

        // An admin sets ines's passcode (ada is unlocked now): asked twice.
        r = try TerminalDriver.run(cli, ["passcode", "set", "ines", "--as", "ada"], steps: [
            ("expect", "New passcode for ines"), ("send", "1357\n"), ("expect", "Repeat the passcode"), ("send", "1357\n"),
        ], now: W.at(2_001))
        expectClean(r, secrets: ["1357", "2468"])

        // Changing one's own: the current one first, then the new one twice.
        r = try TerminalDriver.run(cli, ["passcode", "set", "--as", "ines"], steps: [
            ("expect", "Current passcode for ines"), ("send", "1357\n"),
            ("expect", "New passcode for ines"), ("send", "97531\n"), ("expect", "Repeat the passcode"), ("send", "97531\n"),
        ], now: W.at(2_002))
        expectClean(r, secrets: ["1357", "97531"])
        XCTAssertEqual(try cli.count("passcode.set"), 3)

        // A self-registering customer on the terminal.
        r = try TerminalDriver.run(cli, ["register", "carl", "--name", "Carl", "--email", "carl@example.org", "--street", "1 Main St",
                                         "--city", "Lyon", "--zipcode", "69001"], steps: [
            ("expect", "New passcode for carl"), ("send", "1122\n"), ("expect", "Repeat the passcode"), ("send", "1122\n"),
        ], now: W.at(2_003))
        expectClean(r, secrets: ["1122"])
        XCTAssertEqual(try cli.count("passcode.set"), 4)

        // The terminal was left with echo on: a y/N answer afterwards is echoed as usual (checked below).
        try cli.ok(["log", "verify"], now: W.at(2_003))
    }

    /// A store with admin ada (passcode 2468, unlocked from t0) and inspector ines.
    private func storeWithInspector() throws -> WritingCLI {
        let cli = try WritingCLI.fresh(for: self)
        try cli.ok(["init", "--admin", "ada", "--name", "Ada", "--email", "ada@example.org", "--passcode-stdin"], stdin: "2468\n2468\n", now: W.at(0))
        try cli.ok(["unlock", "--as", "ada", "--passcode-stdin"], stdin: "2468\n", now: W.at(0))
        try cli.ok(["register", "ines", "--role", "inspector", "--name", "Ines", "--email", "ines@example.org", "--as", "ada"], now: W.at(0))
        return cli
    }

    func testAccountDeleteAsksForConfirmationOnATerminal() throws {
        let cli = try storeWithInspector()
        let before = try cli.logStatus()
        // `n` (and anything but y/yes) deletes nothing.
        var r = try TerminalDriver.run(cli, ["account", "delete", "ines", "--as", "ada"], steps: [
            ("expect", "Delete ines (Ines, inspector)? [y/N]"), ("send", "n\n"),
        ], now: W.at(10))
        XCTAssertNil(r.problem, r.transcript)
        XCTAssertTrue(r.screen.contains("nothing deleted"), r.transcript)
        // The answer is echoed (echo is on for it): the driver does see what is typed, so the passcode
        // checks above are not vacuous.
        XCTAssertTrue(r.screen.contains("[y/N] n"), r.transcript)
        XCTAssertEqual(try cli.logStatus(), before, "answering n writes nothing")
        r = try TerminalDriver.run(cli, ["account", "delete", "ines", "--as", "ada"], steps: [
            ("expect", "Delete ines (Ines, inspector)? [y/N]"), ("send", "\n"),
        ], now: W.at(11))
        XCTAssertNil(r.problem, r.transcript)
        XCTAssertEqual(try cli.logStatus(), before, "the default is no")

        // `y` deletes.
        r = try TerminalDriver.run(cli, ["account", "delete", "ines", "--reason", "test", "--as", "ada"], steps: [
            ("expect", "Delete ines (Ines, inspector)? [y/N]"), ("send", "y\n"),
        ], now: W.at(12))
        XCTAssertNil(r.problem, r.transcript)
        XCTAssertEqual(r.exit, 0, r.transcript)
        let accounts = try cli.query(["accounts"], now: W.at(12))["accounts"] as? [[String: Any]] ?? []
        XCTAssertEqual(accounts.first { $0["username"] as? String == "ines" }?["deleted"] as? Bool, true)
        XCTAssertEqual(try cli.count("account.deleted"), 1)
    }

    func testConfirmingADeleteThenAsksThePasscodeWhenNotUnlocked() throws {
        let cli = try storeWithInspector()
        // 15 minutes after ada's unlock: confirm, then the passcode (echo off), then the delete.
        let r = try TerminalDriver.run(cli, ["account", "delete", "ines", "--as", "ada"], steps: [
            ("expect", "Delete ines (Ines, inspector)? [y/N]"), ("send", "yes\n"), ("expect", "Passcode for ada"), ("send", "2468\n"),
        ], now: W.at(1_000))
        expectClean(r, secrets: ["2468"])
        let two = try cli.tail(2)
        XCTAssertEqual(two.map { $0["type"] as? String }, ["passcode.attempted", "account.deleted"])
        // A refusal is found before anything is asked: the last admin.
        let before = try cli.logStatus()
        let refused = try TerminalDriver.run(cli, ["account", "delete", "ada", "--as", "ada"], steps: [], now: W.at(1_001))
        XCTAssertEqual(refused.exit, 65, refused.transcript)
        XCTAssertFalse(refused.screen.contains("[y/N]"), refused.transcript)
        XCTAssertEqual(try cli.logStatus(), before)
    }

    func testABatchOnATerminalRecordsEveryScan() throws {
        let cli = try storeWithInspector()
        let file = cli.root.appendingPathComponent("scans.csv")
        var csv = "code,productName,category,result\n"
        for i in 1...25 { csv += "T-\(i),Product \(i),Cat,\(i % 5 == 0 ? "counterfeit" : "authentic")\n" }
        try Data(csv.utf8).write(to: file)
        let r = try TerminalDriver.run(cli, ["scan", "--batch", file.path, "--as", "ada"], steps: [], now: W.at(10))
        XCTAssertNil(r.problem, r.transcript)
        XCTAssertEqual(r.exit, 0, r.transcript)
        XCTAssertEqual(try cli.count("scan.recorded"), 25)
    }
}
