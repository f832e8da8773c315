import ArgumentParser
import VeritrailKit

/// `log key | checkpoint | prove | consistency` (proofs.md §2–3): the store's verifier key, signed
/// checkpoints and RFC 6962 proofs in the C2SP formats, for an auditor's own verifier.
///
/// A SEQ, OLD or `--size` that is not a number (or a SEQ of 0) is a usage error (64); one beyond the log's
/// head is refused (65), as the store's state decides it.
extension LogCommand {
    struct Key: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "key",
            abstract: "Print the store's verifier key (signed-note form), to write down once.",
            discussion: "Example: veritrail log key --store demo-store"
        )
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                if let server = try ServerConnection.of(global) { return try server.proof("/v1/log/key", [], json: global.json) }
                let key = try global.open().verifierKey()
                if global.json {
                    Output.json(key.json)
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
            discussion: "Example: veritrail log checkpoint --store demo-store --size 120"
        )
        @Option(help: ArgumentHelp("The tree size (default: the head).", valueName: "n")) var size: UInt64?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                if let server = try ServerConnection.of(global) {
                    return try server.proof("/v1/log/checkpoint", size.map { [("size", String($0))] } ?? [], json: global.json)
                }
                let checkpoint = try global.open().checkpoint(size: size)
                if global.json {
                    Output.json(checkpoint.json)
                } else {
                    Output.write(Array(checkpoint.note.utf8))
                }
            }
        }
    }

    struct Prove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prove",
            abstract: "Print the inclusion proof (C2SP tlog-proof) of the event at SEQ in the tree of N events.",
            discussion: "Example: veritrail log prove 120 --store demo-store"
        )
        @Argument(help: ArgumentHelp("The event's seq.", valueName: "seq")) var seq: UInt64
        @Option(help: ArgumentHelp("The tree size (default: the head).", valueName: "n")) var size: UInt64?
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard seq >= 1 else { throw ValidationError("SEQ must be at least 1") }
        }

        func run() throws {
            try runReporting {
                if let server = try ServerConnection.of(global) {
                    return try server.proof("/v1/log/prove/\(seq)", size.map { [("size", String($0))] } ?? [], json: global.json)
                }
                let proof = try global.open().inclusionProof(seq: seq, size: size)
                if global.json {
                    Output.json(proof.json)
                } else {
                    Output.write(Array(proof.text.utf8))
                }
            }
        }
    }

    struct Consistency: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "consistency",
            abstract: "Print the consistency proof from the tree of OLD events to the tree of N (a tlog-witness add-checkpoint body).",
            discussion: "Example: veritrail log consistency 100 --store demo-store"
        )
        @Argument(help: ArgumentHelp("The older tree size.", valueName: "old")) var old: UInt64
        @Option(help: ArgumentHelp("The newer tree size (default: the head).", valueName: "n")) var size: UInt64?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                if let server = try ServerConnection.of(global) {
                    return try server.proof("/v1/log/consistency", [("old", String(old))] + (size.map { [("size", String($0))] } ?? []), json: global.json)
                }
                let proof = try global.open().consistencyProof(old: old, size: size)
                if global.json {
                    Output.json(proof.json)
                } else {
                    Output.write(Array(proof.text.utf8))
                }
            }
        }
    }
}
