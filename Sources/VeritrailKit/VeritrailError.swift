public import Domain
import Engine
import EventLog
import LMDB
import Projections
import Proofs

/// Every way a call of the library can fail, each keeping what caused it (cli.md §6 gives each its exit
/// code, `exitCode`).
public enum VeritrailError: Error, CustomStringConvertible {
    /// An event broke a rule of the catalogue (events.md); `line` names the NDJSON line of an import.
    /// Nothing was written. Exit 65.
    case ruleBroken(EventError, line: Int?)
    /// Input that is not an event at all (not JSON, a line too long, a value of the wrong form, a change that
    /// changes nothing). Nothing was written. Exit 64 for a value of the wrong form, 65 for an import line.
    case malformed(String, line: Int?)
    /// A new passcode that is not 4–8 digits: refused before it is hashed, with nothing written. Exit 65,
    /// cli.md §6's "the input is refused", as `passcode set` refuses one typed at its prompt.
    case badPasscode(String)
    /// The actor may not do this: a "who may" rule, the passcode gate (no passcode, not unlocked, locked
    /// out for `lockedSeconds` more seconds), or a wrong passcode. `cause` is the engine's refusal
    /// (`EventError` with `isPermission`, or the gate's). Exit 77.
    case notAllowed(String, lockedSeconds: Int64?, cause: (any Error)?)
    /// An account, a scan or a store that does not exist (or an account that was deleted); a checkpoint, kept
    /// or given, that is missing, not a readable file, malformed, or not the store's (a read refuses it; a
    /// write refuses with `.storeFailure`). Exit 65.
    case unknown(String, cause: (any Error)?)
    /// The store could not be opened, read or written: LMDB's error (`lmdbCode`), a failed commit, a
    /// damaged record. Never a `FieldError` of the input. Exit 74.
    case storeFailure(underlying: any Error)

    /// The exit code the command line gives the same failure (cli.md §6).
    public var exitCode: Int32 {
        switch self {
        case .ruleBroken, .unknown, .badPasscode: 65
        case .malformed(_, let line): line == nil ? 64 : 65
        case .notAllowed: 77
        case .storeFailure: 74
        }
    }

    /// The LMDB code behind a store failure, when LMDB reported one (directly, through a failed commit, or
    /// through the store that could not be opened).
    public var lmdbCode: Int32? {
        guard case .storeFailure(let underlying) = self else { return nil }
        switch underlying {
        case let e as LMDBError: return e.code
        case let e as CommitFailed: return e.underlying.code
        case let e as UncertainCommit: return e.underlying.underlying.code
        case let e as StoreError: return e.lmdb?.code
        default: return nil
        }
    }

    /// The message the command line prints for the same failure, the import line first when there is one.
    public var description: String {
        switch self {
        case let .ruleBroken(e, line): line.map { "line \($0): \(e)" } ?? e.description
        case let .malformed(m, line): line.map { "line \($0): \(m)" } ?? m
        case let .notAllowed(m, _, _), let .unknown(m, _), let .badPasscode(m): m
        case .storeFailure(let e):
            switch e {
            case let l as LMDBError: "the store failed: \(l)"
            case let f as FieldError: "the store is damaged: \(f)"
            default: "\(e)"
            }
        }
    }

    /// The library's error for anything the engine threw: the one place where engine, projection and LMDB
    /// errors are sorted, so that every call reports them alike.
    static func from(_ error: any Error, line: Int? = nil) -> VeritrailError {
        switch error {
        case let e as VeritrailError: e
        case let e as EventError where e.isPermission: .notAllowed(e.description, lockedSeconds: nil, cause: e)
        case let e as EventError: .ruleBroken(e, line: line)
        case let e as GateRefusal: .notAllowed(Gatekeeper.message(e), lockedSeconds: e.lockedSeconds, cause: e)
        case let e as InactiveAccount: .unknown(e.description, cause: e)
        case let e as BadCheckpoint: .unknown(e.message, cause: e)
        case let e as QueryError:
            switch e {
            case .usage(let m): .malformed(m, line: nil)
            case .refused(let m): .unknown(m, cause: e)
            }
        default: .storeFailure(underlying: error)
        }
    }

    /// Runs `body`, turning whatever it throws into a `VeritrailError`.
    static func catching<R>(_ body: () throws -> R) throws(VeritrailError) -> R {
        do {
            return try body()
        } catch {
            throw from(error)
        }
    }
}

extension GateRefusal {
    /// The seconds left of a lockout; nil for the other refusals.
    var lockedSeconds: Int64? {
        if case let .locked(_, _, seconds) = self { return seconds }
        return nil
    }
}
