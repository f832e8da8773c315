internal import Glibc

/// What of the process's memory is resident, as the kernel counts it.
///
/// A reader of the store can not know from the pages it reads how much the kernel maps for them: a fault maps
/// the cached pages around the one touched (fault-around), and, where the page cache holds a file in large
/// folios, the whole folio (2 MiB, with transparent huge pages). A reader that must stay within a bound
/// measures instead (`PageAudit`).
public enum ResidentSet {
    /// `/proc/self/statm`, opened once for the process and read from its start each time (about a microsecond:
    /// the kernel keeps the counts); -1 when it could not be opened.
    private static let statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)

    /// The bytes of the resident set that are pages of mapped files or shared memory (`RssFile` + `RssShmem`:
    /// the store's map, the binary's own code); nil when `/proc` can not be read.
    ///
    /// The corresponding C function is `pread` of `/proc/self/statm` (its third field, in pages).
    public static func mappedFileBytes() -> Int? { statmField(2) }

    /// The bytes of the whole resident set (what GNU time's `%M` peaks at); nil when `/proc` can not be read.
    ///
    /// The corresponding C function is `pread` of `/proc/self/statm` (its second field, in pages).
    public static func residentBytes() -> Int? { statmField(1) }

    /// Field `index` (from 0) of `/proc/self/statm`, "size resident shared text lib data dt", in bytes.
    private static func statmField(_ index: Int) -> Int? {
        guard statm >= 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> Int? in
            let count = pread(statm, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return nil }
            var field = 0, value = 0, digits = 0
            for byte in buffer.prefix(count) {
                if byte == UInt8(ascii: " ") {
                    if field == index { break }
                    field += 1
                    value = 0
                    digits = 0
                } else if field == index, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 {
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    digits += 1
                }
            }
            return field == index && digits > 0 ? value * MemoryMap.pageSize : nil
        }
    }
}
