import VeritrailKit

/// How the human output of `log tail`, `replay` and `diff` shows a time (the other answers through
/// `Human.relative`, which `--utc` switches alike): relative to the clock ("3 h ago",
/// as everywhere), or with `--utc` as the log writes it (`2026-11-20T18:00:05Z`), which an auditor can
/// compare, sort and paste back into `--as-of` or `--since`.
struct TimeStyle {
    var now: Timestamp
    var utc: Bool

    func show(_ time: Timestamp?) -> String {
        guard let time else { return "—" }
        return utc ? time.description : Human.relative(.string(time.description), now: now)
    }

    /// A time of a JSON answer (a string in the log's form, or null).
    func show(_ value: JSONValue?) -> String {
        guard case .string(let s)? = value else { return "—" }
        return show(Timestamp(s))
    }
}
