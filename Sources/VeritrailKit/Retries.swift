import Domain
import Engine
import EventLog

/// What makes a write retried under its id (`WriteOptions.eventID`, `--id`) build the events its first try
/// built, so that the retry of a write that did commit is a no-op (ids drawn at random are derived from the id
/// instead: `RandomIDs.one(for:purpose:)`).
extension VeritrailStore {
    /// The credential a write under `options` records for `passcode` as its event `index`: under an id
    /// (`--id`, `Idempotency-Key`) its salt is drawn from the event's id (`Passcodes.credential`), so that a
    /// retry with the same passcode builds the very event the first try wrote, even while that try still
    /// runs, and is a no-op; a retry with another passcode builds other data under the id, which the log
    /// refuses.
    func credential(for passcode: String, retrying options: WriteOptions, index: Int) throws(VeritrailError) -> Credential {
        var id: String?
        if let eventID = options.eventID { id = try Gatekeeper.id(eventID, index) }
        // The store's pepper, its key first moved out of LMDB for a store made before version 2.
        return try Gatekeeper.credential(for: passcode, pepper: { try store.pepperForNewCredential() }, eventID: id)
    }

    /// Whether the log holds an event under `eventID`: a write given that id is a retry, whose checks ran
    /// when it was first written (the write itself finds it logged, or refuses other data under the id).
    func isLogged(_ eventID: String?) throws(VeritrailError) -> Bool {
        guard let eventID else { return false }
        return try VeritrailError.catching { try store.read { reader, _ in try reader.seq(forId: eventID) != nil } }
    }
}
