internal import Glibc

/// The system's clocks.
public enum SystemClock {
    /// Microseconds since 1970-01-01 UTC, by the wall clock (which may be set back).
    ///
    /// The corresponding C function is `clock_gettime(CLOCK_REALTIME)`.
    public static func wallMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    /// Nanoseconds since an arbitrary start that never goes back: for measuring how long something took.
    ///
    /// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
