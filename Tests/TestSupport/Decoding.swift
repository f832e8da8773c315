public import Domain
import StrictJSON

extension Ev {
    /// An event line decoded as `import` decodes it (every field rule of events.md), for the in-process
    /// tests; a line the field rules refuse is a mistake in the test, reported with its message.
    public static func decoded(_ line: String) throws -> IncomingEvent {
        try EventJSON.decode(try JSONValue.parse(line))
    }

    /// A UTC time of the tests' calendar, from its text (`2026-11-01T10:00:00Z`).
    public static func time(_ text: String) -> Timestamp {
        guard let t = Timestamp(text) else { preconditionFailure("not a UTC time: \(text)") }
        return t
    }
}
