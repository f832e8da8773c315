import Domain
import Engine
import Projections

/// The passcode gate as `WriteCommand` meets it (cli.md §5): the engine decides, inside the write
/// transaction, whether an actor may act (`Store.appendGated`) and what an attempt records
/// (`Store.attemptPasscode`); this asks for the passcode and words the answers. The commands that write
/// through the library meet the gate there (`VeritrailStore.unlock`, `PasscodeProvider`); this goes with
/// `WriteCommand`, its last user. The refusals' words are `Failure.from(_: GateRefusal)`.
struct Gate {
    let store: Store
    let reader: PasscodeReader

    /// Asks `actor`'s passcode and records the attempt; returns when it was granted, else throws 77.
    func askAndAttempt(_ actor: String) throws {
        guard reader.canRead else {
            throw Failure.notAllowed("\(actor) is not unlocked: run `veritrail unlock --as \(actor)` or pass --passcode-stdin")
        }
        guard let passcode = try reader.read("Passcode for \(actor): ") else {
            throw Failure.notAllowed("no passcode given for \(actor)")
        }
        try attempt(actor, passcode: passcode)
    }

    /// Checks `passcode` for `actor` and records the attempt: `locked` without checking while locked out,
    /// else `granted` or `denied`. Throws exit 77 unless granted.
    func attempt(_ actor: String, passcode: String) throws {
        let attempt = try store.attemptPasscode(actor, clock: environmentNow) { credential in
            try Passcodes.matches(passcode, credential)
        }
        switch attempt.outcome {
        case .granted:
            return
        case .locked:
            throw Failure.notAllowed(Failure.lockedOut(actor, seconds: attempt.lockedSeconds))
        case .denied:
            if attempt.lockedSeconds > 0 {
                throw Failure.notAllowed("wrong passcode: \(actor) is now locked out for \(attempt.lockedSeconds) s after \(Lockout.maxFailures) wrong passcodes")
            }
            let left = Lockout.maxFailures - attempt.lockout.failures
            throw Failure.notAllowed("wrong passcode for \(actor) (\(left) attempt\(left == 1 ? "" : "s") left before a one-minute lockout)")
        }
    }

    /// The words for a write the gate did not let through.
    static func failure(_ refusal: GateRefusal) -> Failure { Failure.from(refusal) }
}
