import Domain
import Engine
import Projections

extension GlobalOptions {
    /// Opens the existing store as the engine's `Store` (exit 74 when there is none), for the commands
    /// that do not go through the library yet (`open()` is their way through it).
    func openStore() throws -> Store { try Store(directory: storeDirectory) }
}

extension Store {
    /// Reads the store as it is, every event kept whatever the clock: what a writing command looks up (the
    /// account it changes, the scan it reports, the scan it just recorded) must not be hidden by a `--now` or
    /// `VERITRAIL_NOW` behind the head, since the events it writes are stamped at the head's time then.
    func latest<R>(_ body: (QueryContext) throws -> R) throws -> R {
        try query(asOf: .seq(.max), now: nil, fallbackNow: environmentNow, body)
    }
}
