import Foundation
import Testing
import VeritrailKit

/// The README's example is the code the tests run: the README must hold `ReadmeExample.swift`'s lines
/// between the markers verbatim, and running them must give the numbers it says.
@Suite struct ReadmeExampleTests {
    static let begin = "    // README example begins\n"
    static let end = "    // README example ends\n"

    /// The example's lines, indentation of the function body removed, as the README prints them.
    static func exampleLines() throws -> String {
        let source = try String(contentsOfFile: #filePath.replacingOccurrences(of: "ReadmeExampleTests.swift", with: "ReadmeExample.swift"),
                                encoding: .utf8)
        let start = try #require(source.range(of: begin)).upperBound
        let stop = try #require(source.range(of: end, range: start..<source.endIndex)).lowerBound
        return source[start..<stop].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }
            .joined(separator: "\n")
    }

    @Test func theReadmeHoldsTheExampleVerbatim() throws {
        let readmePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md").path
        let readme = try String(contentsOfFile: readmePath, encoding: .utf8)
        let example = try Self.exampleLines()
        #expect(readme.contains("```swift\n" + example + "```\n"), "README.md's \"Using Veritrail from Swift\" example differs from Tests/LibraryTests/ReadmeExample.swift")
    }

    @Test func theExampleRuns() throws {
        let directory = try TemporaryDirectory()
        let stats = try withExtendedLifetime(directory) { try readmeExample(directory: directory.path + "/store") }
        #expect(stats["total"]?.intValue == 1)
        #expect(stats["counterfeit"]?.intValue == 1)
        #expect(stats["reported"]?.intValue == 1)
        // Run twice (issue #23.14): the second run opens the store and adds a scan.
        let again = try withExtendedLifetime(directory) { try readmeExample(directory: directory.path + "/store") }
        #expect(again["total"]?.intValue == 2)
    }
}
