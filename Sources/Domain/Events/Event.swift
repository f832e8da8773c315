/// One entry of the log: what happened (`payload`), when (`at`), who did it (`actor`), and its id.
///
/// Its position (`seq`) and chain value (`hash`) belong to the log, not to the event, and travel beside it
/// (`LoggedEvent`).
public struct Event: Sendable, Equatable {
    public var id: String
    public var at: Timestamp
    public var actor: String
    public var payload: Payload

    public init(id: String, at: Timestamp, actor: String, payload: Payload) {
        self.id = id; self.at = at; self.actor = actor; self.payload = payload
    }

    public var type: EventType { payload.type }
}

/// An event at its place in the log.
public struct LoggedEvent: Sendable, Equatable {
    public var seq: UInt64
    public var event: Event
    /// The hash chain value after this event (events.md §2), 32 bytes.
    public var hash: [UInt8]

    public init(seq: UInt64, event: Event, hash: [UInt8]) {
        self.seq = seq; self.event = event; self.hash = hash
    }
}

/// An event on its way in (a fixture or import line, or an event a command builds): its `id` may be absent,
/// and an exported line carries the `seq` and `hash` it claims.
public struct IncomingEvent: Sendable, Equatable {
    public var id: String?
    public var at: Timestamp
    public var actor: String
    public var payload: Payload
    public var claimedSeq: UInt64?
    public var claimedHash: [UInt8]?
    /// The start of the event's canonical out form, through `data` (`EventJSON.canonicalHead`), made where
    /// the event was decoded, so that an import makes it on another thread than the one that appends.
    public var canonicalHead: [UInt8]?

    public init(id: String? = nil, at: Timestamp, actor: String, payload: Payload,
                claimedSeq: UInt64? = nil, claimedHash: [UInt8]? = nil, canonicalHead: [UInt8]? = nil) {
        self.id = id; self.at = at; self.actor = actor; self.payload = payload
        self.claimedSeq = claimedSeq; self.claimedHash = claimedHash; self.canonicalHead = canonicalHead
    }

    public var type: EventType { payload.type }

    /// The event with `id`, the given one or the one the log assigned.
    public func event(id assigned: String) -> Event {
        Event(id: id ?? assigned, at: at, actor: actor, payload: payload)
    }
}
