/// The closed word lists of events.md §3. Each list's order is part of the stored form: append only.

public enum Role: String, Choice { case admin, inspector, customer
    public static let choices: [Role] = [.admin, .inspector, .customer] }

public enum ScanResult: String, Choice { case authentic, counterfeit
    public static let choices: [ScanResult] = [.authentic, .counterfeit] }

public enum CaptureMode: String, Choice { case single, batch
    public static let choices: [CaptureMode] = [.single, .batch] }

public enum ScanSource: String, Choice { case camera, gallery, manual
    public static let choices: [ScanSource] = [.camera, .gallery, .manual] }

public enum ReportReason: String, Choice { case packaging, label, serial, price, seller, other
    public static let choices: [ReportReason] = [.packaging, .label, .serial, .price, .seller, .other] }

public enum HistoryWindow: String, Choice {
    case today, sevenDays = "7d", thirtyDays = "30d", ninetyDays = "90d", all
    public static let choices: [HistoryWindow] = [.today, .sevenDays, .thirtyDays, .ninetyDays, .all]
}

public enum ScannerColor: String, Choice { case white
    public static let choices: [ScannerColor] = [.white] }

public enum CustomerStatus: String, Choice {
    case awaited = "AWAITED", failedToReach = "FAILEDTOREACH", onboarded = "ONBOARDED"
    case inProcess = "INPROCESS", completed = "COMPLETED", denied = "DENIED"
    public static let choices: [CustomerStatus] = [.awaited, .failedToReach, .onboarded, .inProcess, .completed, .denied]

    /// The status colours of projections.md §4.
    public var color: String {
        switch self {
        case .awaited: "yellow"
        case .failedToReach: "light-red"
        case .onboarded: "light-green"
        case .inProcess: "mid-green"
        case .completed: "dark-green"
        case .denied: "red"
        }
    }
}

public enum GoalMetric: String, Choice { case jumps, calories, scans
    public static let choices: [GoalMetric] = [.jumps, .calories, .scans] }

public enum AttemptOutcome: String, Choice { case granted, denied, locked
    public static let choices: [AttemptOutcome] = [.granted, .denied, .locked] }

/// `pbkdf2-sha256-hmac` (version 2): the PBKDF2 output keyed with the store's pepper, which an export lacks.
public enum CredentialScheme: String, Choice { case pbkdf2SHA256 = "pbkdf2-sha256", pbkdf2SHA256HMAC = "pbkdf2-sha256-hmac"
    public static let choices: [CredentialScheme] = [.pbkdf2SHA256, .pbkdf2SHA256HMAC] }
