import Domain
import Engine
import Projections

/// Checks a command's events against every rule without writing them: what a command does before it asks
/// anything (a confirmation, a new passcode), so that a refusal comes first and nothing is asked in vain.
/// The events are appended in a write transaction that is then abandoned.
enum RuleCheck {
    private struct Abandoned: Error {}

    static func check(_ store: Store, _ words: CommandWords, _ make: (Timestamp, Models) throws -> [IncomingEvent]) throws {
        try words.run {
            do {
                try store.write { appender in
                    let at = EventBuilder.stamp(after: appender.head.at)
                    for event in try make(at, appender.models) { _ = try appender.append(event) }
                    throw Abandoned()
                }
            } catch is Abandoned {
            } catch let e as EventError {
                throw e.isPermission ? Failure.notAllowed(e.description) : Failure.refused(e.description)
            }
        }
    }
}
