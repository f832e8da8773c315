public import Domain
import Engine
import Projections

/// Gives the new passcode of `username` (4–8 digits), asked only once every check before it has passed:
/// a person types it twice, a program passes it on.
public typealias NewPasscodeProvider = (_ username: String) throws -> String

extension VeritrailStore {
    /// Enters `actor`'s passcode (`veritrail unlock`): the attempt is recorded whatever its outcome; when
    /// granted, `actor` may write for the next fifteen minutes. `.notAllowed` when denied or locked out.
    @discardableResult
    public func unlock(_ actor: String, passcode: String) throws(VeritrailError) -> Grant {
        try unlock(actor, passcode: { _ in passcode })
    }

    /// Enters `actor`'s passcode as `unlock(_:passcode:)` does, asking `passcode` for it only once `actor`
    /// is known to be an active account (`.unknown` before anything is asked). Nil, or what `passcode`
    /// throws (kept as the cause), is `.notAllowed`.
    @discardableResult
    public func unlock(_ actor: String, passcode: PasscodeProvider) throws(VeritrailError) -> Grant {
        _ = try VeritrailError.catching { try store.activeAccount(actor) }
        guard let given = try VeritrailError.fromCaller({ try passcode(actor) }) else {
            throw .notAllowed("no passcode given", lockedSeconds: nil, cause: nil)
        }
        return try attempt(actor, passcode: given)
    }

    /// Sets a passcode (`veritrail passcode set`): one's own (`target` nil or `actor`) after checking the
    /// `current` one when there is one (an attempt like any other), or, as an admin, another's, through
    /// the gate.
    @discardableResult
    public func setPasscode(to newPasscode: String, for target: String? = nil, current: String? = nil, as actor: String,
                            passcode: PasscodeProvider? = nil,
                            options: WriteOptions = WriteOptions()) throws(VeritrailError) -> [AppendedEvent] {
        // Known before anything is asked: a malformed one is refused before the current one is tried.
        try Gatekeeper.checkForm(newPasscode)
        return try setPasscode(for: target, as: actor, current: { _ in current }, new: { _ in newPasscode }, passcode: passcode,
                        options: options)
    }

    /// Sets a passcode as `setPasscode(to:for:current:as:passcode:options:)` does, asking each passcode only
    /// when it is needed, in the order a person meets them: who may set it is checked first; then, for
    /// one's own passcode that is set already, `current` (nil refuses), recorded as an attempt; for
    /// another's, the admin passes the gate (`passcode` asked when needed); then `new` gives the new one,
    /// and the `passcode.set` is written. What a provider throws refuses as not allowed, kept as the cause.
    ///
    /// A retry under the write's id (`Idempotency-Key`) tries `current` again too, and so records an attempt.
    /// Answered from the log without it, its answer (already recorded for the same new passcode, refused for
    /// another) would tell whether a guess is the passcode that was set, with no attempt recorded and no lockout.
    @discardableResult
    public func setPasscode(for target: String? = nil, as actor: String, current: PasscodeProvider, new: NewPasscodeProvider,
                            passcode: PasscodeProvider? = nil,
                            options: WriteOptions = WriteOptions()) throws(VeritrailError) -> [AppendedEvent] {
        let target = target ?? actor
        // Who may set it is checked before anything is asked, with a stand-in credential.
        let standIn = Credential(hash: Base64.encode([UInt8](repeating: 0, count: 32)), iterations: 100_000,
                                 salt: Base64.encode([UInt8](repeating: 0, count: 16)))
        let check = WriteOptions(dryRun: true)
        try appendGated(as: nil, passcode: nil, options: check) { at, _ in
            [try EventData.event(.passcodeSet, actor: actor, at: at, EventData.passcode(target, standIn))]
        }
        var hasPasscode = false
        if target == actor {
            hasPasscode = try VeritrailError.catching { try store.activeAccount(actor).lockout.hasPasscode }
            if hasPasscode {
                guard let given = try VeritrailError.fromCaller({ try current(actor) }) else {
                    throw .notAllowed("the current passcode is needed to change it", lockedSeconds: nil, cause: nil)
                }
                try attempt(actor, passcode: given)
            }
        } else {
            // A reset: the admin passes the gate before the new passcode is asked, and again when it is written.
            try appendGated(as: actor, passcode: passcode, options: check) { at, _ in
                [try EventData.event(.passcodeSet, actor: actor, at: at, EventData.passcode(target, standIn))]
            }
        }
        let credential = try credential(for: try VeritrailError.fromCaller { try new(target) }, retrying: options, index: 0)
        // Every set passes the gate in its own transaction: one's own was just checked (which unlocks), but wrong
        // tries from elsewhere may have locked the account while the new passcode was hashed; another's is reset
        // through the gate like any write. Only a first passcode has no gate to pass.
        let gated = target != actor || hasPasscode
        return try appendGated(as: gated ? actor : nil, passcode: passcode, options: options) { at, _ in
            [try EventData.event(.passcodeSet, actor: actor, at: at, EventData.passcode(target, credential))]
        }
    }
}

extension VeritrailError {
    /// Runs a caller's closure (a passcode to give, a confirmation): what it throws refuses the call as not
    /// allowed, with the error as the cause, so that a command line that could not ask says why in its own
    /// words. A `VeritrailError` it throws is passed on as it is.
    static func fromCaller<R>(_ body: () throws -> R) throws(VeritrailError) -> R {
        do {
            return try body()
        } catch let error as VeritrailError {
            throw error
        } catch {
            throw .notAllowed("\(error)", lockedSeconds: nil, cause: error)
        }
    }
}
