import Foundation
import Testing

/// A store that has signed refuses to write while its kept checkpoint is missing, not a regular file, or
/// disagrees with its log, so that it never signs two checkpoints that disagree (proofs.md §2); `log reseal
/// --accept-loss` signs the head over the loss. A bad checkpoint file is a refused input (65) for reads.
@Suite("The kept checkpoint", .serialized)
struct KeptCheckpointTests {
    /// A store of 40 demo events whose data file is saved after 30 (`saved`).
    static func rolledBackStore(_ fixture: StoreFixture) throws -> String {
        let lines = try StoreFixture.demoLines()
        #expect(try fixture.importLines(Array(lines.prefix(30))).exit == 0)
        let saved = fixture.directory.appendingPathComponent("saved.mdb").path
        try FileManager.default.copyItem(atPath: fixture.store + "/data.mdb", toPath: saved)
        #expect(try fixture.importLines(Array(lines[30..<40])).exit == 0)
        return saved
    }

    static func putBack(_ saved: String, _ fixture: StoreFixture) throws {
        try FileManager.default.removeItem(atPath: fixture.store + "/data.mdb")
        try FileManager.default.copyItem(atPath: saved, toPath: fixture.store + "/data.mdb")
    }

    /// Every rollback of the bar: the data alone, or with its checkpoint deleted, or replaced by a dangling
    /// link, a link to a file, or a FIFO. Each write is refused (74) and writes nothing; then a reseal signs
    /// the head and the store takes writes again.
    @Test(arguments: ["data alone", "deleted", "dangling link", "link to a file", "FIFO"])
    func aRolledBackStoreRefusesEveryWriteUntilResealed(_ scenario: String) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let saved = try Self.rolledBackStore(fixture)
        let checkpoint = fixture.store + "/checkpoint"
        let signed = try String(contentsOfFile: checkpoint, encoding: .utf8)
        try Self.putBack(saved, fixture)
        switch scenario {
        case "deleted": try FileManager.default.removeItem(atPath: checkpoint)
        case "dangling link":
            try FileManager.default.removeItem(atPath: checkpoint)
            try FileManager.default.createSymbolicLink(atPath: checkpoint, withDestinationPath: fixture.directory.path + "/nothing")
        case "link to a file":
            let old = try fixture.write("", "old-checkpoint")
            try FileManager.default.removeItem(atPath: checkpoint)
            try FileManager.default.createSymbolicLink(atPath: checkpoint, withDestinationPath: old)
        case "FIFO":
            try FileManager.default.removeItem(atPath: checkpoint)
            #expect(mkfifo(checkpoint, 0o600) == 0)
        default: break
        }
        let digest = try fixture.veritrail(["log", "digest"]).stdout
        #expect(digest.hasPrefix("30:"))
        let line = try StoreFixture.demoLines()[30]
        let write = try fixture.importLines([line])
        #expect(write.exit == 74, "\(scenario): \(write.stderr)")
        #expect(write.stderr.contains("nothing was written") && write.stderr.contains("log reseal --accept-loss"), "\(write.stderr)")
        #expect(try fixture.veritrail(["log", "digest"]).stdout == digest)
        // Nothing signs a checkpoint of this log meanwhile: the proof commands refuse with 65.
        let proof = try fixture.veritrail(["log", "checkpoint"])
        #expect(proof.exit == 65 && proof.stdout.isEmpty, "\(proof.stderr)")
        let verify = try fixture.veritrail(["log", "verify", "--json"])
        #expect(verify.exit == 65 && verify.stdout.hasPrefix("{\"firstBadSeq\":"), "\(verify.stdout)")

