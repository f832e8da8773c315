import Domain
import Engine
import Projections

/// Checks a command's events against every rule without writing them: what a command does before it asks
/// anything (a confirmation, a new passcode), so that a refusal comes first and nothing is asked in vain.
/// The events are appended in a write transaction that is then rolled back (`Store.appendGated` with
/// `commit: false`).
enum RuleCheck {
    static func check(_ store: Store, _ words: CommandWords, _ make: (Timestamp, Models) throws -> [IncomingEvent]) throws {
        try words.run {
            do {
                _ = try store.appendGated(actor: nil, clock: environmentNow, commit: false, make)
            } catch let e as EventError {
                throw WriteCommand.failure(e)
            }
        }
    }
}
