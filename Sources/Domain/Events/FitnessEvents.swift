/// `fitness.updated`: body type and height, which a calorie goal needs (events.md §3.4).
public struct FitnessUpdated: PayloadFields {
    public var bodyType: Int64
    public var heightInches: Int64
    public var username: String

    public init(username: String, bodyType: Int64, heightInches: Int64) {
        self.username = username; self.bodyType = bodyType; self.heightInches = heightInches
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        bodyType = try s.integer("bodyType", 0...2)
        heightInches = try s.integer("heightInches", 36...96)
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.integer("bodyType", bodyType)
        s.integer("heightInches", heightInches)
        s.string("username", username)
    }
}

/// `goal.set`: a monthly goal for one metric; a target of 0 turns the metric off for that month.
public struct GoalSet: PayloadFields {
    public var metric: GoalMetric
    public var month: Month
    public var target: Int64
    public var username: String

    public init(username: String, month: Month, metric: GoalMetric, target: Int64) {
        self.username = username; self.month = month; self.metric = metric; self.target = target
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        metric = try s.choice("metric", GoalMetric.self)
        month = try s.month("month")
        target = try s.integer("target", 0...100_000_000)
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.choice("metric", metric)
        s.month("month", month)
        s.integer("target", target)
        s.string("username", username)
    }
}

/// `session.recorded`: one jump session.
public struct SessionRecorded: PayloadFields {
    public var calories: Int64
    public var date: CalendarDate
    public var endTime: ClockTime
    public var jumps: Int64
    public var park: String
    public var sessionId: String
    public var startTime: ClockTime
    public var username: String

    public init(username: String, sessionId: String, date: CalendarDate, park: String, startTime: ClockTime,
                endTime: ClockTime, jumps: Int64, calories: Int64) {
        self.username = username; self.sessionId = sessionId; self.date = date; self.park = park
        self.startTime = startTime; self.endTime = endTime; self.jumps = jumps; self.calories = calories
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        calories = try s.integer("calories", 0...100_000)
        date = try s.date("date")
        endTime = try s.time("endTime")
        jumps = try s.integer("jumps", 0...1_000_000)
        park = try s.string("park", .text(min: 1, max: 100))
        sessionId = try s.string("sessionId", .identifier(max: 64))
        startTime = try s.time("startTime")
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.integer("calories", calories)
        s.date("date", date)
        s.time("endTime", endTime)
        s.integer("jumps", jumps)
        s.string("park", park)
        s.string("sessionId", sessionId)
        s.time("startTime", startTime)
        s.string("username", username)
    }

    func checkFields() throws(FieldError) {
        if endTime <= startTime {
            throw FieldError(path: "data.endTime", rule: "must be after startTime (\(startTime)), got \"\(endTime)\"")
        }
    }
}
