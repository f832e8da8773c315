import Projections
import Domain
import Engine
import StrictJSON

/// Builds the events that commands write as interchange JSON and decodes them with `EventJSON.decode`,
/// so that a command's event passes exactly the field rules an imported line does.
enum EventBuilder {
    static func event(_ type: EventType, actor: String, at: Timestamp, data: [(String, JSONValue)]) throws -> IncomingEvent {
        let object = J.object([
            ("type", J.string(type.rawValue)), ("at", J.string(at.description)), ("actor", J.string(actor)),
            ("data", J.object(data)),
        ])
        return try EventJSON.decode(object)
    }

    /// The `at` for an event written now: `VERITRAIL_NOW` or the wall clock, but never before the head's
    /// `at` (time never runs backwards in the log).
    static func stamp(after head: Timestamp?) -> Timestamp {
        let now = environmentNow()
        guard let head, head > now else { return now }
        return head
    }
}
