/// NaN or an infinity was given to `CanonicalJSONWriter.double(_:)`: JSON has no spelling
/// for them, so a canonical form would be a lie.
public struct NonFiniteNumberError: Error, Sendable, CustomStringConvertible {
    public let value: Double

    public var description: String { "\(value) can't be written as JSON" }
}
