import ArgumentParser
import VeritrailKit

extension LogCommand {
    /// `log reseal --accept-loss` (proofs.md §2): signs the head of a store whose kept checkpoint is lost,
    /// not a file, or contradicts its log, so that it takes writes again, saying what it signs over.
    struct Reseal: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reseal",
            abstract: "Sign the head over a lost or contradicting checkpoint, so that the store takes writes again.",
            discussion: """
            A store that has signed refuses every write while its kept checkpoint is missing, not a file, or \
            disagrees with its log (rolled back or rewritten). Put the checkpoint back if you can; else this \
            signs the head and says what it signs over: the head and the last size it can still prove. \
            Checkpoints signed before of another tree no longer agree with the store: auditors who hold one \
            see the loss. Without --accept-loss it only says what it would do (exit 64).

            Example:
              veritrail log reseal --accept-loss --store demo-store
            """
        )
        @Flag(name: .customLong("accept-loss"), help: "Accept that checkpoints signed before may no longer be provable.")
        var acceptLoss = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let reseal = try global.open().reseal(acceptLoss: acceptLoss)
                if global.json {
                    var fields: [(String, JSONValue)] = [("resealed", J.bool(reseal.resealed)), ("size", J.int(reseal.size)),
                                                 ("root", J.string(Hex.encode(reseal.root))), ("provable", J.int(reseal.provable))]
                    if let signed = reseal.signedSize { fields.append(("signedSize", J.int(signed))) }
                    if let loss = reseal.loss { fields.append(("loss", J.string(loss))) }
                    Output.json(J.object(fields))
                } else {
                    Output.print(reseal.summary)
                }
            }
        }
    }
}
