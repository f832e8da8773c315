internal import GazetteerData

/// The first-level regions a place can be given in (`Paris, Texas`, `Paris, TX`, `Toronto, ON`): states,
/// provinces, territories and cantons, by their ISO 3166-2 name, and by their code where people write it (US,
/// CA, AU, CH), from Resources/regions.tsv (`country  admin1  code  name  keys`, Data/README.md).
public struct Regions: Sendable {
    /// A region: its country, GeoNames' admin1 code (what the gazetteer's rows carry), ISO's code after the
    /// dash (`TX`, `ON`, `ARA`) and ISO's name.
    public struct Region: Sendable, Equatable, Hashable {
        public let countryCode: String
        public let admin1: String
        public let code: String
        public let name: String
    }

    /// Folded name or code → the regions it names (`wa`: Washington and Western Australia).
    private let byKey: [String: [Region]]
    /// `country.admin1` → region.
    private let byAdmin1: [String: Region]

    /// Parses regions TSV bytes; a line that is not `country  admin1  code  name  keys` is refused.
    public init(bytes: [UInt8]) throws {
        var byKey: [String: [Region]] = [:], byAdmin1: [String: Region] = [:]
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == "country\tadmin1\tcode\tname\tkeys" else { throw Gazetteer.LoadError.badHeader }
        for (i, line) in lines.enumerated().dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count == 5, f[0].utf8.count == 2, !f[1].isEmpty else { throw Gazetteer.LoadError.badLine(i + 1) }
            let region = Region(countryCode: String(f[0]), admin1: String(f[1]), code: String(f[2]), name: String(f[3]))
            byAdmin1["\(region.countryCode).\(region.admin1)"] = region
            for key in f[4].split(separator: ",") { byKey[String(key), default: []].append(region) }
        }
        self.byKey = byKey
        self.byAdmin1 = byAdmin1
    }

    /// The regions compiled into the binary, loaded once per process.
    public static func bundled() throws -> Regions { try shared.get() }

    private static let shared: Result<Regions, any Error> = Result {
        try Regions(bytes: embedded(veritrail_regions_tsv))
    }

    /// The regions `text` names (by name or written code, any case, accents aside), in any country; empty when none.
    public func named(_ text: String) -> [Region] { byKey[Gazetteer.fold(text)] ?? [] }

    /// The region of a gazetteer row (`City.admin1`), or nil when the gazetteer knows none for it.
    public func region(of city: Gazetteer.City) -> Region? {
        city.admin1.isEmpty ? nil : byAdmin1["\(city.countryCode).\(city.admin1)"]
    }
}
