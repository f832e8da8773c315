public import Domain
public import Engine
public import Projections
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

    /// The scan list, newest first, with `query`'s filters (`veritrail history`). Without a window, a
    /// viewer sees their history-window setting.
    public func history(_ query: HistoryQuery = HistoryQuery(), viewer: String? = nil, asOf: AsOf? = nil,
                        now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now, viewer: viewer) { try query.answer($0, viewer: viewer) }
    }

    /// One scan as the history shows it (`veritrail show`); `scanId` may be its first 4 or more characters.
    public func show(scanId: String, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { context in try showScan(try ScanIdPrefix.resolve(scanId, context), context) }
    }

    /// The home screen's numbers, of everyone's scans or `by`'s (`veritrail stats`).
    public func stats(by user: String? = nil, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try Projections.stats(by: user, $0) }
    }

    /// The passcode gate of `user`, or of every account (`veritrail lockout`).
    public func lockout(_ user: String? = nil, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try Projections.lockout(user, $0) }
    }

    /// The customers, or those with `status` (`veritrail customers`).
    public func customers(status: CustomerStatus? = nil, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try Projections.customers(status: status, $0) }
    }

    /// One customer with its status history (`veritrail customer show`).
    public func customer(_ user: String, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try customerShow(user, $0) }
    }

    /// `user`'s monthly goal progress, of `month` or the month of now (`veritrail goals`).
    public func goals(_ user: String, month: Month? = nil, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try Projections.goals(user, month: month, $0) }
    }

    /// Every account, deleted ones too (`veritrail accounts`).
    public func accounts(asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try Projections.accounts($0) }
    }

    /// `user`'s scanner and history settings (`veritrail settings`).
    public func settings(_ user: String, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try Projections.settings(user, $0) }
    }

    /// `user`'s last 10 distinct searches, newest first (`veritrail searches`).
    public func searches(_ user: String, asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try Projections.searches(user, $0) }
    }

    /// The auditor's view: every projection at once (`veritrail replay`, projections.md §7).
    public func replay(asOf: AsOf? = nil, now: Timestamp? = nil) throws(VeritrailError) -> JSONValue {
        try answer(asOf: asOf, now: now) { try Projections.replay($0) }
    }
}
