public import Domain
import Engine
import Projections
import StrictJSON

extension VeritrailStore {
    /// Sets `actor`'s body type (0–2) and height in inches (36–96), which a calorie goal needs
    /// (`veritrail fitness set`).
    @discardableResult
    public func setFitness(bodyType: Int64, heightInches: Int64, as actor: String, passcode: PasscodeProvider? = nil,
                           options: WriteOptions = WriteOptions()) throws(VeritrailError) -> [AppendedEvent] {
        try appendGated(as: actor, passcode: passcode, options: options) { at, _ in
            [try EventData.event(.fitnessUpdated, actor: actor, at: at, [
                ("username", .string(actor)), ("bodyType", J.int(bodyType)), ("heightInches", J.int(heightInches)),
            ])]
        }
    }

    /// Sets `actor`'s monthly goal for `metric` (`veritrail goal set`); a target of 0 turns it off for the
    /// month; `month` nil is the month of the write.
    @discardableResult
    public func setGoal(_ metric: GoalMetric, target: Int64, month: Month? = nil, as actor: String,
                        passcode: PasscodeProvider? = nil,
                        options: WriteOptions = WriteOptions()) throws(VeritrailError) -> [AppendedEvent] {
        try appendGated(as: actor, passcode: passcode, options: options) { at, _ in
            [try EventData.event(.goalSet, actor: actor, at: at, [
                ("username", .string(actor)), ("month", .string((month ?? at.month).description)),
                ("metric", .string(metric.rawValue)), ("target", J.int(target)),
            ])]
        }
    }

    /// Records a jump session (`veritrail session record`): `actor`'s own, or `user`'s as an admin. `date`
    /// (`YYYY-MM-DD`) nil is the day of the write; times are `HH:MM` (another form, or a date of another form,
    /// is `.malformed`); `sessionId` nil draws a new one
    /// (`ses-` and 8 random characters), returned with the event.
    @discardableResult
    public func recordSession(park: String, start: String, end: String, jumps: Int64, calories: Int64,
                              date: String? = nil, sessionId: String? = nil, for user: String? = nil, as actor: String,
                              passcode: PasscodeProvider? = nil,
                              options: WriteOptions = WriteOptions()) throws(VeritrailError) -> RecordedSession {
        // A value of the wrong form is refused as malformed (64), before the event's rules on the values (65: the
        // end after the start).
        for (name, value) in [("startTime", start), ("endTime", end)] where ClockTime(value) == nil {
            throw .malformed("\(name) must be a time of day HH:MM (24 h, e.g. 18:00), got \"\(value.prefix(40))\"", line: nil)
        }
        if let date, CalendarDate(date) == nil { throw .malformed("date must be YYYY-MM-DD, got \"\(date.prefix(40))\"", line: nil) }
        let id = sessionId ?? "ses-" + RandomIDs.one(for: options.eventID, purpose: "session.sessionId").prefix(8)
        let events = try appendGated(as: actor, passcode: passcode, options: options) { at, _ in
            [try EventData.event(.sessionRecorded, actor: actor, at: at, [
                ("username", .string(user ?? actor)), ("sessionId", .string(id)), ("date", .string(date ?? at.date.description)),
                ("park", .string(park)), ("startTime", .string(start)), ("endTime", .string(end)),
                ("jumps", J.int(jumps)), ("calories", J.int(calories)),
            ])]
        }
        return RecordedSession(sessionId: id, events: events)
    }
}

/// A jump session that was recorded: its id and the event that holds it.
public struct RecordedSession: Sendable {
    /// The session's id, given or drawn.
    public var sessionId: String
    /// The `session.recorded` event: its seq and id, as the write reports them.
    public var events: [AppendedEvent]
}
