import Foundation
import Proofs
import Testing

/// The kept checkpoint: owner-only, replaced whole, never by a smaller one; read without waiting, following
/// a link or reading without bound.
@Suite("The checkpoint file")
struct CheckpointFileTests {
    @Test func aLargerCheckpointReplacesTheKeptOneAndASmallerOneDoesNot() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = CheckpointFile(directory: directory.path)
        #expect(file.read() == .missing)
        try file.replace(with: "o\n5\nroot5\n\n— o sig\n", size: 5)
        try file.replace(with: "o\n3\nroot3\n\n— o sig\n", size: 3)
        #expect(file.read() == .note("o\n5\nroot5\n\n— o sig\n"))
        try file.replace(with: "o\n6\nroot6\n\n— o sig\n", size: 6)
        #expect(file.read() == .note("o\n6\nroot6\n\n— o sig\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["checkpoint", "checkpoint.lock"])
    }

    @Test func anOversizedFileADirectoryAFIFOAndALinkAreRefusedAtOnce() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = CheckpointFile(directory: directory.path)
        try Data(count: 70_000).write(to: URL(fileURLWithPath: file.path))
        #expect(file.read() == .refused("\(file.path) is larger than 65536 bytes: it is not what it should be"))
        try FileManager.default.removeItem(atPath: file.path)
        try FileManager.default.createDirectory(atPath: file.path, withIntermediateDirectories: false)
        #expect(file.read() == .refused("\(file.path) is a directory, not a regular file"))
        try FileManager.default.removeItem(atPath: file.path)
        #expect(mkfifo(file.path, 0o600) == 0)
        // Opened without waiting for a writer: a FIFO answers at once.
        #expect(file.read() == .refused("\(file.path) is a FIFO, not a regular file"))
        try FileManager.default.removeItem(atPath: file.path)
        try "o\n1\nr\n\n— o s\n".write(toFile: directory.path + "/elsewhere", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: directory.path + "/elsewhere")
        #expect(file.read() == .refused("\(file.path) is a symbolic link, not the file itself"))
    }

    /// A link planted where an older version wrote its temporary file, or a FIFO there, is never followed
    /// or opened: the temporary file has a new name, made with O_EXCL|O_NOFOLLOW.
    @Test func aPlantedTemporaryFileIsNeverFollowed() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.path + "/target"
        try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/checkpoint.tmp", withDestinationPath: target)
        let file = CheckpointFile(directory: directory.path)
        try file.replace(with: "o\n5\nroot5\n\n— o sig\n", size: 5)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
        #expect(file.read() == .note("o\n5\nroot5\n\n— o sig\n"))
    }
}
