/// `status.changed`: an admin moved a customer to another process status (events.md §3.3).
public struct StatusChanged: PayloadFields {
    public var note: String?
    public var status: CustomerStatus
    public var username: String

    public init(username: String, status: CustomerStatus, note: String? = nil) {
        self.username = username; self.status = status; self.note = note
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        note = try s.optionalString("note", .text(min: 1, max: 200))
        status = try s.choice("status", CustomerStatus.self)
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.optionalString("note", note)
        s.choice("status", status)
        s.string("username", username)
    }
}
