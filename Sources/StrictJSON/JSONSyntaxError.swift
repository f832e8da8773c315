/// Why a JSON text was refused, and where.
///
/// The offset is a 0-based byte offset into the parsed bytes, so a caller that reads NDJSON
/// can report `line 14, byte 37: duplicate key "at"` without re-scanning the line.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 0-based offset of the offending byte in the input.
    public let offset: Int
    /// A short, lower-case statement of the problem, e.g. `duplicate key "at"`.
    public let message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "byte \(offset): \(message)" }
}
