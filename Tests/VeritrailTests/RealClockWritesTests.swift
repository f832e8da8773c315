@testable import Engine
import EventLog
import Foundation
import LMDB
@testable import Projections
import Testing

/// Every writing command on the real clock (no `VERITRAIL_NOW`), each followed by `log verify`: the chain, the
/// Merkle tree and the signed checkpoint must hold after every one (issue 18, defect 0: a batch read at one
/// time and written at another was hashed with the first). Tests that pin the clock stamp every event with the
/// same time and can not see such a fault.
@Suite("writes on the real clock")
struct RealClockWritesTests {
    /// A store directory, and the commands run against it with the real clock.
    struct Store {
        let path = TempDir.fresh("real-clock")
        let files = TempDir.fresh("real-clock-files")

        init() throws {
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        }

        func remove() {
            try? FileManager.default.removeItem(at: path)
            try? FileManager.default.removeItem(at: files)
        }

        /// Runs `args` on the store; expects `exit`, then checks that `log verify` accepts the log.
        @discardableResult
        func write(_ args: [String], stdin: String? = nil, exit: Int32 = 0,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
            let r = try CLI.run(args + ["--store", path.path], stdin: stdin.map { Data($0.utf8) })
            #expect(r.exit == exit, "veritrail \(args.joined(separator: " "))\n\(r.transcript)", sourceLocation: sourceLocation)
            try verified(after: args, sourceLocation: sourceLocation)
            return r
        }

        func verified(after args: [String], sourceLocation: SourceLocation) throws {
            let v = try CLI.run(["log", "verify", "--json", "--store", path.path])
            let answer = jsonObject(v.stdout)
            #expect(v.exit == 0 && answer?["ok"] as? Bool == true,
                    "log verify after `\(args.joined(separator: " "))`:\n\(v.transcript)", sourceLocation: sourceLocation)
        }

        func file(_ name: String, _ text: String) throws -> String {
            let url = files.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
    }

