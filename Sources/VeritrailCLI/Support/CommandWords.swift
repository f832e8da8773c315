import Foundation
import VeritrailKit

/// A refusal said in the words of the command that was typed, not of the event it wrote: the rules of
/// events.md name an event's fields (`goal.set: data.target: …`), while the person typed `--target`.
/// Each writing command gives the option (or argument) that fills each field path.
struct CommandWords {
    let type: EventType
    /// Field path (`data.target`) → what the command calls it (`--target`, `USER`).
    let options: [String: String]

    /// The event names in rules (patterns), as the commands that write them.
    private static let commands: [(String, String)] = [
        (#"a fitness\.updated for "[^"]*" first"#, "'veritrail fitness set' first"),
        (#"fitness\.updated"#, "'veritrail fitness set'"),
    ]

    /// `failure` with its message rephrased: the event's type dropped and a known field path replaced by its
    /// option; other failures (the store, the passcode gate) are left as they are.
    func rephrase(_ failure: Failure) -> Failure {
        var message = failure.message
        let prefix = type.rawValue + ": "
        guard message.hasPrefix(prefix) else { return failure }
        message.removeFirst(prefix.count)
        if let colon = message.range(of: ": ") {
            let path = String(message[..<colon.lowerBound])
            if let option = options[path] ?? (path == "id" ? "--id" : nil) {
                message = option + ": " + message[colon.upperBound...]
            } else if path == "actor" {
                message = String(message[colon.upperBound...])
            }
        }
        for (event, command) in CommandWords.commands {
            message = message.replacingOccurrences(of: event, with: command, options: .regularExpression)
        }
        return Failure(code: failure.code, message: message)
    }

    /// Runs `body`, rephrasing what it refuses.
    func run<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let f as Failure { throw rephrase(f) } catch let v as VeritrailError {
            throw rephrase(Failure.from(v))
        } catch let e as EventError {
            throw rephrase(Failure(code: e.isPermission ? Failure.notAllowed : Failure.refused, message: e.description))
        }
    }
}
