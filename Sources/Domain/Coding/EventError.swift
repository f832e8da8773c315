/// Why an event was refused: the broken field rule, prefixed by the event's type when it is known,
/// e.g. `scan.recorded: data.result: must be "authentic" or "counterfeit", got "fake"` (events.md §4).
public struct EventError: Error, Equatable, Sendable, CustomStringConvertible {
    public var type: EventType?
    public var field: FieldError

    public init(type: EventType?, field: FieldError) {
        self.type = type
        self.field = field
    }

    public init(type: EventType?, path: String, rule: String) {
        self.init(type: type, field: FieldError(path: path, rule: rule))
    }

    public var description: String {
        guard let type else { return field.description }
        return "\(type.rawValue): \(field)"
    }
}
