public import Domain
#if canImport(Glibc)
import Glibc
#endif

/// The wall clock, as a `Timestamp` with microseconds.
public enum WallClock {
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }
}
