import Foundation
import Testing
@testable import Projections

/// A chunk's fields seen before are counted from their first time (`ChunkValues.addKnownField`, and their
/// tails), and the values many fields are whole go to their grams' sets as one bitmap each
/// (`ChunkPostings`'s hot values): both must give what probing every piece and setting a bit a gram a scan
/// gives, which the import did before (and which the tables of a 1M import, byte for byte, also showed).
@Suite struct HotValuesTests {
    /// A chunk's worth of scans' search texts (`ScanRow`'s ten fields, lower-cased, each followed by a 0):
    /// unique ids and codes, values drawn from short lists so that some are far over `ChunkValues.hotAfter`
    /// fields and some under it, fields shorter than a piece, an empty field, a note that repeats the
    /// product's name in the same scan, text with digits, delimiters and bytes past ASCII.
    static func texts(count: Int) -> [[UInt8]] {
        var rng = SystemRandomNumberGenerator()
        let products = ["classic fit polo shirt l.12.12, navy, size m", "gel-kayano 30, eu 43", "501 original fit jeans, 32/34",
                        "crème brûlée set", "hologram sticker pro", "powercore 20000 mah", "rare item 7", "rarer item 8"]
        let brands = ["asics", "levi's", "anker", "lacoste", "nike"]
        let categories = ["apparel", "footwear", "abc", "electronics"]
        let places = ["hauptbahnhof münchen, ladenpassage ost", "duty-free shop, lisbon terminal 1", "porta portese, roma"]
        let actors = (0..<12).map { "ines.rossi\(String(format: "%03d", $0))" } + ["marco.bernard07", "anna"]
        func pick(_ values: [String]) -> String {
            // Skewed: the first values are drawn most, the last few rarely (under the hot mark in a chunk).
            let r = Double.random(in: 0..<1, using: &rng)
            return values[min(values.count - 1, Int(r * r * r * Double(values.count)))]
        }
        func hex(_ n: Int) -> String { String((0..<n).map { _ in "0123456789abcdef".randomElement(using: &rng)! }) }
        return (0..<count).map { i in
            let product = pick(products), brand = pick(brands)
            let note = switch i % 7 { case 0: product; case 1: "note \(hex(6)) é"; default: "" }
            let fields = ["s-\(String(format: "%07d", Int.random(in: 0..<10_000_000, using: &rng)))",
                          "https://verify.example/c/\(brand.prefix(4))-\(hex(12))?lot=\(Int.random(in: 10_000..<99_999, using: &rng))",
                          product, brand, pick(categories), pick(places), i % 3 == 0 ? "b-00\(i % 40)" : "", note, pick(actors), ""]
            return fields.flatMap { Array($0.utf8) + [0] }
        }
    }

    /// Where two lists first differ (nil: nowhere), so that a failure does not print thousands of sets.
    static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
        a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? (a.count == b.count ? nil : a.count)
    }

    /// Every answer a chunk's pieces give, in a form to compare.
    static func answers(_ values: inout ChunkValues) -> [String] {
        var out = values.listed().map { "listed \($0.source) \($0.bytes) \($0.members.container())" }
        out += (values.uncovered() ?? []).map { "uncovered \($0.gram) \($0.members.container())" }
        out += (values.headNext() ?? []).map { "next \($0.head) \($0.byte) \($0.members)" }
        if let following = values.headFollowing() {
            out.append("following \(following.heads)")
            out += following.sets.map { "following \($0.last) \($0.byte) \($0.next) \($0.entries.map { [$0.offset, $0.head, Int($0.third)] })" }
        }
        out += values.tailsAfter().map { "tails \($0.key) \($0.members)" }
        return out
    }

    @Test func aFieldSeenBeforeCountsAsProbingEveryPieceDoes() {
        let texts = HotValuesTests.texts(count: 3_000)
        var reusing = ChunkValues(), probing = ChunkValues(reusingFields: false)
        var hot = 0
        for (offset, text) in texts.enumerated() {
            text.withUnsafeBytes { text in
                reusing.add(offset, text: text, source: ChunkValues.own)
                probing.add(offset, text: text, source: ChunkValues.own)
            }
            hot += reusing.hotFields.count
            #expect(probing.hotFields.isEmpty)
        }
        #expect(hot > 1_000, "the hot values were exercised")
        let answers = HotValuesTests.answers(&reusing)
        #expect(answers.count > 100)
        #expect(HotValuesTests.firstDifference(answers, HotValuesTests.answers(&probing)) == nil)
    }

    /// The sets of a chunk made with its hot values' bitmaps are those a bit a gram a scan makes, also when
    /// the values stop being listed halfway (a text too long for the held sets: `GramWorker`).
    @Test func aHotValuesBitmapGivesItsGramsTheSetsABitAGramGives() {
        let texts = HotValuesTests.texts(count: 3_000)
        func sets(stoppingAt stop: Int?) -> (sets: [[UInt8]], hot: Int) {
            let postings = ChunkPostings()
            postings.reset(chunk: 3, fresh: true)
            var values = ChunkValues()
            var hot = 0
            for (offset, text) in texts.enumerated() {
                if offset == stop { values.stopHotValues() }
                text.withUnsafeBytes { text in
                    values.add(offset, text: text, source: ChunkValues.own)
                    postings.add(offset, text: text, flag: 0, hot: values.hotFields)
                }
                hot += values.hotFields.count
            }
            var sets: [[UInt8]] = []
            postings.forEachSet { key, value in sets += [key, value] }
            return (sets, hot)
        }
        let plain = ChunkPostings()
        plain.reset(chunk: 3, fresh: true)
        for (offset, text) in texts.enumerated() { text.withUnsafeBytes { plain.add(offset, text: $0, flag: 0) } }
        var expected: [[UInt8]] = []
        plain.forEachSet { key, value in expected += [key, value] }
        #expect(expected.count > 2_000)
        let whole = sets(stoppingAt: nil)
        #expect(whole.hot > 1_000, "the hot values were exercised")
        #expect(HotValuesTests.firstDifference(whole.sets, expected) == nil)
        let stopped = sets(stoppingAt: 1_500)
        #expect(stopped.hot > 0 && stopped.hot < whole.hot)
        #expect(HotValuesTests.firstDifference(stopped.sets, expected) == nil)
    }
}
