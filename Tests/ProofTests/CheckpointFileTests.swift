import Foundation
import Proofs
import Testing

/// The kept checkpoint: owner-only, replaced whole, never by a smaller one.
@Suite("The checkpoint file")
struct CheckpointFileTests {
    @Test func aLargerCheckpointReplacesTheKeptOneAndASmallerOneDoesNot() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = CheckpointFile(directory: directory.path)
        #expect(try file.read() == nil)
        try file.replace(with: "o\n5\nroot5\n\n— o sig\n", size: 5)
        try file.replace(with: "o\n3\nroot3\n\n— o sig\n", size: 3)
        #expect(try file.read() == "o\n5\nroot5\n\n— o sig\n")
        try file.replace(with: "o\n6\nroot6\n\n— o sig\n", size: 6)
        #expect(try file.read() == "o\n6\nroot6\n\n— o sig\n")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: file.path + ".tmp"))
    }

    @Test func anOversizedFileIsNotReadWhole() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = CheckpointFile(directory: directory.path)
        try Data(count: 70_000).write(to: URL(fileURLWithPath: file.path))
        #expect(throws: (any Error).self) { try file.read() }
    }
}
