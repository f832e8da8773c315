import Domain
import Geocoding
import StrictJSON

/// A place of the gazetteer compiled into the binary (GeoNames cities).
public struct GazetteerPlace: Sendable, Equatable {
    /// The place's name, as GeoNames spells it (`Mexico City`).
    public var name: String
    /// Its country's ISO 3166-1 alpha-2 code (`MX`).
    public var countryCode: String
    /// Its country's name (`Mexico`).
    public var country: String
    /// Its first-level region (state, province, territory, canton) by ISO 3166-2's name (`Texas`, `Ontario`),
    /// when the gazetteer knows it.
    public var region: String?
    /// That region's ISO 3166-2 code after the dash (`TX`, `ON`, `ARA`).
    public var regionCode: String?
    /// Its latitude, in degrees.
    public var latitude: Double
    /// Its longitude, in degrees.
    public var longitude: Double
    /// How many people live there: the gazetteer takes the most populous place of a name.
    public var population: Int
    /// The parts of the city as given, after a comma, that named no country or region the gazetteer knows and
    /// so were left aside (`Lamar County`): a placement to check. Empty for the rivals.
    public var leftAside: [String] = []
}

/// Where the offline gazetteer placed an address's city (cli.md §3: city level is enough). A name alone can
/// be several places, so a placement says when it is a guess, for the caller to tell the person.
public enum CityPlacement: Sendable, Equatable {
    /// Placed at `place`, the most populous place of the name; `rivals` are the other places of the name of
    /// similar size (at least a third of its population), most populous first: when there are any, the
    /// choice is a guess.
    case placed(GazetteerPlace, rivals: [GazetteerPlace])
    /// No place of the gazetteer bears the name: the address is kept without geo.
    case notFound
    /// The gazetteer inside the binary could not be read (`reason`): the address is kept without geo
    /// rather than refused, since the place only adds the map's coordinates.
    case gazetteerUnreadable(reason: String)

    /// Places `city` (`Paris`, `Paris, France`, `Paris, Texas`, `Paris, TX`: parts after commas that name a
    /// country or a first-level region say where), in `country` (its name or ISO code) when given. A `country` the gazetteer does not know is refused:
    /// `.unknown` with an `UnknownCountry` as its cause.
    public static func place(_ city: String, country: String? = nil) throws(VeritrailError) -> CityPlacement {
        let gazetteer: Gazetteer, countries: Countries, regions: Regions
        do {
            gazetteer = try Gazetteer.bundled()
            countries = try Countries.bundled()
            regions = try Regions.bundled()
        } catch {
            return .gazetteerUnreadable(reason: "\(error)")
        }
        let found: Placement?
        do {
            found = try gazetteer.place(city, country: country, countries: countries, regions: regions)
        } catch {
            let unknown = UnknownCountry(description: "\(error)")
            throw .unknown(unknown.description, cause: unknown)
        }
        guard let found else { return .notFound }
        func place(_ c: Gazetteer.City) -> GazetteerPlace {
            let region = regions.region(of: c)
            return GazetteerPlace(name: c.name, countryCode: c.countryCode, country: countries.name(c.countryCode),
                                  region: region?.name, regionCode: region?.code,
                                  latitude: c.lat, longitude: c.lng, population: c.population)
        }
        var chosen = place(found.city)
        chosen.leftAside = found.leftAside
        return .placed(chosen, rivals: found.rivals.map(place))
    }

    /// The event's `geo` (`{"lat", "lng"}`) for a placed city; nil otherwise.
    var geo: JSONValue? {
        guard case .placed(let place, _) = self, let lat = JSONNumber(place.latitude), let lng = JSONNumber(place.longitude) else {
            return nil
        }
        return J.object([("lat", .number(lat)), ("lng", .number(lng))])
    }
}

