public import Domain
public import Engine
public import EventLog
public import LMDB
public import Projections
public import StrictJSON

// The types of the lower layers that the library's API speaks in, named here so that a program needs only
// `import VeritrailKit` (and depends only on the `Veritrail` product).

/// A JSON value: what every query answers, exactly what the command line prints with `--json`.
public typealias JSONValue = StrictJSON.JSONValue
/// A time in the log: UTC with microseconds (`2026-11-03T10:00:00.000000Z`).
public typealias Timestamp = Domain.Timestamp
/// An event on its way in, before the log numbers it: built by hand or decoded from interchange JSON.
public typealias IncomingEvent = Domain.IncomingEvent
/// An event's type (`scan.recorded`, …).
public typealias EventType = Domain.EventType
/// A broken rule of the event catalogue: the event's type, the field and the rule.
public typealias EventError = Domain.EventError
/// An account's role.
public typealias Role = Domain.Role
/// A scan's verdict.
public typealias ScanResult = Domain.ScanResult
/// How a scan was taken (camera, gallery, typed in).
public typealias ScanSource = Domain.ScanSource
/// Single or batch capture.
public typealias CaptureMode = Domain.CaptureMode
/// Why a scan is reported as counterfeit.
public typealias ReportReason = Domain.ReportReason
/// How far back the history looks.
public typealias HistoryWindow = Domain.HistoryWindow
/// The scanner's colour.
public typealias ScannerColor = Domain.ScannerColor
/// A customer's process status.
public typealias CustomerStatus = Domain.CustomerStatus
/// What a monthly goal counts.
public typealias GoalMetric = Domain.GoalMetric
/// A calendar month, `YYYY-MM`.
public typealias Month = Domain.Month
/// What a passcode attempt recorded: granted, denied or locked.
public typealias AttemptOutcome = Domain.AttemptOutcome
/// The filters of the `history` query (projections.md §2).
public typealias HistoryQuery = Projections.HistoryQuery
/// Which events an export writes (cli.md §7).
public typealias LogFilter = Engine.LogFilter
/// A point of the log to answer as of: a seq, or a time (projections.md §0).
public typealias AsOf = Engine.AsOf
/// One event a write appended, or found in the log already under its id.
public typealias AppendedEvent = Engine.AppendedEvent
/// What a rebuild did.
public typealias RebuildSummary = Engine.Store.RebuildSummary
/// The result of checking the hash chain: ok with the head, or the first bad seq and why.
public typealias VerificationOutcome = LogVerifier.Outcome
/// The head of the log: its last seq, its hash and the last event's time.
public typealias StoreHead = LogHead
/// An error LMDB reported, with its code (`MDB_*` or an `errno`).
public typealias LMDBError = LMDB.LMDBError
/// A commit that failed and may have committed all the same: check, or retry with the same ids.
public typealias CommitFailed = LMDB.CommitFailed
