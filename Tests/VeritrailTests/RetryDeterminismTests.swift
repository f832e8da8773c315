import Foundation
import Testing

/// The retry a failed commit asks for (`--id ID`, "run the same command again") writes the same events as the
/// first try, even where the command draws something at random (a scan id, a batch id, a session id, a new
/// passcode's salt), and says it was already recorded, at its seq, even when a later write undid it (issue 18,
/// defects 5 and 13). On the real clock: a retry is stamped later than its first try.
@Suite("retries under --id")
struct RetryDeterminismTests {
    /// The number of events in `s`.
    func events(_ s: RealClockWritesTests.Store) throws -> Int {
        let r = try CLI.run(["log", "status", "--json", "--store", s.path.path])
        return jsonObject(r.stdout)?["events"] as? Int ?? -1
    }

    /// Runs `args` twice under `--id id`: the first writes, the second writes nothing and says so. A retry that
    /// sets a passcode (`attempts`) passes the gate again, and so writes its attempt (the passcode it gives): told
    /// from the log alone whether a guess is the passcode set, a retry would be an oracle without a lockout.
    func twice(_ s: RealClockWritesTests.Store, _ args: [String], id: String, stdin: String? = nil, attempts: Bool = false,
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let first = try s.write(args + ["--id", id], stdin: stdin, sourceLocation: sourceLocation)
        let before = try events(s)
        let second = try s.write(args + ["--id", id], stdin: stdin, sourceLocation: sourceLocation)
        #expect(try events(s) == before + (attempts ? 1 : 0), "the retry wrote nothing: \(args)", sourceLocation: sourceLocation)
        #expect(second.stdout.hasPrefix("already recorded") && second.stdout.contains("event \(id))"),
                "\(args)\n\(second.transcript)", sourceLocation: sourceLocation)
        #expect(!first.stdout.hasPrefix("already recorded"), "\(args)\n\(first.transcript)", sourceLocation: sourceLocation)
    }

    /// A store with the admin `ada` (2468) and the inspector `ines` (1357), both unlocked.
    func twoAccounts() throws -> RealClockWritesTests.Store {
        let s = try RealClockWritesTests.Store()
        try s.write(["init", "--admin", "ada", "--name", "Ada", "--email", "ada@example.org", "--passcode-stdin"], stdin: "2468\n2468\n")
        try s.write(["unlock", "--as", "ada", "--passcode-stdin"], stdin: "2468\n")
        try s.write(["register", "ines", "--role", "inspector", "--name", "Ines", "--email", "ines@example.org", "--as", "ada"])
        try s.write(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "1357\n1357\n")
        try s.write(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n")
        return s
    }

    @Test("commands that draw an id or a salt write once under the same --id")
    func drawnValues() throws {
        let s = try twoAccounts()
        defer { s.remove() }
        try twice(s, ["scan", "--as", "ines", "--code", "https://v.example/p/1", "--product", "Serum", "--category", "Cosmetics",
                      "--result", "authentic"], id: "R-scan")
        let csv = try s.file("b.csv", "code,productName,category,result\nhttps://v.example/p/3,Bag,Leather,authentic\nhttps://v.example/p/4,Bag,Leather,counterfeit\n")
        try twice(s, ["scan", "--as", "ines", "--batch", csv], id: "R-csv")
        let ndjson = #"{"code":"https://v.example/p/5","productName":"Cap","category":"Hats","result":"authentic"}"# + "\n"
        try twice(s, ["scan", "--as", "ines", "--batch", try s.file("b.ndjson", ndjson)], id: "R-ndjson")
        try twice(s, ["scan", "--as", "ines", "--batch", "-"], id: "R-stdin", stdin: ndjson)
        try twice(s, ["register", "dora", "--name", "Dora", "--email", "dora@example.org", "--street", "2 Elm St",
                      "--city", "Lyon", "--zipcode", "69001", "--passcode-stdin"], id: "R-self", stdin: "4321\n4321\n", attempts: true)
        try twice(s, ["session", "record", "--park", "Plainfield", "--start", "00:00", "--end", "00:01",
                      "--jumps", "300", "--calories", "40", "--as", "ines"], id: "R-session")
        // Every other writing command that takes --id.
        try twice(s, ["report", try scanId(s), "--reason", "other", "--message", "odd", "--as", "ines"], id: "R-report")
        try twice(s, ["customer", "status", "dora", "ONBOARDED", "--as", "ada"], id: "R-status")
        try twice(s, ["account", "update", "dora", "--name", "Dora Diaz", "--as", "ada"], id: "R-update")
        try twice(s, ["fitness", "set", "--body-type", "1", "--height-inches", "70", "--as", "ines"], id: "R-fitness")
        try twice(s, ["goal", "set", "--metric", "jumps", "--target", "1000", "--as", "ines"], id: "R-goal")
        try twice(s, ["register", "ivan", "--role", "inspector", "--name", "Ivan", "--email", "ivan@example.org", "--as", "ada"], id: "R-reg")
        try twice(s, ["account", "delete", "ivan", "--yes", "--as", "ada"], id: "R-delete")
        // A retry with other data under the id is refused, and writes nothing.
        let before = try events(s)
        try s.write(["register", "dora2", "--name", "Dora", "--email", "dora2@example.org", "--street", "2 Elm St",
                     "--city", "Lyon", "--zipcode", "69001", "--passcode-stdin", "--id", "R-self"], stdin: "4321\n4321\n", exit: 65)
        #expect(try events(s) == before)
    }

    /// The id of the first scan of `history`.
    func scanId(_ s: RealClockWritesTests.Store) throws -> String {
        let r = try CLI.run(["history", "--window", "all", "--json", "--as", "ines", "--store", s.path.path])
        let scans = jsonObject(r.stdout)?["items"] as? [[String: Any]]
        return try #require(scans?.first?["scanId"] as? String, "\(r.transcript)")
    }

    @Test("a retry of a write superseded since says it was already recorded, at its seq")
    func superseded() throws {
        let s = try twoAccounts()
        defer { s.remove() }
        let first = try s.write(["settings", "set", "--flash", "on", "--as", "ines", "--id", "S-1", "--json"])
        let seq = try #require(((jsonObject(first.stdout)?["events"] as? [[String: Any]])?.first)?["seq"] as? Int)
        try s.write(["settings", "set", "--flash", "off", "--as", "ines"])
        let human = try s.write(["settings", "set", "--flash", "on", "--as", "ines", "--id", "S-1"])
        #expect(human.stdout == "already recorded (seq \(seq), event S-1): nothing written\n", "\(human.transcript)")
        let json = try s.write(["settings", "set", "--flash", "on", "--as", "ines", "--id", "S-1", "--json"])
        #expect(json.stdout == #"{"alreadyRecorded":true,"events":[{"id":"S-1","seq":\#(seq),"type":"settings.changed"}]}"# + "\n",
                "\(json.transcript)")
        let settings = try CLI.run(["settings", "show", "ines", "--json", "--store", s.path.path])
        #expect(jsonObject(settings.stdout)?["flash"] as? Bool == false, "flash stays off: \(settings.transcript)")
    }
}