        // Without --accept-loss, a usage error that says what it would sign over.
        let asked = try fixture.veritrail(["log", "reseal"])
        #expect(asked.exit == 64 && asked.stderr.contains("needs --accept-loss") && asked.stderr.contains("the head, 30 events"), "\(asked.stderr)")
        #expect(try fixture.veritrail(["log", "digest"]).stdout == digest)
        let resealed = try fixture.veritrail(["log", "reseal", "--accept-loss", "--json"])
        #expect(resealed.exit == 0, "\(resealed.stderr)")
        #expect(resealed.stdout.contains("\"resealed\":true") && resealed.stdout.contains("\"size\":30"), "\(resealed.stdout)")
        #expect(try String(contentsOfFile: checkpoint, encoding: .utf8) != signed)
        #expect(try fixture.importLines([line]).exit == 0)
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)
        #expect(try fixture.veritrail(["log", "reseal", "--accept-loss"]).stdout.hasPrefix("nothing to reseal"))
    }

    /// A damaged, oversized, trailing-text or directory checkpoint answers 65 with a sentence, JSON staying JSON.
    @Test(arguments: ["trailing text", "huge", "directory", "garbage"])
    func aBadCheckpointFileIsARefusedInputEverywhere(_ damage: String) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.importLines(Array(try StoreFixture.demoLines().prefix(20))).exit == 0)
        let checkpoint = fixture.store + "/checkpoint"
        let signed = try String(contentsOfFile: checkpoint, encoding: .utf8)
        try FileManager.default.removeItem(atPath: checkpoint)
        switch damage {
        case "trailing text": try (signed + "text after the signature\n").write(toFile: checkpoint, atomically: false, encoding: .utf8)
        case "huge": try Data(repeating: 0x41, count: 1 << 20).write(to: URL(fileURLWithPath: checkpoint))
        case "directory": try FileManager.default.createDirectory(atPath: checkpoint, withIntermediateDirectories: false)
        default: try "not a checkpoint\n".write(toFile: checkpoint, atomically: false, encoding: .utf8)
        }
        let verify = try fixture.veritrail(["log", "verify", "--json"])
        #expect(verify.exit == 65 && verify.stdout.hasPrefix("{\"firstBadSeq\":1,\"ok\":false,\"reason\":"), "\(verify.stdout) \(verify.stderr)")
        for proof in [["log", "checkpoint"], ["log", "prove", "1"], ["log", "consistency", "1"], ["log", "checkpoint", "--json"]] {
            let answer = try fixture.veritrail(proof)
            #expect(answer.exit == 65 && answer.stdout.isEmpty && answer.stderr.hasPrefix("veritrail: "), "\(proof): \(answer.stderr)")
        }
        #expect(try fixture.veritrail(["log", "key"]).exit == 0)
        #expect(try fixture.importLines([try StoreFixture.demoLines()[20]]).exit == 74)

        // `verify FILE --checkpoint F` with F missing, oversized or a directory: 65 with a sentence.
        let export = try fixture.write(try fixture.veritrail(["export"]).stdout, "export.ndjson")
        let key = try fixture.veritrail(["log", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let huge = fixture.directory.appendingPathComponent("huge").path
        try Data(repeating: 0x41, count: 1 << 20).write(to: URL(fileURLWithPath: huge))
        for given in [fixture.directory.path + "/none", huge, fixture.directory.path] {
            let answer = try run(fixture.binary, ["verify", export, "--checkpoint", given, "--key", key])
            #expect(answer.exit == 65 && answer.stderr.contains(given), "\(given): \(answer.stderr)")
        }
    }

    /// A FIFO where the checkpoint's temporary file used to be, and a link there, hang nothing and are
    /// never written through; a FIFO as the checkpoint answers at once.
    @Test func aFIFOOrALinkBesideTheCheckpointHangsAndRedirectsNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = try StoreFixture.demoLines()
        #expect(try fixture.importLines(Array(lines.prefix(20))).exit == 0)
        #expect(mkfifo(fixture.store + "/checkpoint.tmp", 0o600) == 0)
        let started = Date()
        #expect(try fixture.importLines([lines[20]]).exit == 0)
        #expect(Date().timeIntervalSince(started) < 20)
        try FileManager.default.removeItem(atPath: fixture.store + "/checkpoint.tmp")
        let target = try fixture.write("precious\n", "target")
        try FileManager.default.createSymbolicLink(atPath: fixture.store + "/checkpoint.tmp", withDestinationPath: target)
        #expect(try fixture.importLines([lines[21]]).exit == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
        #expect(try fixture.veritrail(["log", "verify"]).exit == 0)
    }

    /// A checkpoint that lags behind what the data says it signed (its write failed after a commit) is not a
    /// loss: the next write signs the head.
    @Test func aCheckpointBehindTheDataIsCaughtUpByTheNextWrite() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let lines = try StoreFixture.demoLines()
        #expect(try fixture.importLines(Array(lines.prefix(20))).exit == 0)
        let older = try String(contentsOfFile: fixture.store + "/checkpoint", encoding: .utf8)
        #expect(try fixture.importLines([lines[20]]).exit == 0)
        try older.write(toFile: fixture.store + "/checkpoint", atomically: true, encoding: .utf8)
        #expect(try fixture.importLines([lines[21]]).exit == 0)
        #expect(try String(contentsOfFile: fixture.store + "/checkpoint", encoding: .utf8).split(separator: "\n")[1] == "22")
    }

    /// A hidden directory of a creation killed while building is removed when the store is opened; one whose
    /// process still runs stays.
    @Test func aLeftoverNewStoreDirectoryIsRemovedOnOpen() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.importLines(Array(try StoreFixture.demoLines().prefix(5))).exit == 0)
        let dead = fixture.store + "/.new-999999-abcdef", live = fixture.store + "/.new-1-abcdef"
        for directory in [dead, live] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            try "x".write(toFile: directory + "/data.mdb", atomically: false, encoding: .utf8)
        }
        #expect(try fixture.veritrail(["log", "status"]).exit == 0)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
    }
}
