/// Times as people type them on a command line or in a query string (cli.md §8): the one reading of a typed
/// time, for the command line and the server alike.
extension Timestamp {
    /// The forms a typed time may take, for the refusals that name them.
    public static let typedForms = "2026-11-20, 2026-11-20T09:00:00Z or 2026-11-20 10:00+01:00"

    /// Reads a time as typed: a date alone (`2026-11-20`, 00:00:00Z of that date), or a date and a time of
    /// day (`HH:MM`, `HH:MM:SS`, with a fraction of 1–6 digits) joined by `T` or a space, in UTC (`Z`) or
    /// with an offset (`+01:00`, `+0100`, `+01`, `-05:00`), normalised to UTC. `t` and `z` may be lower
    /// case. A time of day without `Z` or an offset is nil: which zone was meant can not be known.
    /// Everything `Timestamp(_:)` reads, it reads to the same instant.
    public init?(typed text: String) {
        if let strict = Timestamp(text) { self = strict; return }
        var text = text
        let parsed: Int64? = text.withUTF8 { bytes -> Int64? in
            let n = bytes.count
            guard n >= 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
                  let year = Digits.value(bytes, 0, 4), let month = Digits.value(bytes, 5, 2), let day = Digits.value(bytes, 8, 2),
                  (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month)
            else { return nil }
            let midnight = Int64(CivilDate.days(year: year, month: month, day: day)) * Timestamp.microsecondsPerDay
            if n == 10 { return midnight }
            // The time of day: HH:MM[:SS[.f]]
            guard [0x54, 0x74, 0x20].contains(bytes[10]), n >= 16, bytes[13] == 0x3A,
                  let hour = Digits.value(bytes, 11, 2), let minute = Digits.value(bytes, 14, 2), hour < 24, minute < 60
            else { return nil }
            var i = 16, second = 0, micros = 0
            if i < n, bytes[i] == 0x3A {
                guard let s = Digits.value(bytes, i + 1, 2), s < 60 else { return nil }
                second = s
                i += 3
                if i < n, bytes[i] == 0x2E {
                    var digits = 0
                    i += 1
                    while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                        guard digits < 6 else { return nil }
                        micros = micros * 10 + Int(bytes[i] - 0x30)
                        digits += 1
                        i += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in digits..<6 { micros *= 10 }
                }
            }
            // The zone: Z, or ±HH[:MM] / ±HHMM.
            guard i < n else { return nil }
            var offsetSeconds = 0
            if bytes[i] == 0x5A || bytes[i] == 0x7A {
                guard i + 1 == n else { return nil }
            } else if bytes[i] == 0x2B || bytes[i] == 0x2D {
                let sign = bytes[i] == 0x2B ? 1 : -1
                let rest = n - i - 1
                guard let hours = Digits.value(bytes, i + 1, 2), hours < 24 else { return nil }
                var minutes = 0
                switch rest {
                case 2: break
                case 4: guard let m = Digits.value(bytes, i + 3, 2) else { return nil }; minutes = m
                case 5: guard bytes[i + 3] == 0x3A, let m = Digits.value(bytes, i + 4, 2) else { return nil }; minutes = m
                default: return nil
                }
                guard minutes < 60 else { return nil }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            } else {
                return nil
            }
            let seconds = Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
            return midnight + seconds * Timestamp.microsecondsPerSecond + Int64(micros)
        }
        guard let parsed else { return nil }
        self.init(microseconds: parsed)
    }
}

/// A range of two typed bounds whose start is after its end (cli.md §8: a usage error).
public struct ReversedRange: Error, Sendable, Equatable, CustomStringConvertible {
    public var start: String
    public var end: String

    public init(start: String, end: String) {
        self.start = start
        self.end = end
    }

    public var description: String { "\(start) is after \(end): give the earlier one first" }

    /// Refuses `since` after `until` when both are given (the names are the caller's, e.g. `--since`).
    public static func check(_ since: (name: String, time: Timestamp)?, _ until: (name: String, time: Timestamp)?) throws(ReversedRange) {
        guard let since, let until, since.time > until.time else { return }
        throw ReversedRange(start: "\(since.name) \(since.time)", end: "\(until.name) \(until.time)")
    }
}
