/// A field of an event that breaks a rule of events.md: which field (a path such as `data.address.city`)
/// and which rule, in words a person can act on.
public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var rule: String

    public init(path: String, rule: String) {
        self.path = path
        self.rule = rule
    }

    public var description: String { "\(path): \(rule)" }
}
