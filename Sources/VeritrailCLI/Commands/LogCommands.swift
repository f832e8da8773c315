import ArgumentParser
import VeritrailKit

/// `log status | tail | verify | digest` (projections.md §7): the log as it is stored, or as it was after
/// an earlier event with `--as-of` (cli.md §7). `--now` hides nothing from them.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Look at the log itself: its status, its last events, its hash chain.",
        discussion: """
        Examples:
          veritrail log status --json
          veritrail log tail -n 5 --actor ines --since 2026-11-01T00:00:00Z
          d=$(veritrail log digest --as-of 120)
          veritrail log verify --digest "$d"
          veritrail log prove 120
          veritrail log reseal --accept-loss
        """,
        subcommands: [Status.self, Tail.self, Verify.self, Digest.self, Key.self, CheckpointCommand.self, Prove.self, Consistency.self,
                      Reseal.self]
    )

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "How many events, the head, the first and last times, and the events per type.",
            discussion: "Example: veritrail log status --as-of 120 --store demo-store --json"
        )
        /// `--as-of` cuts the log; `--now` is accepted like everywhere and hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let status = try ServerConnection.of(global).map { try $0.authorized("GET", "/v1/log/status", clock.asOf.map { [("asOf", $0)] } ?? []).json }
                    ?? global.openViewing(asOf: clock.asOfValue).logStatus(asOf: clock.asOfValue)
                Human.absoluteTimes = clock.utc
                if global.json { Output.json(status) } else { Pager.page(Human.logStatus(status, now: environmentNow())) }
            }
        }
    }

    struct Tail: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tail",
            abstract: "The last events of the log, one sentence each (--json: the out form), with filters.",
            usage: "veritrail log tail [-n <N>] [--from <seq>] [--to <seq>] [--since <time>] [--until <time>] [--actor <user>]... [--type <type>]... [<options>]",
            discussion: """
            Examples:
              veritrail log tail -n 5 --store demo-store
              veritrail log tail -n 50 --actor admin --type status.changed \\
                --since 2026-11-01T00:00:00Z --utc
            """
        )
        @OptionGroup var filter: LogFilterOptions
        @Flag(help: "Then print each new event as it commits, until interrupted (a local store, or --server).") var follow = false
        /// `--as-of` cuts the log; `--now` sets the clock of the relative times and hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if follow && clock.asOf != nil { throw ValidationError("--follow prints the events to come: it does not take --as-of") }
        }

        func run() throws {
            try runReporting {
                let out = BufferedOutput(fd: 1)
                let style = TimeStyle(now: clock.nowValue ?? environmentNow(), utc: clock.utc)
                let shortenCodes = Output.stdoutIsTerminal
                var rows: [(seq: String, at: String, what: String)] = []
                // Following, the last events are those up to the head seen first; the follower goes on after it.
                var head: UInt64 = .max
                var filter = filter
                let follower = LogFollower(filter: filter, json: global.json, style: style, shortenCodes: shortenCodes)
                if let server = try ServerConnection.of(global) {
                    if follow {
                        head = UInt64(try server.authorized("GET", "/v1/log/status").json["head"]?["seq"]?.intValue ?? 0)
                        filter.to = min(filter.to ?? .max, head)
                    }
                    if filter.to != 0 {
                        try server.tail(filter, last: filter.n ?? 10, asOf: clock.asOfValue) { line in
                            if global.json { return out.append(line) }
                            let (seq, event) = try ServerConnection.logged(line)
                            rows.append(("\(seq)", style.show(event.at), EventSentence.of(event, shortenCodes: shortenCodes)))
                        }
                    }
                    if follow {
                        Tail.print(rows, out)
                        try follower.follow(server, after: head)
                    }
                } else if follow {
                    let store = try global.open()
                    head = try store.head(asOf: nil).seq
                    var range = filter.filter(last: filter.n ?? 10)
                    range.through = min(range.through, head)
                    if global.json {
                        try store.tail(range) { out.append($0) }
                    } else {
                        try store.tail(range) { seq, event in
                            rows.append(("\(seq)", style.show(event.at), EventSentence.of(event, shortenCodes: shortenCodes)))
                        }
                    }
                    Tail.print(rows, out)
                    try follower.follow(store, after: head)
                } else if global.json {
                    try global.openViewing(asOf: clock.asOfValue).tail(filter.filter(last: filter.n ?? 10), asOf: clock.asOfValue) { out.append($0) }
                } else {
                    let store = try global.openViewing(asOf: clock.asOfValue)
                    try store.tail(filter.filter(last: filter.n ?? 10), asOf: clock.asOfValue) { seq, event in
                        rows.append(("\(seq)", style.show(event.at), EventSentence.of(event, shortenCodes: shortenCodes)))
                    }
                }
                Tail.print(rows, out, paged: true)
            }
        }

        /// The table of `log tail`: seqs right-aligned, times padded to the widest; through the pager when
        /// `paged` (a tail that ends), else straight out (what a follower prints goes on after it).
        static func print(_ rows: [(seq: String, at: String, what: String)], _ out: BufferedOutput, paged: Bool = false) {
            out.flush()
            guard !rows.isEmpty else { return }
            let seqWidth = rows.map(\.seq.count).max() ?? 0, atWidth = rows.map { displayWidth($0.at) }.max() ?? 0
            let lines = rows.map { row in
                let seq = String(repeating: " ", count: seqWidth - row.seq.count) + row.seq
                let at = row.at + String(repeating: " ", count: atWidth - displayWidth(row.at))
                return "\(seq)  \(at)  \(row.what)"
            }
            if paged { return Pager.page(lines.joined(separator: "\n")) }
            out.append(Array((lines.joined(separator: "\n") + "\n").utf8))
            out.flush()
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Recompute the hash chain from the first event; with --digest, check an earlier digest too.",
            discussion: """
            With --as-of N, only events 1…N are verified.
            Examples:
              d=$(veritrail log digest --as-of 120 --store demo-store)
              veritrail log verify --digest "$d" --store demo-store
              veritrail log verify --as-of 120 --store demo-store
            """
        )
        @Option(help: ArgumentHelp("A digest written down earlier.", valueName: "seq:hash")) var digest: String?
        /// `--as-of N` verifies events 1…N; `--now` is accepted like everywhere and hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let digest, LogDigest(digest) == nil {
                throw ValidationError("--digest must be SEQ:HASH (a seq, a colon, 64 lower-case hex digits)")
            }
        }

        func run() throws {
            try runReporting {
                let given = digest.flatMap(LogDigest.init)
                // Without --as-of, the kept checkpoint (proofs.md §2) is checked too, in the chain's pass.
                if let server = try ServerConnection.of(global) {
                    return try server.verify(digest: digest, asOf: clock.asOf, json: global.json)
                }
                let outcome = try global.openViewing(asOf: clock.asOfValue).verify(digest: given, asOf: clock.asOfValue)
                switch outcome {
                case let .ok(events, head):
                    if global.json {
                        Output.json(Answers.verification(outcome))
                    } else {
                        var line = "ok: \(events) event\(events == 1 ? "" : "s") verified"
                        if clock.asOf != nil { line += " (the log as of seq \(head.seq))" }
                        line += "; head \(head.digest)"
                        if let given { line += ", and the digest \(given) matches" }
                        Output.print(line)
                    }
                case let .broken(seq, reason):
                    if global.json {
                        Output.json(Answers.verification(outcome))
                    } else {
                        Output.print("broken at seq \(seq): \(reason)")
                    }
                    throw ExitCode(Failure.refused)
                }
            }
        }
    }

    struct Digest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "digest",
            abstract: "Print the head as SEQ:HASH, to write down and check later with `log verify --digest`.",
            discussion: "Examples:\n  veritrail log digest --store demo-store\n  veritrail log digest --as-of 120 --store demo-store"
        )
        /// `--as-of` names an earlier event; `--now` is accepted like everywhere and hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                if let server = try ServerConnection.of(global) {
                    return Output.write(try server.authorized("GET", "/v1/log/digest", clock.asOf.map { [("asOf", $0)] } ?? [], accept: "text/plain").body)
                }
                Output.print(try global.openViewing(asOf: clock.asOfValue).head(asOf: clock.asOfValue).digest)
            }
        }
    }
}
