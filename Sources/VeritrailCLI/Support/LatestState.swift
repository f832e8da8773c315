import Domain
import Engine
import Projections

extension Store {
    /// Reads the store as it is, every event kept whatever the clock: what a writing command looks up (the
    /// account it changes, the scan it reports, the scan it just recorded) must not be hidden by a `--now` or
    /// `VERITRAIL_NOW` behind the head, since the events it writes are stamped at the head's time then.
    func latest<R>(_ body: (QueryContext) throws -> R) throws -> R {
        try query(asOf: .seq(.max), now: nil, fallbackNow: environmentNow, body)
    }
}
