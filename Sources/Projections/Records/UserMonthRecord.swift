public import Domain
import EventLog

/// One user's month on the goals screen: the goal targets set for it, the sums of its sessions, its last
/// session and how many scans the user recorded in it.
public struct UserMonthRecord: Sendable, Equatable {
    /// The last target set for each metric (`GoalMetric.choices` order); nil where none was set.
    public var targets: [Int64?] = [nil, nil, nil]
    public var jumps: Int64 = 0
    public var calories: Int64 = 0
    public var scans: Int64 = 0
    public var lastSession: SessionSummary?

    public struct SessionSummary: Sendable, Equatable {
        public var seq: UInt64
        public var session: SessionRecorded

        /// The month's last session: latest `date`, then latest `endTime`, then largest `seq`.
        func isAfter(_ other: SessionSummary) -> Bool {
            (session.date, session.endTime.minutes, seq) > (other.session.date, other.session.endTime.minutes, other.seq)
        }
    }

    public func target(_ metric: GoalMetric) -> Int64? { targets[Int(metric.storedIndex)] }

    func encoded() -> [UInt8] {
        var s = BinaryFieldSink()
        for t in targets { s.optionalInteger("", t) }
        s.signed(jumps); s.signed(calories); s.signed(scans)
        s.optionalObject("", lastSession) { s, v in s.varint(v.seq); v.session.write(to: &s) }
        return s.bytes
    }

    init() {}

    init(decoding bytes: UnsafeRawBufferPointer) throws(FieldError) {
        var s = BinaryFieldSource(bytes: bytes)
        for i in 0..<3 { targets[i] = try s.optionalInteger("target", 0...0) }
        jumps = try s.signed("jumps"); calories = try s.signed("calories"); scans = try s.signed("scans")
        lastSession = try s.optionalObject("lastSession") { (s: inout BinaryFieldSource) throws(FieldError) in
            SessionSummary(seq: try s.varint("seq"), session: try SessionRecorded(from: &s))
        }
    }
}
