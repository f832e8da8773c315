/// Ids the log assigns to events that come without one: random (version 4) UUIDs in lower case.
public enum EventID {
    /// One new id, drawn as `RandomIDs` draws many.
    public static func random() -> String {
        var ids = RandomIDs(count: 1)
        return ids.next()
    }
}
