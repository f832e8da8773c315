/// One event a write appended, or found already logged under its id (an idempotent retry).
public struct AppendedEvent: Sendable, Equatable {
    /// Its place in the log.
    public var seq: UInt64
    /// Its id (given, or drawn by the log).
    public var id: String
    /// Its type.
    public var type: EventType
    /// False when the event was in the log already: nothing was written for it.
    public var isNew: Bool

    /// An event as the log numbered it.
    public init(seq: UInt64, id: String, type: EventType, isNew: Bool) {
        self.seq = seq
        self.id = id
        self.type = type
        self.isNew = isNew
    }
}
