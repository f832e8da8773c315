import Foundation

/// What `/proc/self/smaps` says of the process's maps of one file, read line by line (Foundation reads a file
/// of the size `stat` gives, which is 0 there).
public enum MappedFile {
    /// The bytes of every map of the file at `path` that are mapped into the process (`Rss`).
    public static func residentBytes(of path: String) throws -> Int {
        var bytes = 0
        try forEachField(of: path) { line in
            if line.hasPrefix("Rss:") { bytes += 1024 * (line.dropFirst(4).split(separator: " ").first.flatMap { Int($0) } ?? 0) }
        }
        return bytes
    }

    /// The kernel's flags of each map of the file at `path` (`VmFlags`): `rr` where the map is advised
    /// random reads (`MADV_RANDOM`: no read-ahead), `sr` sequential ones.
    public static func flags(of path: String) throws -> [Set<String>] {
        var flags: [Set<String>] = []
        try forEachField(of: path) { line in
            if line.hasPrefix("VmFlags:") { flags.append(Set(line.dropFirst(8).split(separator: " ").map(String.init))) }
        }
        return flags
    }

    /// Calls `body` with each line that follows the head of a map of the file at `path`, up to the next head.
    private static func forEachField(of path: String, _ body: (String) -> Void) throws {
        guard let file = fopen("/proc/self/smaps", "r") else { throw SmapsMissing() }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        var inFile = false
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let head = text.prefix { $0 != " " }
            if head.contains("-"), head.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inFile = text.hasSuffix(" " + path)
            } else if inFile {
                body(text)
            }
        }
    }

    public struct SmapsMissing: Error {}
}
