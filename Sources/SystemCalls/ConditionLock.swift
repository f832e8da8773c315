public import Glibc

/// A mutex with a condition variable, for two threads that hand work to each other (the import's
/// pipeline, the map pager): `lock`, then `wait` until the state it guards says go, `signal` or
/// `broadcast` after changing it, `unlock`.
///
/// The mutex and the condition live in their own allocations because pthread objects must not move.
public final class ConditionLock: @unchecked Sendable {
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    @usableFromInline let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A new lock, held by no one.
    ///
    /// The corresponding C functions are `pthread_mutex_init` and `pthread_cond_init`.
    public init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        // The calls stay outside `precondition`, which `-Ounchecked` removes with its argument.
        let initialized = pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(condition, nil) == 0
        precondition(initialized, "can not make a lock")
    }

    /// The corresponding C functions are `pthread_cond_destroy` and `pthread_mutex_destroy`.
    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the mutex, waiting for it.
    ///
    /// The corresponding C function is `pthread_mutex_lock`.
    @inlinable @inline(__always)
    public func lock() { pthread_mutex_lock(mutex) }

    /// Lets the mutex go.
    ///
    /// The corresponding C function is `pthread_mutex_unlock`.
    @inlinable @inline(__always)
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Lets the mutex go until signalled (or woken spuriously: check the state again), then takes it back.
    ///
    /// The corresponding C function is `pthread_cond_wait`.
    @inlinable @inline(__always)
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// As `wait`, for at most `microseconds`.
    ///
    /// The corresponding C functions are `clock_gettime(CLOCK_REALTIME)` and `pthread_cond_timedwait`.
    public func wait(microseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = now.tv_nsec + microseconds * 1000
        var deadline = now
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        // Ends with ETIMEDOUT when no signal came, which is what the caller asked for.
        _ = pthread_cond_timedwait(condition, mutex, &deadline)
    }

    /// Wakes one waiting thread.
    ///
    /// The corresponding C function is `pthread_cond_signal`.
    @inlinable @inline(__always)
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    ///
    /// The corresponding C function is `pthread_cond_broadcast`.
    @inlinable @inline(__always)
    public func broadcast() { pthread_cond_broadcast(condition) }
}
