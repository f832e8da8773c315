import Foundation
import Testing

/// Issue #23.5: `register` places a city in its state or province when the address says it ("Paris, Texas",
/// "Paris, TX"), tells Springfields apart by their states, finds Chamonix, and says all of it on stderr and, with
/// `--json`, in the answer's `placement`.
@Suite struct RegionPlacementTests {
    private func register(_ user: String, city: String, json: Bool = false, store: URL) throws -> RunResult {
        try CLI.run(["register", user, "--name", "N", "--email", "\(user)@example.org", "--street", "1 Main St", "--city", city,
                     "--zipcode", "1", "--passcode-stdin", "--store", store.path] + (json ? ["--json"] : []),
                    stdin: Data("2468\n2468\n".utf8))
    }

    @Test func aStateAfterTheCityPlacesItThereAndTheNoteSaysSo() throws {
        try Stores.withDemoCopy { store in
            for (user, city) in [("tex1", "Paris, Texas"), ("tex2", "Paris, TX")] {
                let r = try register(user, city: city, store: store)
                #expect(r.exit == 0, "\(r.transcript)")
                #expect(r.stderr == "placed \"\(city)\" at Paris, Texas, United States (33.66094, -95.55551)\n", "\(r.transcript)")
                let shown = try CLI.run(["customer", "show", user, "--json", "--store", store.path])
                #expect(((shown.json as? [String: Any])?["geo"] as? [String: Any])?["lat"] as? Double == 33.66094, "\(shown.transcript)")
            }
            let spring = try register("spr", city: "Springfield", store: store)
            #expect(spring.stderr.hasPrefix("placed \"Springfield\" at Springfield, Missouri, United States"), "\(spring.transcript)")
            #expect(spring.stderr.contains("Springfield, Massachusetts, United States (154341 people)")
                    && spring.stderr.contains("Say which with \"City, Region\" (\"Springfield, MO\")"), "\(spring.transcript)")
            let chamonix = try register("cham", city: "Chamonix", store: store)
            #expect(chamonix.stderr.hasPrefix("placed \"Chamonix\" at Chamonix-Mont-Blanc, Auvergne-Rhône-Alpes, France"), "\(chamonix.transcript)")
            let lamar = try register("lam", city: "Paris, Lamar County", store: store)
            #expect(lamar.stderr.contains("note: \"Lamar County\" names no country or region the gazetteer knows"), "\(lamar.transcript)")
            let alaska = try register("alaska", city: "Springfield, Alaska", store: store)
            #expect(alaska.exit == 0 && alaska.stderr.contains("could not place \"Springfield, Alaska\""), "\(alaska.transcript)")
        }
    }

    @Test func theJSONAnswerCarriesThePlacement() throws {
        try Stores.withDemoCopy { store in
            let r = try register("sprj", city: "Springfield", json: true, store: store)
            #expect(r.exit == 0, "\(r.transcript)")
            let answer = try #require(r.json as? [String: Any])
            #expect((answer["events"] as? [Any])?.count == 2)
            let placement = try #require(answer["placement"] as? [String: Any])
            #expect(placement["placed"] as? Bool == true && placement["region"] as? String == "Missouri")
            #expect(placement["regionCode"] as? String == "MO" && placement["countryCode"] as? String == "US")
            let rivals = try #require(placement["rivals"] as? [[String: Any]])
            #expect(rivals.first?["regionCode"] as? String == "MA", "\(r.stdout)")
            let none = try register("gwen", city: "Gwenborough", json: true, store: store)
            let unplaced = try #require((none.json as? [String: Any])?["placement"] as? [String: Any])
            #expect(unplaced.count == 2 && unplaced["city"] as? String == "Gwenborough" && unplaced["placed"] as? Bool == false)
            // account update --json: the new city's placement, in its state.
            let moved = try CLI.run(["account", "update", "sprj", "--city", "Paris, TX", "--as", "sprj", "--passcode-stdin", "--json",
                                     "--store", store.path], stdin: Data("2468\n".utf8))
            #expect(moved.exit == 0, "\(moved.transcript)")
            let update = try #require((moved.json as? [String: Any])?["placement"] as? [String: Any], "\(moved.stdout)")
            #expect(update["region"] as? String == "Texas" && update["city"] as? String == "Paris, TX")
            // Without an address, no placement.
            let named = try CLI.run(["account", "update", "sprj", "--phone", "555", "--as", "sprj", "--passcode-stdin", "--json",
                                     "--store", store.path], stdin: Data("2468\n".utf8))
            #expect(named.exit == 0 && (named.json as? [String: Any])?["placement"] == nil, "\(named.transcript)")
        }
    }
}
