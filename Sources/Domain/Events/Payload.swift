/// The `data` of an event: one case per event type.
public enum Payload: Sendable, Equatable {
    case accountRegistered(AccountRegistered)
    case accountUpdated(AccountUpdated)
    case accountDeleted(AccountDeleted)
    case passcodeSet(PasscodeSet)
    case passcodeAttempted(PasscodeAttempted)
    case scanRecorded(ScanRecorded)
    case counterfeitReported(CounterfeitReported)
    case settingsChanged(SettingsChanged)
    case searchPerformed(SearchPerformed)
    case statusChanged(StatusChanged)
    case fitnessUpdated(FitnessUpdated)
    case goalSet(GoalSet)
    case sessionRecorded(SessionRecorded)

    public var type: EventType {
        switch self {
        case .accountRegistered: .accountRegistered
        case .accountUpdated: .accountUpdated
        case .accountDeleted: .accountDeleted
        case .passcodeSet: .passcodeSet
        case .passcodeAttempted: .passcodeAttempted
        case .scanRecorded: .scanRecorded
        case .counterfeitReported: .counterfeitReported
        case .settingsChanged: .settingsChanged
        case .searchPerformed: .searchPerformed
        case .statusChanged: .statusChanged
        case .fitnessUpdated: .fitnessUpdated
        case .goalSet: .goalSet
        case .sessionRecorded: .sessionRecorded
        }
    }

    /// Reads the payload of `type` from `source`, in key order.
    public static func read<S: FieldSource>(_ type: EventType, from s: inout S) throws(FieldError) -> Payload {
        switch type {
        case .accountRegistered: .accountRegistered(try AccountRegistered(from: &s))
        case .accountUpdated: .accountUpdated(try AccountUpdated(from: &s))
        case .accountDeleted: .accountDeleted(try AccountDeleted(from: &s))
        case .passcodeSet: .passcodeSet(try PasscodeSet(from: &s))
        case .passcodeAttempted: .passcodeAttempted(try PasscodeAttempted(from: &s))
        case .scanRecorded: .scanRecorded(try ScanRecorded(from: &s))
        case .counterfeitReported: .counterfeitReported(try CounterfeitReported(from: &s))
        case .settingsChanged: .settingsChanged(try SettingsChanged(from: &s))
        case .searchPerformed: .searchPerformed(try SearchPerformed(from: &s))
        case .statusChanged: .statusChanged(try StatusChanged(from: &s))
        case .fitnessUpdated: .fitnessUpdated(try FitnessUpdated(from: &s))
        case .goalSet: .goalSet(try GoalSet(from: &s))
        case .sessionRecorded: .sessionRecorded(try SessionRecorded(from: &s))
        }
    }

    /// Writes the payload's fields, in key order.
    public func write<S: FieldSink>(to s: inout S) {
        switch self {
        case .accountRegistered(let p): p.write(to: &s)
        case .accountUpdated(let p): p.write(to: &s)
        case .accountDeleted(let p): p.write(to: &s)
        case .passcodeSet(let p): p.write(to: &s)
        case .passcodeAttempted(let p): p.write(to: &s)
        case .scanRecorded(let p): p.write(to: &s)
        case .counterfeitReported(let p): p.write(to: &s)
        case .settingsChanged(let p): p.write(to: &s)
        case .searchPerformed(let p): p.write(to: &s)
        case .statusChanged(let p): p.write(to: &s)
        case .fitnessUpdated(let p): p.write(to: &s)
        case .goalSet(let p): p.write(to: &s)
        case .sessionRecorded(let p): p.write(to: &s)
        }
    }

    /// The rules that tie one field of `data` to another (events.md §3), checked on the way in.
    func checkFields() throws(FieldError) {
        switch self {
        case .accountRegistered(let p): try p.checkFields()
        case .accountUpdated(let p): try p.checkFields()
        case .scanRecorded(let p): try p.checkFields()
        case .counterfeitReported(let p): try p.checkFields()
        case .settingsChanged(let p): try p.checkFields()
        case .sessionRecorded(let p): try p.checkFields()
        case .accountDeleted, .passcodeSet, .passcodeAttempted, .searchPerformed, .statusChanged, .fitnessUpdated,
             .goalSet:
            break
        }
    }
}
