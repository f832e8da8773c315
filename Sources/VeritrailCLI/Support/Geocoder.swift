/// Places an address's city offline (cli.md §3); the gazetteer arrives with the Geocoding target.
enum Geocoder {
    static func locate(city: String) -> (lat: Double, lng: Double)? { nil }
}
