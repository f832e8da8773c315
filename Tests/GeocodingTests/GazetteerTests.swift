import Foundation
import Geocoding
import Testing

@Suite struct GazetteerTests {
    static let gazetteer: Gazetteer = {
        let clock = ContinuousClock()
        var result: Gazetteer?
        let elapsed = clock.measure { result = try? Gazetteer.bundled() }
        if let g = result {
            print("Geocoding: bundled gazetteer of \(g.count) cities loaded in \(elapsed)")
        }
        return result!
    }()

    var g: Gazetteer { Self.gazetteer }

    func near(_ got: (lat: Double, lng: Double)?, _ lat: Double, _ lng: Double,
              sourceLocation: SourceLocation = #_sourceLocation) {
        guard let got else {
            Issue.record("no match, expected \(lat), \(lng)", sourceLocation: sourceLocation)
            return
        }
        #expect(abs(got.lat - lat) < 0.1 && abs(got.lng - lng) < 0.1,
                "got \(got), expected \(lat), \(lng)", sourceLocation: sourceLocation)
    }

    @Test func bundledLoadsEveryCity() {
        #expect(g.count > 30_000)
        // Load time, printed, not asserted (debug builds are several times slower than release).
        let clock = ContinuousClock()
        var again: Gazetteer?
        let elapsed = clock.measure { again = try? Gazetteer.bundled() }
        print("Geocoding: bundled() a second time (shared) in \(elapsed)")
        #expect(again?.count == g.count)
    }

    @Test func knownCitiesResolve() {
        near(g.locate(city: "Paris"), 48.85, 2.35)
        near(g.locate(city: "London"), 51.51, -0.13)
        near(g.locate(city: "Tokyo"), 35.69, 139.69)
        near(g.locate(city: "New York City"), 40.71, -74.01)
        near(g.locate(city: "Zürich"), 47.37, 8.55)
        near(g.locate(city: "zurich"), 47.37, 8.55)
        near(g.locate(city: "Kraków"), 50.06, 19.94)
        near(g.locate(city: "Łódź"), 51.77, 19.47)
    }

    @Test func caseAndAccentsDoNotMatter() {
        for name in ["São Paulo", "são paulo", "SAO PAULO", "Sao Paulo", "  sao   paulo ", "SÃO PAULO", "Sao-Paulo"] {
            near(g.locate(city: name), -23.55, -46.64)
        }
        for name in ["München", "munchen", "MÜNCHEN", "Muenchen", "Munich"] {
            near(g.locate(city: name), 48.14, 11.58)
        }
    }

    @Test func alternateNamesMatch() {
        near(g.locate(city: "Cologne"), 50.94, 6.96)
        near(g.locate(city: "Köln"), 50.94, 6.96)
        near(g.locate(city: "Lyon"), 45.75, 4.85)
        near(g.locate(city: "Wien"), 48.21, 16.37)
        near(g.locate(city: "Москва"), 55.75, 37.62)
        near(g.locate(city: "北京"), 39.91, 116.40)
    }

    @Test func unknownAndEmptyAreNil() {
        #expect(g.locate(city: "Gwenborough") == nil)   // jsonplaceholder's made-up city
        #expect(g.locate(city: "") == nil)
        #expect(g.locate(city: "   ") == nil)
        #expect(g.locate(city: "-") == nil)
        #expect(g.locate(city: "Paris", countryCode: "ZZ") == nil)
        #expect(g.locate(city: "Paris", countryCode: "FRA") == nil)
    }

    @Test func mostPopulousWins() throws {
        let paris = try #require(g.city(named: "paris"))
        #expect(paris.countryCode == "FR")
        let springfield = try #require(g.city(named: "Springfield"))
        var biggest = 0
        g.forEachCity { city, _ in
            if city.name == "Springfield" { biggest = max(biggest, city.population) }
        }
        #expect(springfield.population == biggest)
        #expect(springfield.countryCode == "US")
        // The most populous place wins whether the name is its own or an alternate: "México" is Mexico City,
        // not the town of Mexico (Philippines); "St. Petersburg" is in Russia, not Florida.
        #expect(g.city(named: "México")?.name == "Mexico City")
        #expect(g.city(named: "St. Petersburg")?.countryCode == "RU")
        #expect(g.city(named: "Canton")?.name == "Guangzhou")
    }

    @Test func countryCodeRestricts() throws {
        let texas = try #require(g.city(named: "Paris", countryCode: "us"))
        #expect(texas.countryCode == "US")
        #expect(texas.population < 100_000)
        near(g.locate(city: "Paris", countryCode: "FR"), 48.85, 2.35)
        near(g.locate(city: "Paris", countryCode: ""), 48.85, 2.35)   // empty code: no restriction
        // An alternate name within the country when no city there bears it as its name.
        near(g.locate(city: "Calcutta", countryCode: "IN"), 22.57, 88.36)
    }

    @Test func placesTakeCityCommaCountry() throws {
        let countries = try Countries.bundled(), regions = try Regions.bundled()
        let paris = try #require(try g.place("Paris, France", countries: countries, regions: regions))
        #expect(paris.city.countryCode == "FR" && !paris.isUnsure)
        #expect(try g.place("London, UK", countries: countries, regions: regions)?.city.countryCode == "GB")
        #expect(try g.place("Paris", country: "US", countries: countries, regions: regions)?.city.countryCode == "US")
        #expect(try g.place("Paris", country: "united states", countries: countries, regions: regions)?.city.countryCode == "US")
        #expect(throws: PlacementError.unknownCountry("Atlantis")) { try g.place("Paris", country: "Atlantis", countries: countries, regions: regions) }
        // A small place (5,000 people and more are held).
        let zermatt = try #require(try g.place("Zermatt", countries: countries, regions: regions))
        #expect(zermatt.city.countryCode == "CH")
        #expect(countries.name("CH") == "Switzerland")
        // Places of similar size: a guess, with its rivals named.
        let springfield = try #require(try g.place("Springfield", countries: countries, regions: regions))
        #expect(springfield.isUnsure)
        #expect(springfield.rivals.allSatisfy { $0.population <= springfield.city.population })
        // A region after the comma keeps the places in it.
        let illinois = try #require(try g.place("Springfield, Illinois", countries: countries, regions: regions))
        #expect(illinois.city.admin1 == "IL" && !illinois.isUnsure)
    }

    /// Issue #23.5: first-level regions (states, provinces) by name and by the code people write, told apart
    /// in the rivals; a part that names neither is left aside and said; Chamonix is Chamonix-Mont-Blanc.
    @Test func placesTakeCityCommaRegion() throws {
        let countries = try Countries.bundled(), regions = try Regions.bundled()
        func place(_ text: String) throws -> Placement? { try g.place(text, countries: countries, regions: regions) }
        for text in ["Paris, Texas", "Paris, TX", "paris, tx", "Paris, Texas, USA", "Paris, TX, United States"] {
            let paris = try #require(try place(text), "\(text)")
            #expect(paris.city.countryCode == "US" && paris.city.admin1 == "TX" && paris.leftAside.isEmpty, "\(text)")
            #expect(regions.region(of: paris.city)?.name == "Texas")
        }
        // Springfield's rivals are told apart by their states.
        let springfield = try #require(try place("Springfield"))
        let states = [springfield.city] + springfield.rivals
        #expect(Set(states.compactMap { regions.region(of: $0)?.code }).count == states.count, "\(states)")
        #expect(regions.region(of: springfield.city)?.code == "MO")
        #expect(try place("Springfield, MA")?.city.admin1 == "MA")
        #expect(try place("Springfield, Oregon")?.city.admin1 == "OR")
        // No Springfield in Alaska: not placed elsewhere.
        #expect(try place("Springfield, Alaska") == nil)
        // A part that is a country and a region: the places in either, the most populous taken.
        #expect(try place("Atlanta, Georgia")?.city.countryCode == "US")
        #expect(try place("Tbilisi, Georgia")?.city.countryCode == "GE")
        #expect(try place("Perth, WA")?.city.countryCode == "AU")
        #expect(try place("Toronto, ON")?.city.countryCode == "CA")
        #expect(regions.region(of: try #require(try place("Lyon")).city)?.name == "Auvergne-Rhône-Alpes")
        // A part that names nothing the gazetteer knows is left aside, and said.
        let lamar = try #require(try place("Paris, Lamar County"))
        #expect(lamar.leftAside == ["Lamar County"])
        // GeoNames calls it Chamonix-Mont-Blanc.
        let chamonix = try #require(try place("Chamonix"))
        #expect(chamonix.city.name == "Chamonix-Mont-Blanc" && chamonix.city.countryCode == "FR")
        #expect(try place("Chamonix, France")?.city.name == "Chamonix-Mont-Blanc")
    }

    @Test func regionsLoadFromBytesAndRefuseMalformed() throws {
        let tsv = "country\tadmin1\tcode\tname\tkeys\nUS\tTX\tTX\tTexas\ttexas,tx\nAU\t08\tWA\tWestern Australia\twestern australia,wa\n"
            + "US\tWA\tWA\tWashington\twashington,wa\n"
        let small = try Regions(bytes: Array(tsv.utf8))
        #expect(small.named("TEXAS").map(\.code) == ["TX"])
        #expect(Set(small.named("wa").map(\.countryCode)) == ["AU", "US"])
        #expect(small.named("Narnia").isEmpty)
        #expect(throws: Gazetteer.LoadError.badHeader) { try Regions(bytes: Array("x\ty\n".utf8)) }
        #expect(throws: Gazetteer.LoadError.badLine(2)) { try Regions(bytes: Array("country\tadmin1\tcode\tname\tkeys\nUS\tTX\n".utf8)) }
    }

    @Test func cityCarriesItsFields() throws {
        let z = try #require(g.city(named: "zurich"))
        #expect(z.name == "Zürich")
        #expect(z.asciiName == "Zurich")
        #expect(z.countryCode == "CH")
        #expect(z.population > 300_000)
    }

    @Test func foldRules() {
        #expect(Gazetteer.fold("  São   Paulo ") == "sao paulo")
        #expect(Gazetteer.fold("SAINT-ÉTIENNE") == "saint etienne")
        #expect(Gazetteer.fold("St. Louis") == "st louis")
        #expect(Gazetteer.fold("L'Aquila") == "l aquila")
        #expect(Gazetteer.fold("Straße") == "strasse")
        #expect(Gazetteer.fold("Øster\tBrønderslev") == "oster bronderslev")
        #expect(Gazetteer.fold("İSTANBUL") == "istanbul")
        #expect(Gazetteer.fold("Ｍünchen") == "munchen")
        #expect(Gazetteer.fold("a+b") == "a+b")   // symbols stay
        #expect(Gazetteer.fold(" -- ") == "")
        near(g.locate(city: "saint-etienne"), 45.43, 4.39)
        near(g.locate(city: "St. Louis"), 38.63, -90.20)
    }

    /// Swift's fold must give what scripts/gen_gazetteer.py wrote: the keys of every city's name, and the
    /// sample of alternate names the script wrote beside this file.
    @Test func foldAgreesWithTheGenerator() throws {
        var mismatches: [String] = []
        g.forEachCity { city, keys in
            if Gazetteer.fold(city.name) != keys.first { mismatches.append("\(city.name) -> \(Gazetteer.fold(city.name)) != \(keys)") }
        }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fold_vectors.tsv")
        let text = try String(contentsOf: url, encoding: .utf8)
        var checked = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            checked += 1
            let got = Gazetteer.fold(String(parts[0]))
            if got != String(parts[1]) { mismatches.append("\(parts[0]) -> \(got) != \(parts[1])") }
        }
        #expect(checked > 1000)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(10))")
    }

    @Test func loadsFromBytesAndRefusesMalformed() throws {
        let tsv = "name\tasciiname\tcountryCode\tadmin1\tlat\tlng\tpopulation\tkeys\taltkeys\n"
            + "Big Town\tBig Town\tAA\t\t-1.5\t2.25\t500000\tbig town\tbt one\n"
            + "Big Town\tBig Town\tBB\tX1\t10\t20\t1000\tbig town\t\n"
        let small = try Gazetteer(bytes: Array(tsv.utf8))
        #expect(small.count == 2)
        #expect(small.locate(city: "BIG TOWN")! == (-1.5, 2.25))
        #expect(small.locate(city: "big town", countryCode: "bb")! == (10, 20))
        #expect(small.locate(city: "bt one")! == (-1.5, 2.25))
        #expect(small.locate(city: "bt one", countryCode: "BB") == nil)
        #expect(small.city(named: "big town", countryCode: "BB")?.admin1 == "X1")
        #expect(throws: Gazetteer.LoadError.badHeader) { try Gazetteer(bytes: Array("x\ty\n".utf8)) }
        #expect(throws: Gazetteer.LoadError.badLine(2)) {
            try Gazetteer(bytes: Array((tsv.split(separator: "\n")[0] + "\nA\tA\tAA\t\tnorth\t2\t3\ta\t\n").utf8))
        }
        #expect(throws: Gazetteer.LoadError.unreadable(path: "/nonexistent/gazetteer.tsv")) {
            try Gazetteer(contentsOf: "/nonexistent/gazetteer.tsv")
        }
    }
}
