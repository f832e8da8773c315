public import LMDB

/// A store that can not be opened, read or written (cli.md §6: exit 74).
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public var message: String
    /// LMDB's error when it caused this one, so that a caller can still tell it by its code.
    public var lmdb: LMDBError?

    public init(_ message: String) { self.message = message }

    public init(_ error: LMDBError, doing what: String) {
        message = "\(what): \(error)"
        lmdb = error
    }

    public var description: String { message }
}
