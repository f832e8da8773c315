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
///
/// The start of its canonical out form (`canonicalHead`), which the hash chain and the Merkle leaf hash, is
/// derived from `at`, `actor` and `payload` only: made ahead of time on the thread that decodes an import line
/// (`prepareCanonicalHead()`), and forgotten whenever one of them changes, so that the bytes hashed are always
/// those of the event stored (a batch stamped with its write's time after it was read is hashed with that time).
public struct IncomingEvent: Sendable {
    public var id: String?
    public var at: Timestamp { didSet { preparedHead = nil } }
    public var actor: String { didSet { preparedHead = nil } }
    public var payload: Payload { didSet { preparedHead = nil } }
    public var claimedSeq: UInt64?
    public var claimedHash: [UInt8]?
    /// `canonicalHead` made from the fields as they are now, or nil until `prepareCanonicalHead()`.
    private var preparedHead: [UInt8]?

    public init(id: String? = nil, at: Timestamp, actor: String, payload: Payload,
                claimedSeq: UInt64? = nil, claimedHash: [UInt8]? = nil) {
        self.id = id; self.at = at; self.actor = actor; self.payload = payload
        self.claimedSeq = claimedSeq; self.claimedHash = claimedHash
    }

    public var type: EventType { payload.type }

    /// The start of the event's canonical out form, through `data` (`EventJSON.canonicalHead`), from its
    /// fields as they are now: the one made ahead when it still holds, else made here.
    public var canonicalHead: [UInt8] {
        preparedHead ?? EventJSON.canonicalHead(at: at, actor: actor, payload: payload)
    }

    /// Makes `canonicalHead` now (an import does it on the thread that decodes, not the one that appends).
    public mutating func prepareCanonicalHead() {
        preparedHead = EventJSON.canonicalHead(at: at, actor: actor, payload: payload)
    }

    /// The event with `id`, the given one or the one the log assigned.
    public func event(id assigned: String) -> Event {
        Event(id: id ?? assigned, at: at, actor: actor, payload: payload)
    }
}

extension IncomingEvent: Equatable {
    /// Equal fields; whether `canonicalHead` was made ahead does not matter.
    public static func == (a: IncomingEvent, b: IncomingEvent) -> Bool {
        a.id == b.id && a.at == b.at && a.actor == b.actor && a.payload == b.payload
            && a.claimedSeq == b.claimedSeq && a.claimedHash == b.claimedHash
    }
}
