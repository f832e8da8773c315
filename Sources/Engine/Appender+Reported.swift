public import Domain
import EventLog

extension Appender {
    /// Appends `event` as `append(_:prepared:)` does and says what happened as a gated write does
    /// (`AppendedEvent`): for callers outside the engine that write without the gate (the library's
    /// `append`, like an import).
    public mutating func appendReported(_ event: IncomingEvent) throws -> AppendedEvent {
        let outcome = try append(event)
        let id = try writer.reader.event(at: outcome.seq)?.event.id ?? event.id ?? ""
        let isNew = if case .appended = outcome { true } else { false }
        return AppendedEvent(seq: outcome.seq, id: id, type: event.type, isNew: isNew)
    }
}
