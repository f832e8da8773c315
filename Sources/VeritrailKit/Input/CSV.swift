/// CSV lines (RFC 4180 quoting: `"a ""quoted"" field"`), read as bytes. A quoted field does not span lines.
enum CSV {
    /// The separators a header may use: a comma, or the semicolon of spreadsheets in locales whose decimal mark is
    /// a comma, or a tab.
    static let separators: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09]

    /// The separator of a header line: the one of `separators` it holds most of outside quotes (a comma when
    /// it holds none).
    static func separator(ofHeader line: UnsafeRawBufferPointer) -> UInt8 {
        var counts: [UInt8: Int] = [:]
        var quoted = false
        for c in line {
            if c == UInt8(ascii: "\"") { quoted.toggle() } else if !quoted, separators.contains(c) { counts[c, default: 0] += 1 }
        }
        return separators.max { counts[$0, default: 0] < counts[$1, default: 0] }.flatMap { counts[$0, default: 0] > 0 ? $0 : nil }
            ?? UInt8(ascii: ",")
    }

    /// The fields of one line, unquoted, split at `separator`.
    static func fields(_ line: UnsafeRawBufferPointer, separator: UInt8 = UInt8(ascii: ",")) -> [[UInt8]] {
        var fields: [[UInt8]] = [], field: [UInt8] = []
        var quoted = false, i = 0
        let quote = UInt8(ascii: "\""), comma = separator
        while i < line.count {
            let c = line[i]
            if quoted {
                if c == quote {
                    if i + 1 < line.count && line[i + 1] == quote { field.append(quote); i += 1 } else { quoted = false }
                } else { field.append(c) }
            } else if c == quote {
                quoted = true
            } else if c == comma {
                fields.append(field); field.removeAll(keepingCapacity: true)
            } else { field.append(c) }
            i += 1
        }
        fields.append(field)
        return fields
    }
}
