import Foundation
import Testing

/// Issue #24: the viewer of the log commands, an origin that starts with `-`, a seq past 2^64 and a scan id
/// `-h`, each against the real binary and the demo store.
@Suite struct ViewerAndValueEdgeTests {
    static let logCommands: [[String]] = [["log", "status"], ["log", "digest"], ["log", "verify"], ["log", "tail"], ["export"]]

    /// cli.md §6, projections.md §0: an unknown or deleted viewer is refused (65), looked up in the log as of
    /// `--as-of`; a viewer that exists there is answered.
    @Test(arguments: logCommands)
    func logCommandsRefuseAViewerThatIsNotThere(command: [String]) throws {
        let store = ["--store", Stores.demo.path]
        let ghost = try CLI.run(command + ["--as", "ghost"] + store)
        #expect(ghost.exit == 65, "\(ghost.transcript)")
        #expect(ghost.stdout.isEmpty && ghost.stderr.contains("no such account \"ghost\""), "\(ghost.transcript)")
        // elwyn.skiles is deleted at seq 716.
        let deleted = try CLI.run(command + ["--as", "elwyn.skiles"] + store)
        #expect(deleted.exit == 65 && deleted.stderr.contains("deleted"), "\(deleted.transcript)")
        #expect(try CLI.run(command + ["--as", "kamren"] + store).exit == 0)
        guard command != ["export"] else { return }
        // kamren is registered at seq 42 (2026-09-14T15:10:26Z): not there at 41, nor on the 10th; there at 42.
        for before in ["41", "2026-09-10T00:00:00Z"] {
            let early = try CLI.run(command + ["--as", "kamren", "--as-of", before] + store)
            #expect(early.exit == 65 && early.stderr.contains("as of --as-of"), "\(early.transcript)")
        }
        #expect(try CLI.run(command + ["--as", "kamren", "--as-of", "42"] + store).exit == 0)
        // Deleted at 716, so still there at 715; the clock does not hide the viewer from the log commands.
        #expect(try CLI.run(command + ["--as", "elwyn.skiles", "--as-of", "715"] + store).exit == 0)
        #expect(try CLI.run(command + ["--as", "kamren"] + store, environment: ["VERITRAIL_NOW": "2026-09-02T00:00:00Z"]).exit == 0)
    }

    /// proofs.md §2: `-abc` is a legal origin, taken as the value of `--origin` on `import` and `init`.
    @Test func anOriginStartingWithADashIsAValue() throws {
        let store = TempDir.fresh("origin")
        defer { try? FileManager.default.removeItem(at: store) }
        let imported = try CLI.run(["import", Stores.demoEvents.path, "--origin", "-abc", "--store", store.path])
        #expect(imported.exit == 0, "\(imported.transcript)")
        let status = try CLI.run(["log", "status", "--json", "--store", store.path])
        #expect(status.stdout.contains(#""origin":"-abc""#), "\(status.transcript)")

        let created = TempDir.fresh("origin-init")
        defer { try? FileManager.default.removeItem(at: created) }
        let initialised = try CLI.run(["init", "--admin", "ada", "--name", "Ada", "--email", "ada@example.org", "--origin", "-x.y",
                                       "--passcode-stdin", "--store", created.path], stdin: Data("2468\n2468\n".utf8))
        #expect(initialised.exit == 0, "\(initialised.transcript)")
        #expect(try CLI.run(["log", "status", "--json", "--store", created.path]).stdout.contains(#""origin":"-x.y""#))
    }

    /// projections.md §0: all digits is a seq, and a seq past the head keeps every event, 2^64 and more too.
    @Test(arguments: ["18446744073709551615", "18446744073709551616", "99999999999999999999999999"])
    func aSeqPastTwoToTheSixtyFourKeepsEveryEvent(seq: String) throws {
        let store = ["--store", Stores.demo.path]
        let head = try CLI.run(["log", "digest"] + store)
        let cut = try CLI.run(["log", "digest", "--as-of", seq] + store)
        #expect(cut.exit == 0 && cut.stdout == head.stdout, "\(cut.transcript)")
        let stats = try CLI.run(["stats", "--json", "--now", "2026-11-20T00:00:00Z"] + store)
        let statsCut = try CLI.run(["stats", "--json", "--now", "2026-11-20T00:00:00Z", "--as-of", seq] + store)
        #expect(statsCut.exit == 0 && statsCut.stdout == stats.stdout, "\(statsCut.transcript)")
        #expect(try CLI.run(["diff", "--from", seq, "--json"] + store).exit == 0)
    }

    /// `show -h` is the help, as everywhere; a scan id `-h` is asked for after `--` (docs/CLI.md), with the
    /// options before or after it.
    @Test func aScanIdThatLooksLikeTheHelpFlag() throws {
        try Stores.withDemoCopy { store in
            let recorded = try CLI.run(["scan", "--as", "ines", "--passcode-stdin", "--scan-id", "-h", "--code", "C-h", "--result", "authentic",
                                        "--product", "P", "--category", "c", "--json", "--store", store.path], stdin: Data("1234\n".utf8))
            #expect(recorded.exit == 0, "\(recorded.transcript)")
            let help = try CLI.run(["show", "-h", "--store", store.path])
            #expect(help.exit == 0 && help.stdout.contains("USAGE"), "\(help.transcript)")
            for args in [["show", "--json", "--store", store.path, "--", "-h"], ["show", "--", "-h", "--json", "--store", store.path]] {
                let shown = try CLI.run(args)
                #expect(shown.exit == 0 && shown.stdout.contains(#""scanId":"-h""#), "\(args) \(shown.transcript)")
            }
        }
    }
}
