public import Domain

/// What every query is asked against (projections.md §0): the models of the kept events and the clock.
public struct QueryContext {
    public let models: Models
    public let now: Timestamp
    /// The last event kept (seq 0 and no `at` when none).
    public let lastSeq: UInt64
    public let lastAt: Timestamp?

    public init(models: Models, now: Timestamp, lastSeq: UInt64, lastAt: Timestamp?) {
        self.models = models
        self.now = now
        self.lastSeq = lastSeq
        self.lastAt = lastAt
    }

    /// An account that exists and is not deleted, or the refusal of projections.md §0.
    public func activeAccount(_ username: String) throws -> AccountRecord {
        guard let account = try models.account(username) else { throw QueryError.refused("no such account \"\(escapedForMessage(username, quotes: true))\"") }
        guard !account.deleted else { throw QueryError.refused("account \"\(username)\" is deleted") }
        return account
    }

    /// An account that exists, deleted or not (`--by` still answers for a deleted account's scans).
    public func knownAccount(_ username: String) throws -> AccountRecord {
        guard let account = try models.account(username) else { throw QueryError.refused("no such account \"\(escapedForMessage(username, quotes: true))\"") }
        return account
    }
}
