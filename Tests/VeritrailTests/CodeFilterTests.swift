@testable import Projections
import XCTest

/// The code filter never forgets a code it holds (a code scanned before must be looked up), and seldom
/// claims one it does not (each such claim costs a search of the codes table, nothing more).
final class CodeFilterTests: XCTestCase {
    private func digest(_ code: String) -> CodeDigest {
        Array(code.utf8).withUnsafeBytes { CodeDigest(utf8: $0) }
    }

    func testHoldsEveryCodeAndFewOthers() {
        var filter = CodeFilter(capacity: 10_000)
        for i in 0..<10_000 { filter.insert(digest("held-\(i)")) }
        for i in 0..<10_000 { XCTAssertTrue(filter.mayContain(digest("held-\(i)")), "held-\(i)") }
        let claimed = (0..<100_000).filter { filter.mayContain(digest("other-\($0)")) }.count
        XCTAssertLessThan(claimed, 1_000, "about 1 in 400 is expected at capacity")
    }

    /// A capacity that is not a power of two gets 16 bits a code, not the next power of two's worth: full, it
    /// claims about 1 code in 370 it does not hold (twice the bits would claim far fewer).
    func testKeepsSixteenBitsACodeForAnyCapacity() {
        var filter = CodeFilter(capacity: 70_000)
        for i in 0..<70_000 { filter.insert(digest("held-\(i)")) }
        XCTAssertTrue((0..<70_000).allSatisfy { filter.mayContain(digest("held-\($0)")) })
        let claimed = (0..<200_000).filter { filter.mayContain(digest("other-\($0)")) }.count
        XCTAssertGreaterThan(claimed, 200, "fewer than 1 in 1,000 claimed: more bits than 16 a code")
        XCTAssertLessThan(claimed, 1_000, "more than 1 in 200 claimed")
    }

    /// A filter's blocks start on a line of the cache of the buffer it was made with; a copy changed later
    /// has a buffer of its own, wherever it lies, and still holds every code of either.
    func testACopyChangedLaterHoldsEveryCode() {
        var filter = CodeFilter(capacity: 20_000)
        for i in 0..<10_000 { filter.insert(digest("held-\(i)")) }
        for round in 0..<8 {
            var copy = filter
            for i in 0..<10_000 { copy.insert(digest("copy-\(round)-\(i)")) }
            XCTAssertTrue((0..<10_000).allSatisfy { copy.mayContain(digest("held-\($0)")) && copy.mayContain(digest("copy-\(round)-\($0)")) })
            XCTAssertLessThan((0..<10_000).filter { filter.mayContain(digest("copy-\(round)-\($0)")) }.count, 100,
                              "the original changed with its copy")
        }
        XCTAssertTrue((0..<10_000).allSatisfy { filter.mayContain(digest("held-\($0)")) })
    }
}
