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
        """,
        subcommands: [Status.self, Tail.self, Verify.self, Digest.self, Key.self, CheckpointCommand.self, Prove.self, Consistency.self]
    )

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "How many events, the head, the first and last times, and the events per type.",
            discussion: "Example: veritrail log status --as-of 120 --store demo-store --json"
        )
        /// `--as-of` cuts the log; `--now` is accepted like everywhere and hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let status = try global.openViewing(asOf: clock.asOfValue).logStatus(asOf: clock.asOfValue)
                Human.absoluteTimes = clock.utc
                if global.json { Output.json(status) } else { Pager.page(Human.logStatus(status, now: environmentNow())) }
            }
        }
    }

    struct Tail: ParsableCommand {
        static let configuration = CommandConfiguration(
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
        /// `--as-of` cuts the log; `--now` sets the clock of the relative times and hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let out = BufferedOutput(fd: 1)
                let style = TimeStyle(now: clock.nowValue ?? environmentNow(), utc: clock.utc)
                let shortenCodes = Output.stdoutIsTerminal
                var rows: [(seq: String, at: String, what: String)] = []
                let store = try global.openViewing(asOf: clock.asOfValue)
                if global.json {
                    try store.tail(filter.filter(last: filter.n ?? 10), asOf: clock.asOfValue) { out.append($0) }
                } else {
                    try store.tail(filter.filter(last: filter.n ?? 10), asOf: clock.asOfValue) { seq, event in
                        rows.append(("\(seq)", style.show(event.at), EventSentence.of(event, shortenCodes: shortenCodes)))
                    }
                }
                out.flush()
                guard !rows.isEmpty else { return }
                let seqWidth = rows.map(\.seq.count).max() ?? 0, atWidth = rows.map { displayWidth($0.at) }.max() ?? 0
                Pager.page(rows.map { row in
                    let seq = String(repeating: " ", count: seqWidth - row.seq.count) + row.seq
                    let at = row.at + String(repeating: " ", count: atWidth - displayWidth(row.at))
                    return "\(seq)  \(at)  \(row.what)"
                }.joined(separator: "\n"))
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
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
                let outcome = try global.openViewing(asOf: clock.asOfValue).verify(digest: given, asOf: clock.asOfValue)
                switch outcome {
                case let .ok(events, head):
                    if global.json {
                        Output.json(J.object([("ok", J.bool(true)), ("events", J.int(events)),
                                              ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(Hex.encode(head.hash)))]))]))
                    } else {
                        var line = "ok: \(events) event\(events == 1 ? "" : "s") verified"
                        if clock.asOf != nil { line += " (the log as of seq \(head.seq))" }
                        line += "; head \(head.digest)"
                        if let given { line += ", and the digest \(given) matches" }
                        Output.print(line)
                    }
                case let .broken(seq, reason):
                    if global.json {
                        Output.json(J.object([("ok", J.bool(false)), ("firstBadSeq", J.int(seq)), ("reason", J.string(reason))]))
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
            abstract: "Print the head as SEQ:HASH, to write down and check later with `log verify --digest`.",
            discussion: "Examples:\n  veritrail log digest --store demo-store\n  veritrail log digest --as-of 120 --store demo-store"
        )
        /// `--as-of` names an earlier event; `--now` is accepted like everywhere and hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                Output.print(try global.openViewing(asOf: clock.asOfValue).head(asOf: clock.asOfValue).digest)
            }
        }
    }
}
