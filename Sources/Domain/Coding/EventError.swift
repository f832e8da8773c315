/// Why an event was refused: the broken field rule, prefixed by the event's type when it is known,
/// e.g. `scan.recorded: data.result: must be "authentic" or "counterfeit", got "fake"` (events.md §4).
public struct EventError: Error, Equatable, Sendable, CustomStringConvertible {
    public var type: EventType?
    public var field: FieldError
    /// Whether the event broke a "who may" rule (its actor may not do this), rather than another rule:
    /// a command reports that as not allowed (cli.md §6: 77), while `import` refuses it as input.
    public var isPermission: Bool
    /// Whether the account the event is about does not exist or is deleted: the server answers that as an
    /// unknown user (server.md §7: 404), as it answers a route about one, where another broken rule is 422.
    public var isUnknownAccount: Bool

    public init(type: EventType?, field: FieldError, isPermission: Bool = false, isUnknownAccount: Bool = false) {
        self.type = type
        self.field = field
        self.isPermission = isPermission
        self.isUnknownAccount = isUnknownAccount
    }

    public init(type: EventType?, path: String, rule: String, isPermission: Bool = false, isUnknownAccount: Bool = false) {
        self.init(type: type, field: FieldError(path: path, rule: rule), isPermission: isPermission,
                  isUnknownAccount: isUnknownAccount)
    }

    public var description: String {
        guard let type else { return field.description }
        return "\(type.rawValue): \(field)"
    }
}
