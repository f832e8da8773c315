import Foundation
import Testing

/// Issue #23.9: `scan --batch` as people use it: CSV from a pipe, every bad row reported, `;` files, and a
/// word on what it does.
@Suite struct BatchScanTests {
    private func onCopy(_ args: [String], stdin: String? = nil, _ check: (RunResult, URL) throws -> Void) throws {
        try Stores.withDemoCopy { store in
            let r = try CLI.run(args + ["--store", store.path], stdin: stdin.map { Data($0.utf8) })
            try check(r, store)
        }
    }

    private func scans(in store: URL) throws -> Int {
        let status = try CLI.run(["log", "status", "--json", "--store", store.path])
        return ((status.json as? [String: Any])?["byType"] as? [String: Any])?["scan.recorded"] as? Int ?? -1
    }

    /// CSV read from stdin through a pipe (`--batch -`), with its header, is recorded (it was refused in
    /// import's words).
    @Test func csvFromStdinIsRecorded() throws {
        let csv = "code,productName,category,result\nC-b1,Serum,Cosmetics,authentic\nC-b2,Boot,Footwear,counterfeit\n"
        try Stores.withDemoCopy { store in
            // A real pipe, as `cat scans.csv | veritrail scan --batch -` gives it.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "printf '%s' \"$CSV\" | \"$VT\" scan --batch - --as ines --store \"$STORE\""]
            process.environment = ["CSV": csv, "VT": try CLI.binary().path, "STORE": store.path, "VERITRAIL_NOW": "2026-11-21T09:00:00Z",
                                   "PATH": "/usr/bin:/bin"]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            // ines is not unlocked: the batch is read and checked, then the gate asks for the passcode (77).
            #expect(!said.contains("not a JSON object") && !said.contains("imported"), "\(said)")
            #expect(process.terminationStatus == 77, "\(said)")
        }
        // Unlocked first, the same pipe records both scans.
        try Stores.withDemoCopy { store in
            let before = try scans(in: store)
            #expect(try CLI.run(["unlock", "--as", "ines", "--passcode-stdin", "--store", store.path], stdin: Data("1234\n".utf8)).exit == 0)
            let r = try CLI.run(["scan", "--batch", "-", "--as", "ines", "--store", store.path], stdin: Data(csv.utf8))
            #expect(r.exit == 0 && r.stdout.contains("recorded 2 scans"), "\(r.transcript)")
            let after = try scans(in: store)
            #expect(after == before + 2)
            // Written on the real clock (no VERITRAIL_NOW): the log must still verify. It does not on main either
            // ("broken at seq 851: hash mismatch" after a batch on a copy of the demo store): the write path's
            // hashing, which trust-writes fixes (#18, defect 0); known until that is merged.
            let verified = try CLI.run(["log", "verify", "--store", store.path])
            withKnownIssue("a batch written on the real clock breaks log verify on main too (trust-writes, #18)", isIntermittent: true) {
                #expect(verified.exit == 0, "\(verified.transcript)")
            }
        }
    }

