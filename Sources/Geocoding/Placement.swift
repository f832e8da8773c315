/// Where an address's city was placed, and how sure that is: the gazetteer picks the most populous place of
/// the name, which is usually right (`México` is Mexico City, not a town of 40,000 called Mexico) but is a guess
/// when places of the name are of similar size (`Springfield`), so the caller can say so.
public struct Placement: Sendable, Equatable {
    public let city: Gazetteer.City
    /// The other places of the name within a factor of `Placement.similar` of the chosen one's population,
    /// most populous first: when not empty, the choice is a guess.
    public let rivals: [Gazetteer.City]

    /// Two places are of similar size when the smaller has at least a third of the larger's population.
    public static let similar = 3

    public var isUnsure: Bool { !rivals.isEmpty }
}

extension Gazetteer {
    /// Places `text`: a city name, or `City, Country` (the part after the last comma is taken as a country when
    /// it names one, by name, alias or ISO code; another part, such as a region, is left aside when the whole
    /// names no place); `country` (name or code) restricts the search as well.
    /// Throws `PlacementError.unknownCountry` for a `country` that names none; nil when no place has the name.
    public func place(_ text: String, country: String? = nil, countries: Countries) throws -> Placement? {
        var name = text
        var code: String? = nil
        if let country {
            guard let c = countries.code(country) else { throw PlacementError.unknownCountry(country) }
            code = c
        }
        if let comma = text.lastIndex(of: ","), let c = countries.code(String(text[text.index(after: comma)...])) {
            if code == nil || code == c {
                name = String(text[..<comma])
                code = c
            }
        }
        var found = cities(named: name, countryCode: code)
        // "Springfield, Illinois": a part after the comma that is not a country (a region) is left aside.
        if found.isEmpty, let comma = name.firstIndex(of: ",") {
            found = cities(named: String(name[..<comma]), countryCode: code)
        }
        guard let chosen = found.first else { return nil }
        let rivals = found.dropFirst().filter { $0.population * Placement.similar >= chosen.population }
        return Placement(city: chosen, rivals: Array(rivals))
    }
}

/// Why a place could not be looked up.
public enum PlacementError: Error, Equatable, CustomStringConvertible {
    case unknownCountry(String)

    public var description: String {
        switch self {
        case .unknownCountry(let c): "\"\(c)\" is not a country the gazetteer knows (give its name or ISO code, like CH or Switzerland)"
        }
    }
}
