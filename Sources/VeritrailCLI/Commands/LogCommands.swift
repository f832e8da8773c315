import ArgumentParser
import Domain
import Engine
import EventLog
import Projections
import Proofs

/// `log status | tail | verify | digest` (projections.md §7): the log as it is stored.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Look at the log itself: its status, its last events, its hash chain.",
        discussion: "Examples:\n  veritrail log status --json\n  veritrail log tail -n 5\n  veritrail log verify --digest 120:3f0c…\n  veritrail log digest",
        subcommands: [Status.self, Tail.self, Verify.self, Digest.self, Key.self, CheckpointCommand.self, Prove.self, Consistency.self]
    )

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "How many events, the head, the first and last times, and the events per type.",
            discussion: "Example: veritrail log status --store /tmp/demo --json"
        )
        /// Accepted like everywhere, but the log commands show the log as stored: `--now` hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let status = try global.openStore().read { reader, models in
                    let head = try reader.head()
                    return logStatus(try models.totals(), headSeq: head.seq, headHash: head.hash)
                }
                if global.json { Output.json(status) } else { Output.print(Human.render(status, now: environmentNow())) }
            }
        }
    }

    struct Tail: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The last events of the log.",
            discussion: "Example: veritrail log tail -n 5 --store /tmp/demo --json"
        )
        @Option(name: .short, help: "How many events.") var n: Int = 10
        /// Accepted like everywhere, but the log commands show the log as stored: `--now` hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard n >= 1 else { throw ValidationError("-n must be at least 1") }
        }

        func run() throws {
            try runReporting {
                let out = BufferedOutput(fd: 1)
                try global.openStore().read { reader, _ in
                    let head = try reader.head()
                    let first = head.seq > UInt64(n) ? head.seq - UInt64(n) + 1 : 1
                    if global.json { return try writeOutForm(reader, from: first, through: .max, to: out) }
                    try reader.forEach(from: first) { logged in
                        let e = logged.event
                        out.append(Array("\(logged.seq)\t\(e.at)\t\(e.actor)\t\(e.type.rawValue)\n".utf8))
                        return true
                    }
                }
                out.flush()
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute the hash chain from the first event; with --digest, check an earlier digest too.",
            discussion: "Example: veritrail log verify --store /tmp/demo --digest 120:3f0c…"
        )
        @Option(help: ArgumentHelp("A digest written down earlier.", valueName: "seq:hash")) var digest: String?
        /// Accepted like everywhere, but the log commands show the log as stored: `--now` hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let digest, Verify.parse(digest) == nil {
                throw ValidationError("--digest must be SEQ:HASH (a seq, a colon, 64 lower-case hex digits)")
            }
        }

        static func parse(_ text: String) -> (seq: UInt64, hash: [UInt8])? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seq = UInt64(parts[0]),
                  let hash = Hex.decode(String(parts[1])) else { return nil }
            return (seq, hash)
        }

        func run() throws {
            try runReporting {
                let store = try global.openStore()
                // Without --as-of, the kept checkpoint is checked too (proofs.md §2), in the chain's pass.
                let outcome = clock.asOf == nil
                    ? try CheckpointCheck.verify(store.log, proofs: store.proofs, digest: digest.flatMap(Verify.parse))
                    : try LogVerifier.verify(store.log, digest: digest.flatMap(Verify.parse))
                switch outcome {
                case let .ok(events, head):
                    if global.json {
                        Output.json(J.object([("ok", J.bool(true)), ("events", J.int(events)),
                                              ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(Hex.encode(head.hash)))]))]))
                    } else {
                        Output.print("ok: \(events) event\(events == 1 ? "" : "s") verified; head \(head.digest)")
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
            discussion: "Example: veritrail log digest --store /tmp/demo"
        )
        /// Accepted like everywhere, but the log commands show the log as stored: `--now` hides nothing.
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                Output.print(try global.openStore().read { reader, _ in try reader.head().digest })
            }
        }
    }
}