    @Test func batchFromStdinAndPasscodeFromStdinAreToldWhatToDo() throws {
        try onCopy(["scan", "--batch", "-", "--passcode-stdin", "--as", "ines"], stdin: "1234\n") { r, _ in
            #expect(r.exit == 64 && r.stderr.contains("both read stdin") && r.stderr.contains("--batch FILE") && !r.stderr.contains("can not too"),
                    "\(r.transcript)")
        }
    }

    @Test func everyBadRowIsReportedAndNothingWritten() throws {
        let csv = "code,productName,category,result\nC-1,P,c,authentic\nC-2,P,c,maybe\nC-3,,c,authentic\nC-4,P,c\n"
        let file = TempDir.fresh("bad.csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try onCopy(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin"], stdin: "1234\n") { r, store in
            #expect(r.exit == 65, "\(r.transcript)")
            #expect(r.stderr.contains("3 records refused"), "\(r.transcript)")
            #expect(r.stderr.contains("(line 3): result: must be") && r.stderr.contains("(line 4): productName: is required")
                    && r.stderr.contains("line 5: 3 fields, the header has 4"), "\(r.transcript)")
            let after = try scans(in: store), demo = try scans(in: Stores.demo)
            #expect(after == demo)
        }
    }

    /// The batch is read twice (checked, then appended as it is read again): a bad last row of a large file
    /// still refuses the whole batch before anything is written, naming its line, and a last row that breaks
    /// a rule only the log can tell (its scan id is taken) ends the one write with nothing written, naming
    /// its line too.
    @Test func aBadLastRowOfALargeBatchWritesNothing() throws {
        let rows = (1...5_000).map { "C-last-\($0),Serum,Cosmetics,authentic" }
        for (last, said) in [("C-last-x,Serum,Cosmetics,maybe", "record 5001 (line 5002): result: must be"),
                             ("C-last-y,Serum,Cosmetics,authentic,s-taken-1", "line 5002: ")] {
            let header = last.hasSuffix("s-taken-1") ? "code,productName,category,result,scanId\n" : "code,productName,category,result\n"
            let body = last.hasSuffix("s-taken-1") ? rows.map { $0 + "," } : rows
            let file = TempDir.fresh("last.csv")
            try Data((header + body.joined(separator: "\n") + "\n" + last + "\n").utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            try Stores.withDemoCopy { store in
                let single = try CLI.run(["scan", "--code", "C-taken", "--product", "P", "--category", "c", "--result", "authentic",
                                          "--scan-id", "s-taken-1", "--as", "ines", "--passcode-stdin", "--store", store.path],
                                         stdin: Data("1234\n".utf8))
                #expect(single.exit == 0, "\(single.transcript)")
                let before = try scans(in: store)
                let r = try CLI.run(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin", "--store", store.path],
                                    stdin: Data("1234\n".utf8))
                #expect(r.exit == 65 && r.stderr.contains(said), "\(r.transcript)")
                #expect(try scans(in: store) == before)
            }
        }
    }

    /// `--json` answers every event of the batch and every scan seen before, written as they are read back:
    /// the same bytes as a write's answer built whole (`Answers.events`), and as a retry under the same id.
    @Test func theJSONAnswerListsEveryEventInTheWritesForm() throws {
        let rows = (1...2_100).map { "C-json-\($0 % 700),Serum,Cosmetics,authentic" }
        let file = TempDir.fresh("json.csv")
        try Data(("code,productName,category,result\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try Stores.withDemoCopy { store in
            let args = ["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin", "--json", "--id", "batch-json-1", "--store", store.path]
            let r = try CLI.run(args, stdin: Data("1234\n".utf8))
            #expect(r.exit == 0, "\(r.transcript)")
            let answer = try #require(r.json as? [String: Any])
            let events = try #require(answer["events"] as? [[String: Any]])
            #expect(events.count == 2_100)
            #expect(events.first?["id"] as? String == "batch-json-1" && events.last?["id"] as? String == "batch-json-1.2100")
            let seqs = events.compactMap { $0["seq"] as? Int }
            #expect(seqs == Array(seqs[0]..<seqs[0] + 2_100))
            #expect((answer["seenBefore"] as? [Any])?.count == 1_400)
            #expect(r.stdout.hasPrefix(#"{"events":[{"id":"batch-json-1","seq":"#) && r.stdout.hasSuffix("]}\n"))
            let again = try CLI.run(args, stdin: Data("1234\n".utf8))
            #expect(again.exit == 0, "\(again.transcript)")
            let retried = try #require(again.json as? [String: Any])
            #expect(retried["alreadyRecorded"] as? Bool == true && (retried["events"] as? [Any])?.count == 2_100)
            #expect((retried["seenBefore"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: [";", "\t"])
    func aSemicolonOrTabSeparatedFileIsRead(separator: String) throws {
        let rows = [["code", "productName", "category", "result"], ["C-s1", "Crème; 30 ml", "Cosmetics", "authentic"]]
        let csv = rows.map { $0.map { $0.contains(separator) ? "\"\($0)\"" : $0 }.joined(separator: separator) }.joined(separator: "\n") + "\n"
        let file = TempDir.fresh("semi.csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try onCopy(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin"], stdin: "1234\n") { r, store in
            #expect(r.exit == 0 && r.stdout.contains("recorded 1 scan in batch"), "\(r.transcript)")
            let shown = try CLI.run(["history", "--search", "C-s1", "--window", "all", "--json", "--store", store.path])
            #expect(shown.stdout.contains("Crème; 30 ml"), "\(shown.transcript)")
        }
    }

    /// The answer says which codes of the batch were seen before (projections.md §1 `seenBefore`): a code
    /// of the log's and a code the batch holds twice, human and --json; a batch of new codes says none was.
    @Test func theAnswerSaysWhichCodesWereSeenBefore() throws {
        let known = "https://verify.veritrail.example/c/GLEN-243fe25e67"
        let csv = "code,productName,category,result\n\(known),Whisky,Spirits,authentic\nC-new-1,Serum,Cosmetics,authentic\n"
            + "C-new-1,Serum,Cosmetics,counterfeit\nC-new-2,Boot,Footwear,authentic\n"
        let file = TempDir.fresh("seen.csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try onCopy(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin"], stdin: "1234\n") { r, _ in
            #expect(r.exit == 0, "\(r.transcript)")
            #expect(r.stdout.contains("2 scans' codes were seen before (worth a second look):"), "\(r.transcript)")
            #expect(r.stdout.contains("  C-new-1  seen 1 time before  (scan s-"), "\(r.transcript)")
            #expect(r.stdout.contains("  \(known)  seen "), "\(r.transcript)")
            #expect(!r.stdout.contains("C-new-2"), "\(r.transcript)")
        }
        try onCopy(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin", "--json"], stdin: "1234\n") { r, store in
            #expect(r.exit == 0, "\(r.transcript)")
            let answer = try #require(r.json as? [String: Any])
            #expect((answer["events"] as? [Any])?.count == 4)
            let seen = try #require(answer["seenBefore"] as? [[String: Any]])
            #expect(seen.map { $0["code"] as? String } == [known, "C-new-1"], "\(r.stdout)")
            #expect(seen[1]["seenBefore"] as? Int == 1)
            // The count is the one `show` gives for the same scan.
            let scanId = try #require(seen[0]["scanId"] as? String)
            let shown = try CLI.run(["show", scanId, "--json", "--store", store.path])
            #expect((shown.json as? [String: Any])?["seenBefore"] as? Int == seen[0]["seenBefore"] as? Int, "\(shown.transcript)")
        }
        let fresh = TempDir.fresh("fresh.csv")
        try Data("code,productName,category,result\nC-only-1,P,c,authentic\n".utf8).write(to: fresh)
        defer { try? FileManager.default.removeItem(at: fresh) }
        try onCopy(["scan", "--batch", fresh.path, "--as", "ines", "--passcode-stdin"], stdin: "1234\n") { r, _ in
            #expect(r.exit == 0 && r.stdout.contains("no code of the batch was seen before"), "\(r.transcript)")
        }
    }

    /// The write after the passcode shows how far it got on a terminal (stderr), and clears it; a pipe gets
    /// no bar at all.
    @Test func theWriteShowsItsProgressOnATerminalOnly() throws {
        let rows = (1...3_000).map { "C-bar-\($0),Serum,Cosmetics,authentic" }
        let file = TempDir.fresh("bar.csv")
        try Data(("code,productName,category,result\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try Stores.withDemoCopy { store in
            #expect(try CLI.run(["unlock", "--as", "ines", "--passcode-stdin", "--store", store.path], stdin: Data("1234\n".utf8)).exit == 0)
            let screen = try PseudoTerminal.run(["scan", "--batch", file.path, "--as", "ines", "--store", store.path])
            #expect(screen.exit == 0, "\(screen.transcript)")
            #expect(screen.raw.contains("recording scans") && screen.raw.contains("1024/3000 scans") && screen.raw.contains("3000/3000 scans"),
                    "\(screen.transcript)")
            #expect(!screen.rows.contains { $0.contains("recording scans") || $0.contains("█") }, "\(screen.transcript)")
            #expect(screen.rows.contains { $0.hasPrefix("recorded 3000 scans in batch b-") }, "\(screen.transcript)")
        }
        try onCopy(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin"], stdin: "1234\n") { r, _ in
            #expect(r.exit == 0 && !r.stderr.contains("recording") && !r.stderr.contains("█"), "\(r.transcript)")
        }
    }

    /// A CSV header is read as spreadsheets write it (a byte order mark, CRLF, `Product Name`, `scan_id`), and a
    /// header of another separator or other columns is told so in one sentence, before any row, and nothing
    /// is written.
    @Test(arguments: [
        ("\u{FEFF}code,productName,category,result\r\nC-h1,P,c,authentic\r\n", nil),
        ("Code;Product Name;CATEGORY;Result;scan_id\nC-h2;P;c;authentic;s-h2-1\n", nil),
        ("code|productName|category|result\nC-h3|P|c|authentic\n",
         "line 1 (the header) is one column \"code|productName|category|result\": separate the columns with a comma, a semicolon or a tab"),
        ("code,product,category,result\nC-h4,P,c,authentic\n", "line 1 (the header) names \"product\", not a scan's field: the columns are code, productName"),
        ("code,productName,result\nC-h5,P,authentic\n", "line 1 (the header) lacks the column category"),
    ] as [(String, String?)])
    func aCSVHeaderIsReadAsPeopleWriteItOrRefusedInOneSentence(csv: String, refusal: String?) throws {
        let file = TempDir.fresh("header.csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try onCopy(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin"], stdin: "1234\n") { r, store in
            if let refusal {
                #expect(r.exit == 65 && r.stderr.contains(refusal) && !r.stderr.contains("is required"), "\(r.transcript)")
                let after = try scans(in: store), demo = try scans(in: Stores.demo)
                #expect(after == demo)
            } else {
                #expect(r.exit == 0 && r.stdout.contains("recorded 1 scan in batch"), "\(r.transcript)")
            }
        }
    }
    /// Codes of two thousand characters that five thousand scans share the start of: the search index's pieces
    /// of them are longer than an LMDB key holds, which failed the whole batch (MDB_BAD_VALSIZE, 74) once a chunk
    /// of the index filled. They are recorded, found, and rebuilt to the same answers.
    @Test func longCodesSharedByManyScansAreRecordedAndFound() throws {
        let long = String(repeating: "x", count: 2_000)
        let csv = "code,productName,category,result\n" + (0..<5_000).map { "L-\($0)-\(long),P,Toys,authentic\n" }.joined()
        try Stores.withDemoCopy { store in
            let file = store.appendingPathComponent("long.csv")
            try csv.write(to: file, atomically: true, encoding: .utf8)
            let r = try CLI.run(["scan", "--batch", file.path, "--as", "ines", "--passcode-stdin", "--store", store.path],
                                stdin: Data("1234\n".utf8))
            #expect(r.exit == 0 && r.stdout.contains("recorded 5000 scans"), "\(r.transcript.prefix(600))")
            let search = ["history", "--search", "L-4999-xxxxxxxxxx", "--window", "all", "--json", "--store", store.path]
            let found = try CLI.run(search)
            #expect((found.json as? [String: Any])?["total"] as? Int == 1, "\(found.stdout.prefix(300))")
            #expect(try CLI.run(["rebuild", "--store", store.path]).exit == 0)
            #expect(try CLI.run(search).stdout == found.stdout)
            #expect(try CLI.run(["log", "verify", "--store", store.path]).exit == 0)
        }
    }
}

