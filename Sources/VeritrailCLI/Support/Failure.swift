import ArgumentParser
import VeritrailKit
import Engine
import Domain
import EventLog
import LMDB
import Projections

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

    /// The failure for any error a command body throws: each kind of error maps to one exit code.
    static func from(_ error: any Error) -> Failure {
        switch error {
        case let f as Failure: return f
        case let v as VeritrailError: return from(v)
        case let e as EventError: return .refused(e.description)
        case let q as QueryError:
            switch q {
            case .usage(let m): return .usage(m)
            case .refused(let m): return .refused(m)
            }
        case let a as InactiveAccount: return .refused(a.description)
        case let g as GateRefusal: return from(g)
        case let s as StoreError: return Failure(code: storeFailed, message: s.message)
        case let c as CommitFailed: return Failure(code: storeFailed, message: c.description)
        case let r as RetriesExhausted: return Failure(code: storeFailed, message: r.description)
        case let l as LMDBError: return Failure(code: storeFailed, message: "the store failed: \(l)")
        case let f as FieldError: return Failure(code: storeFailed, message: "the store is damaged: \(f)")
        default: return Failure(code: storeFailed, message: "\(error)")
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
