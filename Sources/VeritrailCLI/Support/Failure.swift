import ArgumentParser
import VeritrailKit

/// A refusal with its exit code (cli.md §6) and a message that says what was wrong and what to do.
struct Failure: Error, CustomStringConvertible {
    var code: Int32
    var message: String

    static let usage: Int32 = 64
    static let refused: Int32 = 65
    static let storeFailed: Int32 = 74
    static let notAllowed: Int32 = 77

    static func usage(_ m: String) -> Failure { Failure(code: usage, message: m) }
    static func refused(_ m: String) -> Failure { Failure(code: refused, message: m) }
    static func notAllowed(_ m: String) -> Failure { Failure(code: notAllowed, message: m) }

    var description: String { message }

    /// The failure for any error a command body throws: the command line's own, or the library's (every
    /// library call throws `VeritrailError` only); anything else is a store failure.
    static func from(_ error: any Error) -> Failure {
        switch error {
        case let f as Failure: f
        case let v as VeritrailError: from(v)
        default: Failure(code: storeFailed, message: "\(error)")
        }
    }
}

extension Failure {
    /// The library's error in the command line's words: the gate's refusals say which command unlocks, and
    /// a refusal the passcode reader made (it could not ask) is its own.
    static func from(_ error: VeritrailError) -> Failure {
        if case .notAllowed(_, _, let cause) = error {
            if let own = cause as? Failure { return own }
            if let refusal = cause as? GateRefusal { return from(refusal) }
        }
        return Failure(code: error.exitCode, message: error.description)
    }
}

extension Failure {
    /// The words for a write the gate did not let through: each refusal says which command opens the way.
    static func from(_ refusal: GateRefusal) -> Failure {
        switch refusal {
        case .unset(let actor):
            .notAllowed("\(actor) has no passcode yet: set one with `veritrail passcode set --as \(actor)`")
        case let .locked(actor, _, seconds):
            .notAllowed(lockedOut(actor, seconds: seconds))
        case .required(let actor):
            .notAllowed("\(actor) is not unlocked: run `veritrail unlock --as \(actor)` or pass --passcode-stdin")
        }
    }

    /// Says that `actor` is locked out, and for how long.
    static func lockedOut(_ actor: String, seconds: Int64) -> String {
        "\(actor) is locked out after \(Lockout.maxFailures) wrong passcodes: try again in \(seconds) s"
    }
}

/// Runs a command's body: a failure is printed on stderr (`veritrail: …`) and becomes its exit code.
func runReporting(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        let failure = Failure.from(error)
        Output.error(failure.message)
        throw ExitCode(failure.code)
    }
}
