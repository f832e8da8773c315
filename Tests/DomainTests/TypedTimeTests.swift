import Domain
import Testing

/// cli.md §8: the one reading of a time people type, for the command line and the server.
@Suite struct TypedTimeTests {
    @Test(arguments: [
        ("2026-11-20", "2026-11-20T00:00:00Z"),
        ("2026-11-20T09:00:00Z", "2026-11-20T09:00:00Z"),
        ("2026-11-20 09:00:00Z", "2026-11-20T09:00:00Z"),
        ("2026-11-20t09:00z", "2026-11-20T09:00:00Z"),
        ("2026-11-20 10:00+01:00", "2026-11-20T09:00:00Z"),
        ("2026-11-20T10:00:00.25+0100", "2026-11-20T09:00:00.25Z"),
        ("2026-11-20T04:00:00-05", "2026-11-20T09:00:00Z"),
        ("2026-11-20T00:30:00+01:00", "2026-11-19T23:30:00Z"),
        ("2024-02-29 23:59:59.999999-00:00", "2024-02-29T23:59:59.999999Z"),
    ])
    func typedTimesAreNormalisedToUTC(typed: String, utc: String) {
        #expect(Timestamp(typed: typed)?.description == utc)
    }

    @Test(arguments: ["", "2026-11", "2026-13-01", "2025-02-29", "2026-11-20T09:00", "2026-11-20 09:00:00",
                      "2026-11-20T24:00Z", "2026-11-20T09:60Z", "2026-11-20T09:00:60Z", "2026-11-20T09:00:00.Z",
                      "2026-11-20T09:00:00.1234567Z", "2026-11-20T09:00+24:00", "2026-11-20T09:00+01:60",
                      "2026-11-20T09:00+1", "2026-11-20T09:00Zx", "2026-11-20X09:00Z", "yesterday", "6pm"])
    func anythingElseIsRefused(typed: String) {
        #expect(Timestamp(typed: typed) == nil)
    }

    @Test func asOfTakesTypedTimesAndAnySeq() {
        #expect(AsOf("2026-11-20") == .time(Timestamp(typed: "2026-11-20T00:00:00Z")!))
        #expect(AsOf("18446744073709551616") == .seq(.max))
        #expect(AsOf("120") == .seq(120))
    }

    @Test func aReversedRangeIsRefused() throws {
        let early = Timestamp(typed: "2026-11-01")!, late = Timestamp(typed: "2026-11-20")!
        try ReversedRange.check(("--since", early), ("--until", late))
        try ReversedRange.check(("--since", early), ("--until", early))
        try ReversedRange.check(nil, ("--until", early))
        #expect(throws: ReversedRange.self) { try ReversedRange.check(("--since", late), ("--until", early)) }
    }
}
