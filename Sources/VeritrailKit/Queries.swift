public import Domain
import Engine
import Projections
public import StrictJSON

/// Every query of projections.md, answered as the command line answers it with `--json`.
///
/// Each takes `asOf` (a seq or a time: only the events up to it are kept, projections.md §0) and `now`
/// (the time the answer is for: `now` when given, else the `asOf` time, else the `at` of event N, else
/// the store's clock). A `viewer` that is unknown or deleted is refused (`.unknown`).
extension VeritrailStore {
    /// Answers `body` over the kept events; the one place the queries settle `asOf` and `now`.
    func answer<R>(asOf: AsOf?, now: Timestamp?, viewer: String? = nil,
                   _ body: (QueryContext) throws -> R) throws(VeritrailError) -> R {
        try VeritrailError.catching {
            try store.query(asOf: asOf, now: now, fallbackNow: clock) { context in
                if let viewer { _ = try context.activeAccount(viewer) }
                return try body(context)
            }
        }
    }

    /// Answers `query` with the clock it was answered at, in one read of the store: what a program that
    /// renders answers for people needs (relative times are relative to `Answer.now`). `viewer` is
    /// checked whatever the query but `replay`, and a `history` without a window shows the viewer's setting.
    public func answer(_ query: Query, viewer: String? = nil, asOf: AsOf? = nil,
                       now: Timestamp? = nil) throws(VeritrailError) -> Answer {
        // The auditor's view is every projection, whoever asks: its viewer is not looked up, so that the log's
        // first events (before the asker's own registration) can be replayed too.
        var viewer = viewer
        if case .replay = query { viewer = nil }
        var answer = try answer(asOf: asOf, now: now, viewer: viewer) { context in
            var viewerWindow: HistoryWindow?
            let json: JSONValue
            switch query {
            case .history(let history):
                if history.window == nil, let viewer { viewerWindow = try context.activeAccount(viewer).settings.historyWindow }
                json = try history.answer(context, viewer: viewer)
            case .show(let scanId): json = try showScan(try ScanIdPrefix.resolve(scanId, context), context)
            case .stats(let user): json = try Projections.stats(by: user, context)
            case .lockout(let user): json = try Projections.lockout(user, context)
            case .customers(let status): json = try Projections.customers(status: status, context)
            case .customer(let user): json = try customerShow(user, context)
            case .goals(let user, let month): json = try Projections.goals(user, month: month, context)
            case .accounts: json = try Projections.accounts(context)
            case .settings(let user): json = try Projections.settings(user, context)
            case .searches(let user): json = try Projections.searches(user, context)
            case .replay: json = try Projections.replay(context)
            }
            return Answer(json: json, now: context.now, viewerWindow: viewerWindow, hiddenByClock: context.lastSeq)
        }
        // Until here `hiddenByClock` holds the last seq the clock kept; the events after it that `asOf` keeps
        // were hidden by the clock alone.
        let kept = try head(asOf: asOf).seq
        answer.hiddenByClock = kept > answer.hiddenByClock ? kept - answer.hiddenByClock : 0
        return answer
    }

    /// The scan list, newest first, with `query`'s filters (`veritrail history`). Without a window, a
    /// viewer sees their history-window setting.
    public func history(_ query: HistoryQuery = HistoryQuery(), viewer: String? = nil, asOf: AsOf? = nil,
                        now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.history(query), viewer: viewer, asOf: asOf, now: now).json
    }

    /// One scan as the history shows it (`veritrail show`); `scanId` may be its first 4 or more characters.
    public func show(scanId: String, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.show(scanId: scanId), asOf: asOf, now: now).json
    }

    /// The home screen's numbers, of everyone's scans or `by`'s (`veritrail stats`).
    public func stats(by user: String? = nil, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.stats(by: user), asOf: asOf, now: now).json
    }

    /// The passcode gate of `user`, or of every account (`veritrail lockout`).
    public func lockout(_ user: String? = nil, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.lockout(user), asOf: asOf, now: now).json
    }

    /// The customers, or those with `status` (`veritrail customers`).
    public func customers(status: CustomerStatus? = nil, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.customers(status: status), asOf: asOf, now: now).json
    }

    /// One customer with its status history (`veritrail customer show`).
    public func customer(_ user: String, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.customer(user), asOf: asOf, now: now).json
    }

    /// `user`'s monthly goal progress, of `month` or the month of now (`veritrail goals`).
    public func goals(_ user: String, month: Month? = nil, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.goals(user, month: month), asOf: asOf, now: now).json
    }

    /// Every account, deleted ones too (`veritrail accounts`).
    public func accounts(asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.accounts, asOf: asOf, now: now).json
    }

    /// `user`'s scanner and history settings (`veritrail settings`).
    public func settings(_ user: String, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.settings(user), asOf: asOf, now: now).json
    }

    /// `user`'s last 10 distinct searches, newest first (`veritrail searches`).
    public func searches(_ user: String, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.searches(user), asOf: asOf, now: now).json
    }

    /// The auditor's view: every projection at once (`veritrail replay`, projections.md §7).
    public func replay(asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(.replay, asOf: asOf, now: now).json
    }
}
