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

    /// The line that says where the city was placed: `placed "Paris" at Paris, France (48.85341, 2.3488)`,
    /// followed, for a guess, by the places of similar size it could also be.
    private static func describe(_ query: String, _ place: GazetteerPlace, rivals: [GazetteerPlace]) -> String {
        func label(_ p: GazetteerPlace) -> String { "\(p.name), \(p.country)" }
        var line = "placed \"\(Escaped.text(query))\" at \(label(place)) (\(place.latitude), \(place.longitude))"
        if !rivals.isEmpty {
            let others = rivals.prefix(3).map { "\(label($0)) (\($0.population) people)" }.joined(separator: "; ")
            line += "\nnote: not sure: places of similar size bear that name too: \(others)."
            // A country helps only when the places are in different countries (the gazetteer has no regions).
            line += rivals.contains { $0.countryCode != place.countryCode }
                ? " Say which with \"City, Country\" or --country"
                : " The most populous was taken"
        }
        return line
    }
}
