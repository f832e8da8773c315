/// CSV lines (RFC 4180 quoting: `"a ""quoted"" field"`), read as bytes. A quoted field does not span lines.
enum CSV {
    /// The fields of one line, unquoted.
    static func fields(_ line: UnsafeRawBufferPointer) -> [[UInt8]] {
        var fields: [[UInt8]] = [], field: [UInt8] = []
        var quoted = false, i = 0
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
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
