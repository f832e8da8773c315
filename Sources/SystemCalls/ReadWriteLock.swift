public import Glibc

/// A readers–writer lock over `pthread_rwlock_t`.
///
/// LMDB's `Environment` needs it because LMDB may change the map size (`mdb_env_set_mapsize`) only while
/// the process has no transaction open: transactions hold it shared, resizing holds it exclusively.
/// The lock lives in its own allocation because pthread locks must not move.
public final class ReadWriteLock {
    @usableFromInline let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    /// A new lock, held by no one.
    ///
    /// The corresponding C function is `pthread_rwlock_init`.
    public init() {
        lock.initialize(to: pthread_rwlock_t())
        // The call stays outside `precondition`, which `-Ounchecked` removes with its argument.
        let code = pthread_rwlock_init(lock, nil)
        precondition(code == 0, "pthread_rwlock_init failed")
    }

    /// The corresponding C function is `pthread_rwlock_destroy`.
    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` while holding the lock shared with other shared holders. It fails only for a lock held
    /// too often or by this thread already, which is a bug, hence the precondition.
    ///
    /// The corresponding C functions are `pthread_rwlock_rdlock` and `pthread_rwlock_unlock`.
    @inlinable @inline(__always)
    public func withShared<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let code = pthread_rwlock_rdlock(lock)
        precondition(code == 0, "pthread_rwlock_rdlock failed")
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` while holding the lock alone.
    ///
    /// The corresponding C functions are `pthread_rwlock_wrlock` and `pthread_rwlock_unlock`.
    @inlinable @inline(__always)
    public func withExclusive<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let code = pthread_rwlock_wrlock(lock)
        precondition(code == 0, "pthread_rwlock_wrlock failed")
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
