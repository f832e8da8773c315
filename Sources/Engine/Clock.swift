public import Domain
import SystemCalls

/// The wall clock, as a `Timestamp` with microseconds.
public enum WallClock {
    ///
    /// The corresponding C function is `clock_gettime(CLOCK_REALTIME)`.
    public static func now() -> Timestamp {
        Timestamp(microseconds: SystemClock.wallMicroseconds())
    }
}
