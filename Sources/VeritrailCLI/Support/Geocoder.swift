import Geocoding

/// Places an address's city offline, from the gazetteer compiled into the binary (cli.md §3: city level is
/// enough), and says on stderr which place it chose, since a name alone can be several places.
enum Geocoder {
    /// The place for `city` (`Paris`, `Paris, France`), in `country` (name or ISO code) when given; nil when
    /// the gazetteer has no such place. A country it does not know is refused (65).
    static func place(city: String, country: String?) throws -> Placement? {
        let gazetteer: Gazetteer, countries: Countries
        do {
            gazetteer = try Gazetteer.bundled()
            countries = try Countries.bundled()
        } catch {
            Output.note("note: the gazetteer could not be read (\(error)): the address is kept without geo")
            return nil
        }
        do {
            return try gazetteer.place(city, country: country, countries: countries)
        } catch let e as PlacementError {
            throw Failure.refused("--country: \(e)")
        }
    }

    /// The line that says where the city was placed: `placed "Paris" at Paris, France (48.85341, 2.3488)`,
    /// followed, for a guess, by the places of similar size it could also be.
    static func describe(_ query: String, _ placement: Placement) -> String {
        let countries = try? Countries.bundled()
        func label(_ c: Gazetteer.City) -> String {
            "\(c.name), \(countries?.name(c.countryCode) ?? c.countryCode)"
        }
        let c = placement.city
        var line = "placed \"\(Escaped.text(query))\" at \(label(c)) (\(c.lat), \(c.lng))"
        if placement.isUnsure {
            let others = placement.rivals.prefix(3).map { "\(label($0)) (\($0.population) people)" }.joined(separator: "; ")
            line += "\nnote: not sure: places of similar size bear that name too: \(others)."
            // A country helps only when the places are in different countries (the gazetteer has no regions).
            line += placement.rivals.contains { $0.countryCode != c.countryCode }
                ? " Say which with \"City, Country\" or --country"
                : " The most populous was taken"
        }
        return line
    }
}
