#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A readers–writer lock over `pthread_rwlock_t`.
///
/// `Environment` needs it because LMDB may change the map size
/// (`mdb_env_set_mapsize`) only while the process has no transaction open:
/// transactions hold it shared, resizing holds it exclusively.
/// The lock lives in its own allocation because pthread locks must not move.
internal final class ReadWriteLock {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        lock.initialize(to: pthread_rwlock_t())
        // The call stays outside `precondition`, which `-Ounchecked` removes with its argument.
        let code = pthread_rwlock_init(lock, nil)
        precondition(code == 0, "pthread_rwlock_init failed")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` while holding the lock shared with other shared holders.
    @inline(__always)
    func withShared<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let code = pthread_rwlock_rdlock(lock)
        precondition(code == 0, "pthread_rwlock_rdlock failed")
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` while holding the lock alone.
    @inline(__always)
    func withExclusive<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let code = pthread_rwlock_wrlock(lock)
        precondition(code == 0, "pthread_rwlock_wrlock failed")
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
