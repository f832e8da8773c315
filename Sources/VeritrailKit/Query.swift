public import Domain
public import StrictJSON

/// One query of projections.md, as data: what `VeritrailStore.answer(_:viewer:asOf:now:)` answers. A
/// program that maps requests to queries (a command line, a server's routes) names the query here and
/// gets every one answered, and its clock settled, the same way.
public enum Query: Sendable, Equatable {
    /// The scan list, newest first, with its filters (`veritrail history`).
    case history(HistoryQuery)
    /// One scan as the history shows it; `scanId` may be its first 4 or more characters (`veritrail show`).
    case show(scanId: String)
    /// The home screen's numbers, of everyone's scans or `by`'s (`veritrail stats`).
    case stats(by: String?)
    /// The passcode gate of one account, or of every account when nil (`veritrail lockout`).
    case lockout(String?)
    /// The customers, or those with `status` (`veritrail customers`).
    case customers(status: CustomerStatus?)
    /// One customer with its status history (`veritrail customer show`).
    case customer(String)
    /// An account's monthly goal progress, of `month` or the month of now (`veritrail goals`).
    case goals(String, month: Month?)
    /// Every account, deleted ones too (`veritrail accounts`).
    case accounts
    /// An account's scanner and history settings (`veritrail settings`).
    case settings(String)
    /// An account's last 10 distinct searches, newest first (`veritrail searches`).
    case searches(String)
    /// The auditor's view: every projection at once (`veritrail replay`, projections.md §7).
    case replay
}

/// A query's answer with the clock it was answered at, which a human rendering needs to say "3 min ago"
/// of the same instant the answer was computed for.
public struct Answer: Sendable, Equatable {
    /// The answer, as `--json` prints it.
    public var json: JSONValue
    /// The time the answer is for: `now` when given, else the `asOf` time, else the `at` of event N, else
    /// the store's clock (projections.md §0).
    public var now: Timestamp
    /// For a `history` asked without a window by a viewer: the viewer's history-window setting, which chose
    /// the scans (a rendering says so); nil otherwise.
    public var viewerWindow: HistoryWindow?
    /// How many events that `asOf` keeps were left out because their `at` is after `now` (a `VERITRAIL_NOW`
    /// or `--now` behind the log): a person is told, since the answer then looks as if they never happened
    /// (cli.md §8).
    public var hiddenByClock: UInt64

    /// An answer as the store gives it.
    public init(json: JSONValue, now: Timestamp, viewerWindow: HistoryWindow? = nil, hiddenByClock: UInt64 = 0) {
        self.json = json
        self.now = now
        self.viewerWindow = viewerWindow
        self.hiddenByClock = hiddenByClock
    }
}
