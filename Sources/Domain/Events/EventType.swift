/// The 13 event types of events.md §3. The order of `all` is part of the stored form: append only.
public enum EventType: String, Choice, CaseIterable {
    case accountRegistered = "account.registered"
    case accountUpdated = "account.updated"
    case accountDeleted = "account.deleted"
    case passcodeSet = "passcode.set"
    case passcodeAttempted = "passcode.attempted"
    case scanRecorded = "scan.recorded"
    case counterfeitReported = "counterfeit.reported"
    case settingsChanged = "settings.changed"
    case searchPerformed = "search.performed"
    case statusChanged = "status.changed"
    case fitnessUpdated = "fitness.updated"
    case goalSet = "goal.set"
    case sessionRecorded = "session.recorded"

    public static let choices: [EventType] = [
        .accountRegistered, .accountUpdated, .accountDeleted, .passcodeSet, .passcodeAttempted, .scanRecorded,
        .counterfeitReported, .settingsChanged, .searchPerformed, .statusChanged, .fitnessUpdated, .goalSet,
        .sessionRecorded,
    ]
}
