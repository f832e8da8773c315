/// Finds the first byte in `bytes[start..<end]` that a JSON string can't hold as itself:
/// `"`, `\` or a control character below 0x20. Returns `end` if there is none.
///
/// Both the parser and the writer spend most of their time on string contents, which rarely
/// hold such a byte, so this tests eight bytes at a time (the "has a zero byte" and "has a
/// byte less than n" word tricks, both exact) before looking at single bytes.
/// `nonASCII` is set when a scanned byte before the returned index is 0x80 or above.
@inlinable @inline(__always)
public func indexOfStringSpecialByte(
    _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, nonASCII: inout Bool
) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = start
    var seen: UInt64 = 0
    while end - index >= 8 {
        let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let special = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & highs
        if special != 0 { break }
        seen |= word
        index += 8
    }
    while index < end {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        seen |= UInt64(byte)
        index += 1
    }
    if seen & highs != 0 { nonASCII = true }
    return index
}
