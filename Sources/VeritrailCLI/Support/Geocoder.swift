import Geocoding

/// Places an address's city offline, from the gazetteer the project ships (cli.md §3: city level is enough).
enum Geocoder {
    static func locate(city: String) -> (lat: Double, lng: Double)? {
        (try? Gazetteer.bundled())?.locate(city: city)
    }
}