extension CityPlacement {
    /// The placement as `register --json` and `account update --json` answer it, from the command line or the
    /// server (server.md §3): `{"city", "placed": true, "name", "region"?, "regionCode"?, "country", "countryCode",
    /// "lat", "lng", "rivals": [{"name", "region"?, "regionCode"?, "country", "countryCode", "population"}],
    /// "leftAside": [part…]}`, or `{"city", "placed": false}` for a city kept without geo.
    public func answer(city: String) -> JSONValue {
        guard case let .placed(place, rivals) = self else { return J.object([("city", J.string(city)), ("placed", J.bool(false))]) }
        func named(_ p: GazetteerPlace) -> [(String, JSONValue)] {
            [("name", J.string(p.name))] + (p.region.map { [("region", J.string($0))] } ?? [])
                + (p.regionCode.map { [("regionCode", J.string($0))] } ?? [])
                + [("country", J.string(p.country)), ("countryCode", J.string(p.countryCode))]
        }
        let coordinates: [(String, JSONValue)] = [("lat", JSONNumber(place.latitude).map(JSONValue.number) ?? .null),
                                                  ("lng", JSONNumber(place.longitude).map(JSONValue.number) ?? .null)]
        return J.object([("city", J.string(city)), ("placed", J.bool(true))] + named(place) + coordinates + [
            ("rivals", J.array(rivals.map { J.object(named($0) + [("population", J.int($0.population))]) })),
            ("leftAside", J.array(place.leftAside.map(J.string))),
        ])
    }

    /// The city and placement an `answer(city:)` gives (a client telling what a server placed), or nil when it is
    /// not one. The placed city's population is not in the answer (0 here); a gazetteer that could not be read
    /// reads back as not found.
    public init?(answer: JSONValue) {
        guard case .object(let o) = answer, case .string? = o["city"], case .bool(let placed)? = o["placed"] else { return nil }
        guard placed else {
            self = .notFound
            return
        }
        func place(_ value: JSONValue) -> GazetteerPlace? {
            guard case .object(let p) = value, case .string(let name)? = p["name"], case .string(let country)? = p["country"],
                  case .string(let code)? = p["countryCode"] else { return nil }
            var region: String?, regionCode: String?
            if case .string(let text)? = p["region"] { region = text }
            if case .string(let text)? = p["regionCode"] { regionCode = text }
            var latitude = 0.0, longitude = 0.0, population = 0
            if case .number(let n)? = p["lat"] { latitude = n.doubleValue }
            if case .number(let n)? = p["lng"] { longitude = n.doubleValue }
            if case .number(let n)? = p["population"], let whole = n.integerValue { population = Int(whole) }
            var leftAside: [String] = []
            if case .array(let parts)? = p["leftAside"] { leftAside = parts.compactMap { if case .string(let t) = $0 { t } else { nil } } }
            return GazetteerPlace(name: name, countryCode: code, country: country, region: region, regionCode: regionCode,
                                  latitude: latitude, longitude: longitude, population: population, leftAside: leftAside)
        }
        guard let chosen = place(answer) else { return nil }
        var rivals: [GazetteerPlace] = []
        if case .array(let items)? = o["rivals"] { rivals = items.compactMap(place) }
        self = .placed(chosen, rivals: rivals)
    }
}

/// Told where a write placed an address's city (`city`, as the address has it, completed from the current
/// one in an update): before the write, so that a guess is told even when the write is then refused.
public typealias CityPlacementReport = (_ city: String, _ placement: CityPlacement) -> Void

/// A country the gazetteer does not know, given to place a city: the cause of the `.unknown` error, so that a
/// caller can say it in its own words (the command line names its `--country` option).
public struct UnknownCountry: Error, CustomStringConvertible {
    /// Which country, and how to give one (by name or ISO code).
    public var description: String
}

/// An address as a write gives it: the parts given, completed from the account's current address (an update
/// changes only the parts given), and the city placed.
struct AddressInput {
    var street: String?
    var suite: String?
    var city: String?
    var zipcode: String?
    /// The city's country, for placing it only (not stored).
    var country: String?

    /// The address's `data` and `geo`, or nil (both) when no part is given. The city is placed and the
    /// placement handed to `placed` before anything is written, so that a guess is told even when the
    /// write is refused. `.malformed` when street, city and zipcode are not all there.
    func data(current: Address?,
              placed: CityPlacementReport) throws(VeritrailError) -> (address: JSONValue?, geo: JSONValue?)? {
        guard [street, suite, city, zipcode].contains(where: { $0 != nil }) else { return nil }
        guard let street = street ?? current?.street, let city = city ?? current?.city,
              let zipcode = zipcode ?? current?.zipcode else {
            // In the command line's words, as `--id`'s refusals are: the library's callers name the same parts.
            throw .malformed("an address needs --street, --city and --zipcode together (--suite is optional)", line: nil)
        }
        let address = EventData.object([("street", .string(street)), ("suite", EventData.string(suite ?? current?.suite)),
                                        ("city", .string(city)), ("zipcode", .string(zipcode))])
        let placement = try CityPlacement.place(city, country: country)
        placed(city, placement)
        return (address, placement.geo)
    }
}
