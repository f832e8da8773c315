import Foundation
import Testing

/// Issue #23.10: refusals in the command line's words and of the right class (cli.md §6), each writing nothing.
@Suite struct ErrorWordsTests {
    /// Runs `args` on a copy of the demo store and checks that the log did not change.
    private func refused(_ args: [String], stdin: String = "1234\n", check: (RunResult) -> Void) throws {
        try Stores.withDemoCopy { store in
            let before = try CLI.run(["log", "digest", "--store", store.path]).stdout
            let r = try CLI.run(args + ["--store", store.path], stdin: Data(stdin.utf8))
            check(r)
            #expect(try CLI.run(["log", "digest", "--store", store.path]).stdout == before, "something was written: \(r.transcript)")
            #expect(try CLI.run(["log", "verify", "--store", store.path]).exit == 0)
        }
    }

    @Test func anUpdateWithNothingToChangeIsAUsageError() throws {
        try refused(["account", "update", "ines", "--as", "admin", "--passcode-stdin"]) { r in
            #expect(r.exit == 64, "\(r.transcript)")
            #expect(r.stderr.contains("nothing to change") && r.stderr.contains("--phone") && !r.stderr.contains("data:"), "\(r.transcript)")
        }
    }

    @Test(arguments: [["--start", "6pm"], ["--end", "25:00"], ["--date", "2026-13-01"]])
    func aSessionValueOfTheWrongFormIsAUsageError(bad: [String]) throws {
        var args = ["session", "record", "--park", "P", "--start", "18:00", "--end", "19:00", "--jumps", "1", "--calories", "1",
                    "--as", "ines", "--passcode-stdin"]
        if let i = args.firstIndex(of: bad[0]) { args[i + 1] = bad[1] } else { args += bad }
        try refused(args) { r in #expect(r.exit == 64 && r.stderr.contains(bad[0]), "\(r.transcript)") }
    }

    @Test func anUnknownOptionIsNamedBeforeTheCommandsOwnChecks() throws {
        try refused(["scan", "--resut", "authentic", "--as", "ines"]) { r in
            #expect(r.exit == 64, "\(r.transcript)")
            #expect(r.stderr.contains("unknown option '--resut'") && r.stderr.contains("did you mean --result?"), "\(r.transcript)")
        }
        // A value that starts with `--` stays the value of its option.
        try refused(["history", "--search", "--resut", "--json", "--as", "ines"]) { r in #expect(r.exit == 0, "\(r.transcript)") }
    }

    @Test func aTakenUsernameIsRefusedBeforeTheCityIsPlaced() throws {
        try refused(["register", "ines", "--role", "customer", "--name", "X", "--email", "x@example.org", "--street", "1 rue",
                     "--zipcode", "75001", "--city", "Paris", "--as", "admin", "--passcode-stdin"]) { r in
            #expect(r.exit == 65 && r.stderr.contains("taken"), "\(r.transcript)")
            #expect(!r.stderr.contains("placed") && !r.stdout.contains("placed"), "\(r.transcript)")
        }
    }

    @Test(arguments: [("code,productName,category,result\nC-1,P,c,authentic\n", "scan --batch"),
                      ("{\n  \"type\": \"scan.recorded\"\n}\n", "jq -c")])
    func aFileThatIsNotNDJSONGetsAHint(contents: String, hint: String) throws {
        let file = TempDir.fresh("notndjson")
        try Data(contents.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try refused(["import", file.path]) { r in
            #expect(r.exit == 65 && r.stderr.contains("line 1") && r.stderr.contains(hint), "\(r.transcript)")
            #expect(r.stderr.split(separator: "\n").count == 2, "\(r.transcript)")
        }
    }

    @Test func aStoreThatIsARegularFileIsSaidSo() throws {
        let file = TempDir.fresh("plainfile")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["stats", "--store", file.path])
        #expect(r.exit == 74 && r.stderr.contains("is a file, not a directory") && !r.stderr.contains("permission denied"), "\(r.transcript)")
    }
}
