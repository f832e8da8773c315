import Foundation
import Testing

/// Issue #23.1 and #23.15: the man pages `make install` writes (scripts/gen_man.py) keep every character of the
/// help, list the exit codes of cli.md §6 and the environment, and are read by `man -l` as installed.
@Suite(.serialized) struct ManPageTests {
    static let pages: URL = {
        let directory = TempDir.fresh("man1")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Stores.packageRoot.appendingPathComponent("scripts/gen_man.py").path,
                             (try? CLI.binary().path) ?? "veritrail", directory.path]
        process.standardOutput = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        return directory
    }()

    /// `man -l PAGE` on a UTF-8 terminal of 80 columns.
    static func man(_ page: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["man", "-l", page.path]
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "C.UTF-8"; env["LC_ALL"] = "C.UTF-8"; env["MANWIDTH"] = "80"; env["MANPAGER"] = "cat"; env["PAGER"] = "cat"
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let said = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if data.isEmpty { return "man said: " + String(decoding: said, as: UTF8.self) + " exit \(process.terminationStatus)" }
        // man's bold and underline are overstrikes when it writes to a pipe: keep the characters.
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
    }

    @Test func everyCommandHasAPage() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.pages.path)
        #expect(names.count == HelpTextTests.commands.filter { $0.last != "help" }.count, "\(names.sorted())")
        #expect(names.contains("veritrail.1") && names.contains("veritrail.log.tail.1"))
    }

    @Test(arguments: HelpTextTests.commands.filter { $0.last != "help" })
    func aPageKeepsItsCharactersAndListsTheExitCodes(path: [String]) throws {
        let page = Self.pages.appendingPathComponent((["veritrail"] + path).joined(separator: ".") + ".1")
        let shown = try Self.man(page)
        #expect(shown.contains("EXIT STATUS") && shown.contains("ENVIRONMENT"),
                "\(path): \(shown.prefix(300))")
        for code in ["64", "65", "74", "77"] { #expect(shown.contains("       \(code)"), "\(path): exit \(code) missing") }
        #expect(shown.contains("VERITRAIL_STORE") && shown.contains("VERITRAIL_NOW") && shown.contains("NO_COLOR"))
        // Every non-ASCII character of the help is on the page.
        let help = try CLI.run(path + ["--help"]).stdout
        let wanted = Set(help.unicodeScalars.filter { $0.value > 126 })
        let missing = wanted.subtracting(Set(shown.unicodeScalars))
        #expect(missing.isEmpty, "\(path): lost \(missing.map { String($0) }.joined())")
        #expect(shown.contains("1–1000") || !help.contains("1–1000"))
    }

    /// `make install` makes its pages with the script, not with the plugin that rebuilt the package in release.
    @Test func installUsesTheScriptNotThePlugin() throws {
        let makefile = try String(contentsOf: Stores.packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(!makefile.contains("package generate-manual") && makefile.contains("scripts/gen_man.py"))
    }
}
