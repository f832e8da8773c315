import Foundation
import Testing
import VeritrailKit

/// The library takes the secrets file's place (proofs.md §2), checks passcodes itself, and reseals only when
/// told to accept the loss.
@Suite("The library's secrets and reseal")
struct LibrarySecretsTests {
    @Test func aStoreWithSecretsElsewhereWritesAndUnlocksOnlyWithThem() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path + "/store", secrets = directory.path + "/vault-secrets"
        do {
            let made = try VeritrailStore.create(at: store, admin: "admin", name: "Ada Admin", email: "admin@example.org",
                                                 passcode: "2468", secrets: secrets)
            #expect(made.secretsPath == secrets)
            try made.unlock("admin", passcode: "2468")
        }
        #expect(FileManager.default.fileExists(atPath: secrets))
        #expect(!FileManager.default.fileExists(atPath: store + "/secrets"))
        // A second open in this process is refused by LMDB: each check runs in a process of its own below.
        let without = try run(["log", "status", "--json"], store: store)
        #expect(without.exit == 0)
        #expect(try run(["unlock", "--as", "admin", "--passcode-stdin"], store: store, input: "2468").exit == 74)
        #expect(try run(["unlock", "--as", "admin", "--passcode-stdin", "--secrets", secrets], store: store, input: "2468").exit == 0)
    }

    @Test func resealWithoutAcceptingTheLossIsAUsageErrorThatSaysWhatItWouldSign() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock("2026-11-20T09:00:00Z")
        let store = try VeritrailStore.withAdmin(in: directory, clock: clock)
        do {
            try store.reseal(acceptLoss: false)
            Issue.record("a reseal without --accept-loss went through")
        } catch {
            #expect(error.exitCode == 64 && error.description.hasPrefix("nothing to reseal"))
        }
        let healthy = try store.reseal(acceptLoss: true)
        #expect(!healthy.resealed && healthy.loss == nil && healthy.size == 2 && healthy.provable == 2)
        try FileManager.default.removeItem(atPath: store.directory + "/checkpoint")
        do {
            try store.unlock("admin", passcode: "2468")
            Issue.record("a store that lost its checkpoint took a write")
        } catch {
            #expect(error.exitCode == 74 && error.description.contains("log reseal --accept-loss"))
        }
        do {
            try store.reseal(acceptLoss: false)
            Issue.record("a reseal without --accept-loss went through")
        } catch {
            #expect(error.exitCode == 64 && error.description.contains("needs --accept-loss"))
        }
        let resealed = try store.reseal(acceptLoss: true)
        #expect(resealed.resealed && resealed.size == 2 && resealed.provable == 0 && resealed.signedSize == 2)
        #expect(resealed.loss?.contains("missing") == true)
        try store.unlock("admin", passcode: "2468")
        #expect(try store.verify() == .ok(events: 3, head: try store.head()))
    }

    /// Runs the `veritrail` binary next to the test bundle on `store`.
    private func run(_ arguments: [String], store: String, input: String? = nil) throws -> (exit: Int32, stderr: String) {
        let process = Process()
        let binary = Bundle.allBundles.first { $0.bundleURL.pathExtension == "xctest" }?.bundleURL.deletingLastPathComponent()
            .appendingPathComponent("veritrail") ?? URL(fileURLWithPath: ".build/debug/veritrail")
        process.executableURL = binary
        process.arguments = arguments + ["--store", store]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VERITRAIL_") }
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(((input ?? "") + "\n").utf8))
        try stdin.fileHandleForWriting.close()
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, said)
    }
}
