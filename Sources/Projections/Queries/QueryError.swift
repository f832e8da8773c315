/// A query that can not be answered: a usage error (cli.md §6 exit 64: an option value of the wrong form)
/// or a refused input (exit 65: an unknown or deleted user, an unknown scan, a future month).
public enum QueryError: Error, Equatable, CustomStringConvertible, Sendable {
    case usage(String)
    case refused(String)

    public var description: String {
        switch self {
        case .usage(let m), .refused(let m): m
        }
    }
}
