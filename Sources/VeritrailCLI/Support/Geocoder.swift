import VeritrailKit

/// Says on stderr where the library placed an address's city (`CityPlacement`), since a name alone can be
/// several places, and which others it could be when the choice was a guess.
enum Geocoder {
    /// Tells where `city` (as typed) was placed, or that it was kept without geo.
    static func tell(_ city: String, _ placement: CityPlacement) {
        switch placement {
        case let .placed(place, rivals):
            Output.note(describe(city, place, rivals: rivals))
        case .notFound:
            Output.note(notPlaced(city))
        case .gazetteerUnreadable(let reason):
            Output.note("note: the gazetteer could not be read (\(reason)): the address is kept without geo")
            Output.note(notPlaced(city))
        }
    }

    private static func notPlaced(_ city: String) -> String {
        "note: could not place \"\(Escaped.text(city))\" in the gazetteer: the address is kept without geo"
    }

    /// `Paris, Texas, United States`: the place, its region when the gazetteer knows it, its country.
    static func label(_ p: GazetteerPlace) -> String {
        [p.name, p.region, p.country].compactMap { $0 }.joined(separator: ", ")
    }

    /// The line that says where the city was placed: `placed "Paris" at Paris, Île-de-France, France (48.85341,
    /// 2.3488)`, followed by a note for parts that were left aside and, for a guess, the places of similar size
    /// it could also be and how to say which.
    private static func describe(_ query: String, _ place: GazetteerPlace, rivals: [GazetteerPlace]) -> String {
        var line = "placed \"\(Escaped.text(query))\" at \(label(place)) (\(place.latitude), \(place.longitude))"
        if !place.leftAside.isEmpty {
            let parts = place.leftAside.map { "\"\(Escaped.text($0))\"" }.joined(separator: ", ")
            line += "\nnote: \(parts) names no country or region the gazetteer knows: left aside, check the place"
        }
        if !rivals.isEmpty {
            let others = rivals.prefix(3).map { "\(label($0)) (\($0.population) people)" }.joined(separator: "; ")
            line += "\nnote: not sure: places of similar size bear that name too: \(others)."
            if rivals.contains(where: { $0.countryCode != place.countryCode }) {
                line += " Say which with \"City, Country\" or --country"
            } else if let code = place.regionCode, rivals.contains(where: { $0.regionCode != place.regionCode }) {
                line += " Say which with \"City, Region\" (\"\(place.name), \(code)\")"
            } else {
                line += " The most populous was taken"
            }
        }
        return line
    }
}