    /// The time now and `seconds` later, as an event's `at` with microseconds.
    static func at(_ seconds: Double = 0) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'"
        return f.string(from: Date().addingTimeInterval(seconds))
    }

    @Test("every writing command of the command line leaves a log that verifies")
    func everyCommand() throws {
        let s = try Store()
        defer { s.remove() }
        try s.write(["init", "--admin", "ada", "--name", "Ada", "--email", "ada@example.org", "--passcode-stdin"], stdin: "2468\n2468\n")
        try s.write(["unlock", "--as", "ada", "--passcode-stdin"], stdin: "2468\n")
        try s.write(["register", "ines", "--role", "inspector", "--name", "Ines", "--email", "ines@example.org", "--as", "ada"])
        try s.write(["passcode", "set", "ines", "--as", "ada", "--passcode-stdin"], stdin: "1357\n1357\n")
        try s.write(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "0000\n", exit: 77)   // a denied attempt is written
        try s.write(["unlock", "--as", "ines", "--passcode-stdin"], stdin: "1357\n")
        try s.write(["register", "dora", "--name", "Dora", "--email", "dora@example.org", "--street", "2 Elm St",
                     "--city", "Lyon", "--zipcode", "69001", "--passcode-stdin"], stdin: "4321\n4321\n")
        try s.write(["account", "update", "dora", "--name", "Dora Diaz", "--as", "ada"])
        try s.write(["settings", "set", "--flash", "on", "--as", "ines"])
        try s.write(["scan", "--as", "ines", "--code", "https://v.example/p/1", "--product", "Serum", "--category", "Cosmetics",
                     "--result", "authentic", "--scan-id", "s-real-1"])
        try s.write(["scan", "--as", "ines", "--code", "https://v.example/p/2", "--product", "Serum", "--category", "Cosmetics",
                     "--result", "counterfeit"])
        let csv = try s.file("b.csv", "code,productName,category,result\nhttps://v.example/p/3,Bag,Leather,authentic\nhttps://v.example/p/4,Bag,Leather,counterfeit\n")
        try s.write(["scan", "--as", "ines", "--batch", csv])
        let ndjson = #"{"code":"https://v.example/p/5","productName":"Cap","category":"Hats","result":"authentic"}"# + "\n"
            + #"{"code":"https://v.example/p/6","productName":"Cap","category":"Hats","result":"authentic","scanId":"s-real-6"}"# + "\n"
        try s.write(["scan", "--as", "ines", "--batch", try s.file("b.ndjson", ndjson)])
        try s.write(["scan", "--as", "ines", "--batch", "-"], stdin: ndjson.replacingOccurrences(of: "s-real-6", with: "s-real-7"))
        try s.write(["report", "s-real-1", "--reason", "packaging", "--message", "box misprinted", "--as", "ines"])
        try s.write(["customer", "status", "dora", "ONBOARDED", "--note", "called back", "--as", "ada"])
        try s.write(["search", "serum", "--as", "ines"])
        try s.write(["fitness", "set", "--body-type", "1", "--height-inches", "70", "--as", "ines"])
        try s.write(["goal", "set", "--metric", "jumps", "--target", "1000", "--as", "ines"])
        try s.write(["session", "record", "--session-id", "ses-1", "--park", "Plainfield", "--start", "00:00", "--end", "00:01",
                     "--jumps", "300", "--calories", "40", "--as", "ines"])
        try s.write(["passcode", "set", "--as", "ines", "--passcode-stdin"], stdin: "1357\n2468\n2468\n")
        try s.write(["account", "delete", "dora", "--reason", "moved away", "--yes", "--as", "ada"])
        let line = { (id: String) in
            #"{"type":"search.performed","at":"\#(Self.at(1))","actor":"ines","id":"\#(id)","data":{"username":"ines","query":"bag"}}"# + "\n"
        }
        try s.write(["import", try s.file("more.ndjson", line("imp-1"))])
        try s.write(["import", "-"], stdin: line("imp-2"))
    }

    /// An input of 1 MiB or more is written as a large write (paged, and reading only the pages it touches:
    /// `Environment.write(large:)`): into a new store, then into that store again, where every code was scanned
    /// before (each is looked up behind the write's frontier).
    @Test("a large import into a new store, then a large one on top of it")
    func largeImportsIntoANewStoreThenOnTop() throws {
        let s = try Store()
        defer { s.remove() }
        let register = #"{"type":"account.registered","at":"\#(Self.at(-60))","actor":"system","data":{"username":"ada","role":"admin","name":"Ada","email":"ada@example.org"}}"#
        /// `count` scans by ada, ids from `first`, the codes of 1,500 products, 1.3 MB or so.
        func scans(from first: Int, count: Int, at seconds: Double) -> String {
            (first..<(first + count)).map { i in
                #"{"type":"scan.recorded","at":"\#(Self.at(seconds))","actor":"ada","data":{"scanId":"s-large-\#(i)","code":"https://verify.example/c/product-\#(i % 1_500)?lot=\#(i % 7)","productName":"Product \#(i % 1_500)","category":"Cosmetics","result":"authentic","mode":"single","source":"camera","flash":false}}"#
            }.joined(separator: "\n") + "\n"
        }
        let first = register + "\n" + scans(from: 0, count: 5_000, at: -30)
        let again = scans(from: 5_000, count: 5_000, at: -10)
        #expect(first.utf8.count >= 1 << 20 && again.utf8.count >= 1 << 20, "each input is a large write")
        try s.write(["import", try s.file("first.ndjson", first)])
        try s.write(["import", try s.file("again.ndjson", again)])
    }

    /// `rebuild` of a store written on the real clock: one that keeps the search index, one that keeps an index
    /// of form 10 and lists its reports from the rows (`Models.completeKeptSearchIndex`), then one that makes it
    /// again (its mark deleted, as for an index of another form: emptied in transactions of its own first),
    /// then an import on top, each followed by `log verify`, the search's answers, at the head and as of a
    /// point between the reports, the same throughout.
    @Test("a rebuild, one of a form 10 index, one that makes the search index again, then an import on top")
    func rebuildsThenAnImport() throws {
        let s = try Store()
        defer { s.remove() }
        let register = #"{"type":"account.registered","at":"\#(Self.at(-60))","actor":"system","data":{"username":"ada","role":"admin","name":"Ada","email":"ada@example.org"}}"#
        let scans = (0..<2_000).map { i in
            #"{"type":"scan.recorded","at":"\#(Self.at(-30))","actor":"ada","data":{"scanId":"s-rb-\#(i)","code":"https://verify.example/c/item-\#(i % 300)?lot=\#(i % 7)","productName":"Item \#(i % 300)","category":"Cosmetics","result":"authentic","mode":"single","source":"camera","flash":false}}"#
        }
        // 20 reports with a message (events 2,002 to 2,021), on scans of item-1NN.
        let reports = (0..<20).map { i in
            #"{"type":"counterfeit.reported","at":"\#(Self.at(-20))","actor":"ada","data":{"scanId":"s-rb-\#(100 + i)","reason":"other","message":"QR sticker over the code"}}"#
        }
        try s.write(["import", try s.file("scans.ndjson", ([register] + scans + reports).joined(separator: "\n") + "\n")])
        func total(_ needle: String = "item-1", asOf: [String] = []) throws -> Int? {
            let r = try CLI.run(["history", "--search", needle, "--window", "all", "--limit", "1", "--json", "--store", s.path.path] + asOf)
            return jsonObject(r.stdout)?["total"] as? Int
        }
        let before = try total()
        #expect(before == 777, "item-1, item-1N and item-1NN: 111 of the 300 items, each 7 times in 2,000 scans")
        let reported = { try total("sticker over", asOf: ["--as-of", "2011"]) }
        #expect(try reported() == 10)
        try s.write(["rebuild"])
        #expect(try total() == before)
        let store = try Engine.Store(directory: s.path.path)
        try store.log.environment.write { txn in
            let tables = StoredTables(transaction: txn, databases: store.modelDatabases)
            try tables.delete(.search, SearchIndex.reportSeqsKey(chunk: 0))
            try tables.delete(.search, SearchIndex.readyKey)
            try tables.put(.search, SearchIndex.readyKey(form: 10), [])
        }
        #expect(try reported() == 10, "form 10: from the rows")
        try s.write(["rebuild"])
        #expect(try store.read { _, models in try models.searchIndexIsCurrent() })
        #expect(try store.read { _, models in
            try models.tables.withValue(.search, SearchIndex.reportSeqsKey(chunk: 0)) { $0 != nil }
        }, "the reports listed from the rows")
        #expect(try total() == before)
        #expect(try reported() == 10)
        try store.log.environment.write { txn in
            try StoredTables(transaction: txn, databases: store.modelDatabases).delete(.search, SearchIndex.readyKey)
        }
        try s.write(["rebuild"])
        #expect(try store.read { _, models in try models.searchIndexIsCurrent() })
        #expect(try total() == before)
        let more = #"{"type":"scan.recorded","at":"\#(Self.at(-1))","actor":"ada","data":{"scanId":"s-rb-more","code":"https://verify.example/c/item-1?lot=9","productName":"Item 1","category":"Cosmetics","result":"authentic","mode":"single","source":"camera","flash":false}}"#
        try s.write(["import", "-"], stdin: more + "\n")
        #expect(try total() == before.map { $0 + 1 })
    }

    @Test("an import into a new store, then writes on top of it")
    func importThenWrite() throws {
        let s = try Store()
        defer { s.remove() }
        let lines = [
            #"{"type":"account.registered","at":"\#(Self.at(-2))","actor":"system","data":{"username":"ada","role":"admin","name":"Ada","email":"ada@example.org"}}"#,
            #"{"type":"account.registered","at":"\#(Self.at(-1))","actor":"ada","data":{"username":"ines","role":"inspector","name":"Ines","email":"ines@example.org"}}"#,
        ]
        try s.write(["import", try s.file("new.ndjson", lines.joined(separator: "\n") + "\n")])
        try s.write(["search", "serum", "--as", "ines"])
    }
}
