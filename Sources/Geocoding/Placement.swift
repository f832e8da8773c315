import Foundation

/// Where an address's city was placed, and how sure that is: the gazetteer picks the most populous place of
/// the name, which is usually right (`México` is Mexico City, not a town of 40,000 called Mexico) but is a guess
/// when places of the name are of similar size (`Springfield`), so the caller can say so.
public struct Placement: Sendable, Equatable {
    public let city: Gazetteer.City
    /// The other places of the name within a factor of `Placement.similar` of the chosen one's population,
    /// most populous first: when not empty, the choice is a guess.
    public let rivals: [Gazetteer.City]
    /// The parts of the query after a comma that named no country or region the gazetteer knows, and so did
    /// not narrow the choice (`Lamar County` of `Paris, Lamar County`): the caller should say so.
    public var leftAside: [String] = []

    /// Two places are of similar size when the smaller has at least a third of the larger's population.
    public static let similar = 3

    public var isUnsure: Bool { !rivals.isEmpty }
}

extension Gazetteer {
    /// Places `text`: a city name, or the name followed by what says where it is, after commas (`Paris, France`,
    /// `Paris, Texas`, `Paris, TX`, `Springfield, IL, USA`): each part after the first that names a country (by
    /// name, alias or ISO code) or a first-level region (by name, or by its code where people write it) keeps
    /// only the places in one of them; a part that names neither (a street, a county) is left aside. A part
    /// that is both (`CA`: Canada or California; `Georgia`) keeps the places in either, and the most populous
    /// of them is taken. `country` (name or code) restricts the search as well. A name that itself holds a
    /// comma is tried whole first. Throws `PlacementError.unknownCountry` for a `country` that names none; nil
    /// when no place has the name where it was said to be.
    public func place(_ text: String, country: String? = nil, countries: Countries, regions: Regions) throws -> Placement? {
        var code: String? = nil
        if let country {
            guard let c = countries.code(country) else { throw PlacementError.unknownCountry(country) }
            code = c
        }
        var found = cities(named: text, countryCode: code)
        var leftAside: [String] = []
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if found.isEmpty, parts.count > 1 {
            found = cities(named: parts[0], countryCode: code)
            for qualifier in parts.dropFirst() {
                let inCountry = countries.code(qualifier)
                let inRegions = Set(regions.named(qualifier).map { "\($0.countryCode).\($0.admin1)" })
                guard inCountry != nil || !inRegions.isEmpty else {
                    leftAside.append(qualifier)
                    continue
                }
                found = found.filter { city in
                    city.countryCode == inCountry || inRegions.contains("\(city.countryCode).\(city.admin1)")
                }
            }
        }
        guard let chosen = found.first else { return nil }
        let rivals = found.dropFirst().filter { $0.population * Placement.similar >= chosen.population }
        var placement = Placement(city: chosen, rivals: Array(rivals))
        placement.leftAside = leftAside
        return placement
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
