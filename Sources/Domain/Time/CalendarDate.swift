/// A UTC calendar date, `YYYY-MM-DD` (events.md §3: the `date` of a session).
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// Parses exactly `YYYY-MM-DD` with a real calendar date.
    public init?(_ text: String) {
        var text = text
        let parsed: Int? = text.withUTF8 { b in
            guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D,
                  let y = Digits.value(b, 0, 4), let m = Digits.value(b, 5, 2), let d = Digits.value(b, 8, 2),
                  (1...12).contains(m), d >= 1, d <= CivilDate.daysInMonth(year: y, month: m)
            else { return nil }
            return CivilDate.days(year: y, month: m, day: d)
        }
        guard let parsed else { return nil }
        dayNumber = parsed
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool { a.dayNumber < b.dayNumber }

    public var month: Month {
        let c = CivilDate.civil(days: dayNumber)
        return Month(year: c.year, month: c.month)
    }

    /// The first instant of this date.
    public var start: Timestamp { Timestamp(microseconds: Int64(dayNumber) * Timestamp.microsecondsPerDay) }

    public var description: String {
        let c = CivilDate.civil(days: dayNumber)
        var out: [UInt8] = []
        Digits.append(c.year, width: 4, to: &out); out.append(0x2D)
        Digits.append(c.month, width: 2, to: &out); out.append(0x2D)
        Digits.append(c.day, width: 2, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// A UTC month, `YYYY-MM` (the month of a goal).
public struct Month: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Months since 0000-01: year × 12 + (month − 1), so months compare and count as integers.
    public var index: Int

    public init(year: Int, month: Int) { index = year * 12 + month - 1 }
    public init(index: Int) { self.index = index }

    /// Parses exactly `YYYY-MM`.
    public init?(_ text: String) {
        var text = text
        let parsed: Int? = text.withUTF8 { b in
            guard b.count == 7, b[4] == 0x2D, let y = Digits.value(b, 0, 4), let m = Digits.value(b, 5, 2),
                  (1...12).contains(m) else { return nil }
            return y * 12 + m - 1
        }
        guard let parsed else { return nil }
        index = parsed
    }

    public static func < (a: Month, b: Month) -> Bool { a.index < b.index }

    public var year: Int { index / 12 }
    public var monthOfYear: Int { index % 12 + 1 }

    public var description: String {
        var out: [UInt8] = []
        Digits.append(year, width: 4, to: &out); out.append(0x2D)
        Digits.append(monthOfYear, width: 2, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// A time of day, `HH:MM` on a 24-hour clock (a session's start and end).
public struct ClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes since midnight.
    public var minutes: Int

    public init(minutes: Int) { self.minutes = minutes }

    public init?(_ text: String) {
        var text = text
        let parsed: Int? = text.withUTF8 { b in
            guard b.count == 5, b[2] == 0x3A, let h = Digits.value(b, 0, 2), let m = Digits.value(b, 3, 2),
                  h < 24, m < 60 else { return nil }
            return h * 60 + m
        }
        guard let parsed else { return nil }
        minutes = parsed
    }

    public static func < (a: ClockTime, b: ClockTime) -> Bool { a.minutes < b.minutes }

    public var description: String {
        var out: [UInt8] = []
        Digits.append(minutes / 60, width: 2, to: &out); out.append(0x3A)
        Digits.append(minutes % 60, width: 2, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
