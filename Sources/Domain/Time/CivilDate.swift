/// Conversions between days since 1970-01-01 and proleptic Gregorian dates, in UTC.
///
/// Howard Hinnant's `days_from_civil` / `civil_from_days`: branch-light integer arithmetic that is
/// exact for every year Veritrail accepts (0000–9999), with no calendar object or time zone involved.
enum CivilDate {
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Small helpers for reading fixed-width decimal fields out of ASCII bytes.
enum Digits {
    /// The value of `count` ASCII digits starting at `start`, or nil if any byte is not a digit.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var v = 0
        for i in start..<(start + count) {
            let b = bytes[i]
            guard b >= 0x30, b <= 0x39 else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }

    /// Appends the last `width` decimal digits of `value` (≥ 0), zero-padded. Digit by digit, without a
    /// scratch array: every timestamp written (six calls each) goes through here.
    static func append(_ value: Int, width: Int, to out: inout [UInt8]) {
        guard width > 0 else { return }
        var divisor = 1
        for _ in 1..<width { divisor &*= 10 }
        while divisor > 0 {
            out.append(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10))
            divisor /= 10
        }
    }
}
