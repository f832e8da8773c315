public import Domain
import Engine
import EventLog
import Projections
public import StrictJSON

/// `SEQ:HASH`, the digest of the log's head an auditor writes down and checks later (events.md §2).
public struct LogDigest: Sendable, Equatable, CustomStringConvertible {
    /// The seq of the event the digest names (0: the empty log).
    public var seq: UInt64
    /// The chain's hash after that event: 32 bytes.
    public var hash: [UInt8]

    /// The digest of `seq` and `hash`.
    public init(seq: UInt64, hash: [UInt8]) {
        self.seq = seq
        self.hash = hash
    }

    /// Reads `SEQ:HASH` (digits, a colon, 64 lower-case hex digits), as `LogHead.digest` writes it; nil
    /// for anything else, so that a caller words its own refusal.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seq = UInt64(parts[0]),
              let hash = Hex.decode(String(parts[1])) else { return nil }
        self.init(seq: seq, hash: hash)
    }

    /// `SEQ:HASH`.
    public var description: String { "\(seq):\(Hex.encode(hash))" }
}

/// The log itself, as an auditor looks at it (`log status | tail | digest`, projections.md §7), whole or
/// cut after an earlier event with `asOf` (cli.md §7). An `asOf` beyond the head keeps everything.
extension VeritrailStore {
    /// The head as it was after the last event `asOf` keeps (`log digest --as-of`); the head without it.
    public func head(asOf: AsOf?) throws(VeritrailError) -> StoreHead {
        try VeritrailError.catching {
            try store.read { reader, _ in try reader.head(through: try reader.lastSeq(keptBy: asOf)) }
        }
    }

    /// `log status --json`: how many events, the head, the first and last times, the events per type, and
    /// the store's `origin` (proofs.md §2; absent in a store made before proofs, until its first write).
    /// The whole log's counts come from the kept totals; a cut log's are counted from its records.
    public func logStatus(asOf: AsOf? = nil) throws(VeritrailError) -> JSONValue {
        try VeritrailError.catching {
            var status = try store.read { reader, models in
                let head = try reader.head()
                let cut = try reader.lastSeq(keptBy: asOf)
                if cut == head.seq { return Projections.logStatus(try models.totals(), headSeq: head.seq, headHash: head.hash) }
                return try Projections.logStatus(reader, cutAt: try reader.head(through: cut))
            }
            if case .object(var members) = status, let origin = try store.origin() {
                _ = members.updateValue(.string(origin), forKey: "origin")
                status = .object(members)
            }
            return status
        }
    }

    /// Calls `line` with the out form of every event `filter` keeps among those `asOf` keeps (events.md §1:
    /// with `seq`, `id` and `hash`, one JSON object and its `\n`), in seq order, on one snapshot of the log
    /// (`log tail --json`). An `--actor` that never had an account is refused first (`.unknown`): a
    /// misspelt name would otherwise look like a user who did nothing. Returns how many.
    @discardableResult
    public func tail(_ filter: LogFilter, asOf: AsOf? = nil, line: ([UInt8]) throws -> Void) throws(VeritrailError) -> Int {
        try filtered(filter, asOf: asOf) { seq, bytes, _ in
            var out = try StoredEvent.canonical(bytes, seq: seq, withHash: true)
            out.append(0x0A)
            try line(out)
        }
    }

    /// As `tail(_:asOf:line:)`, with each event decoded (the human `log tail`, one sentence per event).
    @discardableResult
    public func tail(_ filter: LogFilter, asOf: AsOf? = nil,
                     event: (_ seq: UInt64, _ event: Event) throws -> Void) throws(VeritrailError) -> Int {
        try filtered(filter, asOf: asOf) { seq, bytes, reader in try event(seq, try reader.decode(bytes, seq: seq).event) }
    }

    /// The one pass of `tail` and `export`: the actors checked, the filter cut at `asOf`, every record kept.
    func filtered(_ filter: LogFilter, asOf: AsOf?,
                  _ body: (UInt64, UnsafeRawBufferPointer, LogReader) throws -> Void) throws(VeritrailError) -> Int {
        try VeritrailError.catching {
            try store.read { reader, models in
                try Self.checkActors(filter, models)
                var cut = filter
                cut.through = min(filter.through, try reader.lastSeq(keptBy: asOf))
                var count = 0
                try cut.forEach(reader) { seq, bytes in
                    try body(seq, bytes, reader)
                    count += 1
                }
                return count
            }
        }
    }

    /// Refuses an actor of `filter` that never had an account (`system`, the actor of `init`, and deleted
    /// accounts are known). The message names the command line's option, as a refusal of `export` says it.
    static func checkActors(_ filter: LogFilter, _ models: Models) throws(VeritrailError) {
        for actor in filter.actors.sorted() where actor != "system" {
            let account = try VeritrailError.catching { try models.account(actor) }
            guard account != nil else { throw .unknown("no such account \"\(escapedForMessage(actor, quotes: true))\" (--actor)", cause: nil) }
        }
    }
}
