/// An instant in UTC with microsecond precision: the `at` of an event.
///
/// Kept as microseconds since 1970-01-01T00:00:00Z so that the log can compare, subtract and store
/// instants as plain integers; the text form is made only for output. The text form is the one the
/// log keeps (events.md §1): `YYYY-MM-DDTHH:MM:SS[.f]Z` with no trailing zeros in the fraction.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    public static let microsecondsPerSecond: Int64 = 1_000_000
    public static let microsecondsPerDay: Int64 = 86_400 * microsecondsPerSecond

    /// Parses the strict RFC 3339 form of events.md §1: upper-case `T` and `Z`, a real calendar date,
    /// no leap second, an optional fraction of 1–6 digits. Anything else is nil.
    public init?(_ text: String) {
        var text = text
        let parsed: Int64? = text.withUTF8 { bytes in
            let n = bytes.count
            guard n == 20 || (n >= 22 && n <= 27) else { return nil }
            guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
                  bytes[16] == 0x3A, bytes[n - 1] == 0x5A,
                  let year = Digits.value(bytes, 0, 4), let month = Digits.value(bytes, 5, 2),
                  let day = Digits.value(bytes, 8, 2), let hour = Digits.value(bytes, 11, 2),
                  let minute = Digits.value(bytes, 14, 2), let second = Digits.value(bytes, 17, 2),
                  (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
                  hour < 24, minute < 60, second < 60
            else { return nil }
            var micros = 0
            if n > 20 {
                guard bytes[19] == 0x2E, let fraction = Digits.value(bytes, 20, n - 21) else { return nil }
                micros = fraction
                for _ in 0..<(6 - (n - 21)) { micros *= 10 }
            }
            let days = CivilDate.days(year: year, month: month, day: day)
            let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            return seconds * Timestamp.microsecondsPerSecond + Int64(micros)
        }
        guard let parsed else { return nil }
        self.microseconds = parsed
    }

    /// Days since 1970-01-01 of this instant's UTC date.
    public var dayNumber: Int {
        Int(microseconds.floorDivided(by: Timestamp.microsecondsPerDay))
    }

    /// The UTC calendar date of this instant.
    public var date: CalendarDate { CalendarDate(dayNumber: dayNumber) }

    /// The UTC month of this instant.
    public var month: Month { date.month }

    public func adding(seconds: Int64) -> Timestamp {
        Timestamp(microseconds: microseconds + seconds * Timestamp.microsecondsPerSecond)
    }

    /// The normalised text form: no fraction for whole seconds, no trailing zeros otherwise.
    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(27)
        appendText(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the normalised text form as UTF-8, for writers that build bytes.
    public func appendText(to out: inout [UInt8]) {
        let days = dayNumber
        let (year, month, day) = CivilDate.civil(days: days)
        let inDay = microseconds - Int64(days) * Timestamp.microsecondsPerDay
        let seconds = Int(inDay / Timestamp.microsecondsPerSecond)
        var fraction = Int(inDay % Timestamp.microsecondsPerSecond)
        Digits.append(year, width: 4, to: &out); out.append(0x2D)
        Digits.append(month, width: 2, to: &out); out.append(0x2D)
        Digits.append(day, width: 2, to: &out); out.append(0x54)
        Digits.append(seconds / 3600, width: 2, to: &out); out.append(0x3A)
        Digits.append(seconds / 60 % 60, width: 2, to: &out); out.append(0x3A)
        Digits.append(seconds % 60, width: 2, to: &out)
        if fraction > 0 {
            var width = 6
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            out.append(0x2E)
            Digits.append(fraction, width: width, to: &out)
        }
        out.append(0x5A)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity, so that instants before 1970 fall on the right day.
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
