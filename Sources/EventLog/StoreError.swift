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

/// An event a walk of the log finds and a lookup by its seq does not: the log's branch pages are damaged
/// (`LogReader.forEachRecord(probing:)`).
public struct UnreachableEvent: Error, CustomStringConvertible, Sendable {
    public var seq: UInt64

    public var description: String {
        "a lookup of event \(seq) by its seq does not find it: the log's index pages are damaged"
    }
}
