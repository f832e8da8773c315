import Foundation
import Testing

/// Issue #23.2: the generated completion scripts in real bash, zsh and fish (scripts/complete_in.sh): file names
/// where a path is taken, directories for `--store`, the enumerated values, user names and scan ids from the store.
@Suite(.serialized) struct CompletionTests {
    /// A folder holding `Events.ndjson` and a copy of the demo store at `demo-store`.
    static let workdir: URL = {
        let dir = TempDir.fresh("complete")
        let store = dir.appendingPathComponent("demo-store")
        try? FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(at: Stores.demo.appendingPathComponent("data.mdb"), to: store.appendingPathComponent("data.mdb"))
        FileManager.default.createFile(atPath: dir.appendingPathComponent("Events.ndjson").path, contents: Data())
        return dir
    }()

    /// What <Tab> gives for `line` in `shell`: bash's candidates, or zsh's and fish's completed line.
    static func complete(_ shell: String, _ line: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", Stores.packageRoot.appendingPathComponent("scripts/complete_in.sh").path, shell,
                             try CLI.binary().path, workdir.path, line]
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("VERITRAIL_") { env[key] = nil }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static let cases: [(line: String, completes: String)] = [
        ("veritrail import Ev", "Events.ndjson"),
        ("veritrail scan --batch Ev", "Events.ndjson"),
        ("veritrail stats --store ./dem", "demo-store"),
        ("veritrail history --window 9", "90d"),
        ("veritrail report s-0001 --reason pack", "packaging"),
        ("veritrail log tail --type scan.rec", "scan.recorded"),
        ("veritrail customers --status ONB", "ONBOARDED"),
        ("veritrail goals --store demo-store kam", "kamren"),
        ("veritrail show --store demo-store s-043", "s-043"),
    ]

    @Test(arguments: ["bash", "zsh", "fish"])
    func tabCompletesPathsValuesUsersAndScans(shell: String) throws {
        // zsh lists the three ids of an ambiguous prefix under the line instead of completing it: bash checks them.
        for (line, completes) in Self.cases where shell != "zsh" || !line.contains("show") {
            let got = try Self.complete(shell, line)
            #expect(got.contains(completes), "\(shell): \(line)<Tab> gave \(got)")
        }
        // bash lists every scan id that starts so.
        if shell == "bash" {
            let ids = try Self.complete(shell, "veritrail show --store demo-store s-043").split(separator: "\n")
            #expect(Set(ids) == ["s-0430", "s-0431", "s-0432"], "\(ids)")
        }
    }
}
