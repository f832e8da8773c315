import Domain
import Engine
import EventLog

/// What makes a write retried under its id (`WriteOptions.eventID`, `--id`) build the events its first try
/// built, so that the retry of a write that did commit is a no-op (ids drawn at random are derived from the id
/// instead: `RandomIDs.one(for:purpose:)`).
extension VeritrailStore {
    /// The credential a write under `options` records for `passcode` as its event `index`: a new one (a
    /// random salt), or — when the write is the retry of one made under the same id (`--id`) and that event
    /// is logged with a credential the same passcode matches — the logged one, so that the retry builds the
    /// very event the first try wrote and is a no-op. A retry with another passcode gets a new credential,
    /// which the log then refuses as other data under that id.
    func credential(for passcode: String, retrying options: WriteOptions, index: Int) throws(VeritrailError) -> Credential {
        guard Passcodes.isWellFormed(passcode), let eventID = options.eventID else { return try credential(for: passcode) }
        let id = try Gatekeeper.id(eventID, index)
        let logged = try VeritrailError.catching {
            try store.read { reader, _ -> Credential? in
                guard let seq = try reader.seq(forId: id), case .passcodeSet(let set)? = try reader.event(at: seq)?.event.payload else {
                    return nil
                }
                return set.credential
            }
        }
        if let logged {
            let pepper = logged.scheme == .pbkdf2SHA256HMAC ? try VeritrailError.catching { try store.pepper() } : nil
            if (try? Passcodes.matches(passcode, logged, pepper: pepper)) == true { return logged }
        }
        return try credential(for: passcode)
    }

    /// Whether the log holds an event under `eventID`: a write given that id is a retry, whose checks ran
    /// when it was first written (the write itself finds it logged, or refuses other data under the id).
    func isLogged(_ eventID: String?) throws(VeritrailError) -> Bool {
        guard let eventID else { return false }
        return try VeritrailError.catching { try store.read { reader, _ in try reader.seq(forId: eventID) != nil } }
    }
}
