import SystemCalls

// Reading the gazetteer's TSVs: from the bytes compiled in, and without Foundation's number parsing or file
// readers, which copy more.

/// The bytes of a TSV the GazetteerData target compiled in.
func embedded(_ accessor: (UnsafeMutablePointer<Int>) -> UnsafePointer<UInt8>?) -> [UInt8] {
    var size = 0
    guard let start = accessor(&size) else { return [] }
    return Array(UnsafeBufferPointer(start: start, count: size))
}

let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

/// A decimal like -23.5475 in [start, end). Exact: the digits fit in 2^53 and the power of ten is exact,
/// so the one division is correctly rounded, as strtod would give.
func parseDecimal(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var i = start
    var negative = false
    if i < end && (p[i] == 0x2D || p[i] == 0x2B) { negative = p[i] == 0x2D; i += 1 }
    var mantissa: Int64 = 0
    var digits = 0, fraction = 0
    var seenPoint = false
    while i < end {
        let c = p[i]
        if c == 0x2E && !seenPoint {
            seenPoint = true
        } else if c >= 0x30 && c <= 0x39 {
            mantissa = mantissa * 10 + Int64(c - 0x30)
            digits += 1
            if seenPoint { fraction += 1 }
            if digits > 15 { return nil }
        } else {
            return nil
        }
        i += 1
    }
    guard digits > 0 else { return nil }
    let v = Double(mantissa) / powersOfTen[fraction]
    return negative ? -v : v
}

func parseInt(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
    guard end > start, end - start <= 18 else { return nil }
    var v = 0
    for i in start..<end {
        let c = p[i]
        guard c >= 0x30 && c <= 0x39 else { return nil }
        v = v * 10 + Int(c - 0x30)
    }
    return v
}

/// The whole regular file at `path`, read with system calls into one array (Foundation's readers copy more);
/// nil when it can not be read whole.
///
/// The corresponding C functions are `open`, `fstat`, `read` and `close`.
func readFile(_ path: String) -> [UInt8]? {
    guard let fd = try? FileDescriptor.open(path, .readOnly) else { return nil }
    defer { fd.close() }
    guard let status = try? fd.status(), status.isRegularFile else { return nil }
    let size = status.size
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        var done = 0
        while done < size {
            let rest = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[done...])
            guard let read = try? fd.read(into: rest), read > 0 else { break }
            done += read
        }
        failed = done != size
        count = done
    }
    return failed ? nil : bytes
}
