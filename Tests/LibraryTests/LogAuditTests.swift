import Foundation
import Testing
import VeritrailKit

/// The auditor's calls of the library (`log status | tail | digest | verify`, the proofs, `export` and
/// `verify FILE`), through `import VeritrailKit` only, on a real store of five events (the admin's register asks for a passcode: an attempt is recorded).
@Suite struct LogAuditTests {
    let directory: TemporaryDirectory
    let clock = TestClock("2026-11-20T10:00:00Z")
    let store: VeritrailStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try VeritrailStore.withAdmin(in: directory, clock: clock, origin: "audit.example/log")
        clock.advance(seconds: 60)
        try store.register(NewAccount(username: "ines", name: "Inès Duval", email: "ines@example.org", role: .inspector),
                           as: "admin", passcode: { _ in "2468" })
        clock.advance(seconds: 60)
        try store.setPasscode(to: "1357", as: "ines")
    }

    @Test func theStatusAndTheHeadAreTheLogsOrTheLogCutAsOfAnEarlierEvent() throws {
        let status = try store.logStatus()
        #expect(status["events"]?.intValue == 5)
        #expect(status["origin"]?.stringValue == "audit.example/log")
        #expect(status["byType"]?["account.registered"]?.intValue == 2)
        #expect(status["head"]?["hash"]?.stringValue == Hex.encode(try store.head().hash))
        let cut = try store.logStatus(asOf: .seq(2))
        #expect(cut["events"]?.intValue == 2)
        #expect(cut["lastAt"]?.stringValue == "2026-11-20T10:00:00Z")
        let head2 = try store.head(asOf: .seq(2))
        #expect(head2.seq == 2 && cut["head"]?["hash"]?.stringValue == Hex.encode(head2.hash))
        #expect(try store.head(asOf: .seq(99)) == store.head())
        #expect(try store.head(asOf: nil).seq == 5)
    }

    @Test func aDigestReadsAsItIsWritten() throws {
        let digest = try store.head().digest
        #expect(LogDigest(digest)?.description == digest)
        #expect(LogDigest(digest)?.seq == 5)
        #expect(LogDigest("4:abc") == nil && LogDigest("x:" + String(repeating: "0", count: 64)) == nil)
    }

    @Test func theTailKeepsWhatTheFilterAndAsOfKeep() throws {
        var lines: [String] = []
        try store.tail(LogFilter(actors: ["admin"], types: [.accountRegistered]), line: { lines.append(String(decoding: $0, as: UTF8.self)) })
        #expect(lines.count == 1 && lines[0].hasSuffix("\n") && lines[0].contains(#""seq":4"#))
        var seqs: [UInt64] = []
        let count = try store.tail(LogFilter(last: 2), asOf: .seq(3), event: { seq, event in
            seqs.append(seq)
            #expect(event.actor == (seq == 2 ? "system" : "admin"))
        })
        #expect(count == 2 && seqs == [2, 3])
        #expect(try store.tail(LogFilter(since: Timestamp("2026-11-20T10:01:30Z")), line: { _ in }) == 1)
        #expect(throws: VeritrailError.self) { try store.tail(LogFilter(actors: ["nobody"]), line: { _ in }) }
        do {
            try store.tail(LogFilter(actors: ["nobody"]), line: { _ in })
        } catch {
            #expect(error.exitCode == 65 && error.description == #"no such account "nobody" (--actor)"#)
        }
    }

    /// The last N matches of a filter by type or actor are found in windows read from the end back, each four
    /// times as wide as the one after it (`LogFilter.forEach`): for every N across the windows' edges, and
    /// matches many, few, or only near the start, they are the last N of every match read from the start.
    @Test func theLastMatchesAreTheLastOfEveryMatch() throws {
        try store.unlock("ines", passcode: "1357")
        for i in 0..<150 {
            clock.advance(seconds: 1)
            if i % 10 == 9 {
                try store.setGoal(.jumps, target: Int64(i), as: "ines")
            } else {
                try store.scan(NewScan(code: "w-\(i)", productName: "P", category: "Toys", result: .authentic), as: "ines")
            }
        }
        let filters = [
            LogFilter(types: [.scanRecorded]), LogFilter(types: [.goalSet]), LogFilter(actors: ["admin"]),
            LogFilter(actors: ["ines"], types: [.goalSet, .passcodeSet]), LogFilter(from: 20, through: 120, types: [.goalSet]),
            LogFilter(through: 90, actors: ["ines"]), LogFilter(types: [.accountDeleted]),
        ]
        for filter in filters {
            var every: [UInt64] = []
            try store.tail(filter, event: { seq, _ in every.append(seq) })
            for n in [1, 2, 3, 4, 5, 6, 15, 16, 17, 20, 21, 63, 64, 65, 84, 85, 86, 200] {
                var last = filter
                last.last = n
                var seqs: [UInt64] = []
                try store.tail(last, event: { seq, _ in seqs.append(seq) })
                #expect(seqs == Array(every.suffix(n)), "\(filter), last \(n)")
            }
        }
    }

    /// The windows read back from the end lie side by side, newest first, from `high` down to `low` exactly,
    /// the first `first` wide and each after it four times as wide as the one before, but the last, cut at `low`.
    @Test func theWindowsBackTileTheRangeFromItsEnd() {
        for (high, low, first) in [(UInt64(100), UInt64(1), 1), (100, 1, 3), (100, 100, 10), (5, 1, 10), (1_000_000, 17, 10),
                                   (64, 1, 1), (85, 1, 1), (86, 1, 1)] {
            let windows = Array(LogFilter.windowsBack(from: high, to: low, first: first))
            #expect(windows.first?.upperBound == high && windows.last?.lowerBound == low, "\(high) \(low) \(first)")
            for (newer, older) in zip(windows, windows.dropFirst()) { #expect(older.upperBound + 1 == newer.lowerBound) }
            for (i, window) in windows.enumerated() where window.lowerBound > low {
                #expect(UInt64(window.count) == UInt64(first) << (2 * UInt64(i)), "\(high) \(low) \(first): window \(i)")
            }
        }
        #expect(Array(LogFilter.windowsBack(from: 4, to: 5, first: 3)).isEmpty)
        #expect(Array(LogFilter.windowsBack(from: 0, to: 1, first: 3)).isEmpty)
    }

    @Test func theLogVerifiesWithItsDigestItsCheckpointAndAsOf() throws {
        let head = try store.head()
        #expect(try store.verify() == .ok(events: 5, head: head))
        #expect(try store.verify(digest: LogDigest(head.digest)) == .ok(events: 5, head: head))
        let wrong = LogDigest(seq: 2, hash: head.hash)
        #expect(try store.verify(digest: wrong) == .broken(firstBadSeq: 2, reason: "the digest's hash differs from the log's hash at seq 2"))
        let head2 = try store.head(asOf: .seq(2))
        #expect(try store.verify(asOf: .seq(2)) == .ok(events: 2, head: head2))
    }

    @Test func theProofsAreOfTheTreeAndSignedWithTheStoresKey() throws {
        let key = try store.verifierKey()
        #expect(key.origin == "audit.example/log" && key.text.hasPrefix("audit.example/log+"))
        #expect(try LogKey(parsing: key.text) == key)
        #expect(throws: VeritrailError.self) { try LogKey(parsing: "not a key") }

        let checkpoint = try store.checkpoint()
        #expect(checkpoint.size == 5 && checkpoint.origin == key.origin && checkpoint.root.count == 32)
        #expect(checkpoint.note.hasPrefix("audit.example/log\n5\n"))

        let inclusion = try store.inclusionProof(seq: 3)
        #expect(inclusion.size == 5 && inclusion.root == checkpoint.root && inclusion.path.count == 3)
        #expect(inclusion.text.hasPrefix("c2sp.org/tlog-proof@v1\nindex 2\n"))
        let consistency = try store.consistencyProof(old: 2)
        let old = try store.checkpoint(size: 2)
        #expect(consistency.size == 5 && consistency.oldRoot == old.root)
        #expect(consistency.text.hasPrefix("old 2\n"))

        do {
            _ = try store.inclusionProof(seq: 6)
            Issue.record("a seq beyond the tree was proven")
        } catch {
            #expect(error.exitCode == 65 && error.description == "SEQ 6 is beyond the tree's size (5)")
        }
        do {
            _ = try store.consistencyProof(old: 1, size: 9)
            Issue.record("a size beyond the head was proven")
        } catch {
            #expect(error.description == "--size 9 is beyond the log's head (5 events)")
        }
    }

    @Test func anExportChecksAgainstTheSignedCheckpointAndATamperedOneDoesNot() throws {
        let path = directory.path + "/export.ndjson"
        #expect(try store.export(to: path) == 5)
        var sink: [[UInt8]] = []
        #expect(try store.export(filter: LogFilter(from: 2, through: 3)) { sink.append($0) } == 2)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(sink.map { String(decoding: $0.dropLast(), as: UTF8.self) } == Array(lines[1...2]))

        let key = try store.verifierKey()
        let note = try store.checkpoint(size: 3).note
        let head = try store.head()
        #expect(Self.check(lines, ExportCheck(signedCheckpoint: note, key: key)) == .ok(events: 5, head: head))
        #expect(Self.check(Array(lines.prefix(2)), ExportCheck(signedCheckpoint: note, key: key))
            == .broken(firstBadSeq: 3, reason: "the export holds 2 events, the checkpoint covers 3"))
        var tampered = lines
        tampered[1] = tampered[1].replacingOccurrences(of: "2026", with: "2025")
        guard case .broken(let seq, _) = Self.check(tampered, ExportCheck()) else {
            Issue.record("a changed export verified")
            return
        }
        #expect(seq == 2)

        let notePath = directory.path + "/checkpoint.txt"
        try note.write(toFile: notePath, atomically: true, encoding: .utf8)
        #expect(try ExportCheck.readSmallFile(path: notePath) == note)
        // A checkpoint file that is missing, a directory or too large is a refused input (65), in a sentence.
        for (path, said) in [(directory.path + "/none", "no such file: \(directory.path)/none"),
                             (directory.path, "\(directory.path) is a directory, not a regular file")] {
            do {
                _ = try ExportCheck.readSmallFile(path: path)
                Issue.record("\(path) was read as a checkpoint")
            } catch {
                #expect(error.exitCode == 65 && error.description == said)
            }
        }
    }

    /// Feeds `lines` to `check` as a reader of the file would, and gives its outcome.
    static func check(_ lines: [String], _ check: ExportCheck) -> VerificationOutcome {
        var check = check
        for (i, line) in lines.enumerated() where !check.isBroken {
            Array(line.utf8).withUnsafeBytes { check.check(line: $0, number: i + 1) }
        }
        return check.outcome
    }
}
