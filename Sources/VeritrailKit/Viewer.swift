public import Domain

/// The viewer of a command that reads the log itself (`log status | tail | verify | digest`, `export`).
extension VeritrailStore {
    /// Refuses `viewer` when it is unknown or deleted in the log as `asOf` keeps it (`.unknown`, exit 65:
    /// cli.md §6 and projections.md §0, "as a viewer too"): an account registered after the `--as-of` point
    /// did not exist there. Only `asOf` cuts the log here; the clock hides nothing, as it hides nothing from
    /// the log commands (cli.md §7).
    public func checkViewer(_ viewer: String, asOf: AsOf?) throws(VeritrailError) {
        // A seq or time cut and no clock: the query's clock is the cut's own time, so it hides nothing more.
        do {
            try answer(asOf: asOf ?? .seq(.max), now: nil, viewer: viewer) { _ in }
        } catch .unknown(let message, let cause) {
            let when = asOf == nil ? "" : " in the log as of --as-of"
            throw .unknown("\(message) (the viewer, --as\(when)): `veritrail accounts` lists the accounts", cause: cause)
        }
    }
}
