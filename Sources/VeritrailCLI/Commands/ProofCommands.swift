import Domain
import ArgumentParser
import Engine
import Projections
import Proofs
import StrictJSON

/// `log key | checkpoint | prove | consistency` (proofs.md §2–3): the store's verifier key, signed
/// checkpoints and RFC 6962 proofs in the C2SP formats, for an auditor's own verifier.
///
/// A SEQ, OLD or `--size` that is not a number (or a SEQ of 0) is a usage error (64); one beyond the log's
/// head is refused (65), as the store's state decides it.
extension LogCommand {
    struct Key: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the store's verifier key (signed-note form), to write down once.",
            discussion: "Example: veritrail log key --store /tmp/demo"
        )
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let key = try global.openStore().withProofs { $0.identity.verifier }
                if global.json {
                    Output.json(J.object([("origin", J.string(key.name)), ("key", J.string(key.text))]))
                } else {
                    Output.print(key.text)
                }
            }
        }
    }

    struct CheckpointCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "checkpoint",
            abstract: "Print the signed checkpoint (C2SP tlog-checkpoint) of the tree of the first N events.",
            discussion: "Example: veritrail log checkpoint --store /tmp/demo --size 120"
        )
        @Option(help: ArgumentHelp("The tree size (default: the head).", valueName: "n")) var size: UInt64?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let (checkpoint, note) = try global.openStore().withProofs { proofs in
                    try proofs.checkpoint(size: try within(size ?? proofs.head, proofs.head, "--size"))
                }
                if global.json {
                    Output.json(J.object([("origin", J.string(checkpoint.origin)), ("size", J.int(checkpoint.size)),
                                          ("root", J.string(checkpoint.root.hex)), ("checkpoint", J.string(note))]))
                } else {
                    Output.write(Array(note.utf8))
                }
            }
        }
    }

    struct Prove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the inclusion proof (C2SP tlog-proof) of the event at SEQ in the tree of N events.",
            discussion: "Example: veritrail log prove 120 --store /tmp/demo"
        )
        @Argument(help: ArgumentHelp("The event's seq.", valueName: "seq")) var seq: UInt64
        @Option(help: ArgumentHelp("The tree size (default: the head).", valueName: "n")) var size: UInt64?
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard seq >= 1 else { throw ValidationError("SEQ must be at least 1") }
        }

        func run() throws {
            try runReporting {
                let proof = try global.openStore().withProofs { proofs in
                    let size = try within(size ?? proofs.head, proofs.head, "--size")
                    return try proofs.inclusion(seq: try within(seq, size, "SEQ"), size: size)
                }
                if global.json {
                    Output.json(J.object([
                        ("seq", J.int(proof.seq)), ("index", J.int(proof.seq - 1)), ("size", J.int(proof.size)),
                        ("leafHash", J.string(proof.leafHash.hex)), ("path", J.array(proof.path.map { J.string($0.hex) })),
                        ("root", J.string(proof.root.hex)), ("checkpoint", J.string(proof.checkpoint)),
                    ]))
                } else {
                    Output.write(Array(proof.text.utf8))
                }
            }
        }
    }

    struct Consistency: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the consistency proof from the tree of OLD events to the tree of N (a tlog-witness add-checkpoint body).",
            discussion: "Example: veritrail log consistency 100 --store /tmp/demo"
        )
        @Argument(help: ArgumentHelp("The older tree size.", valueName: "old")) var old: UInt64
        @Option(help: ArgumentHelp("The newer tree size (default: the head).", valueName: "n")) var size: UInt64?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let proof = try global.openStore().withProofs { proofs in
                    let size = try within(size ?? proofs.head, proofs.head, "--size")
                    return try proofs.consistency(old: try within(old, size, "OLD"), size: size)
                }
                if global.json {
                    Output.json(J.object([
                        ("old", J.int(proof.old)), ("size", J.int(proof.size)), ("oldRoot", J.string(proof.oldRoot.hex)),
                        ("root", J.string(proof.root.hex)), ("path", J.array(proof.path.map { J.string($0.hex) })),
                        ("checkpoint", J.string(proof.checkpoint)),
                    ]))
                } else {
                    Output.write(Array(proof.text.utf8))
                }
            }
        }
    }
}

/// `value` when it is at most `limit`; refused (65) otherwise, naming the argument.
private func within(_ value: UInt64, _ limit: UInt64, _ name: String) throws -> UInt64 {
    guard value <= limit else {
        throw Failure.refused(name == "--size"
            ? "--size \(value) is beyond the log's head (\(limit) events)"
            : "\(name) \(value) is beyond the tree's size (\(limit))")
    }
    return value
}
