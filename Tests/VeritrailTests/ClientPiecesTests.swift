import Foundation
import Testing
@testable import VeritrailCLI

/// The pieces of `--server` that need no server (server.md §8): which URLs the client accepts, how it
/// encodes a path segment, and the token file's modes, replacement and forgetting.
@Suite struct ClientPiecesTests {
    @Test func plainHTTPOnlyOnLoopback() throws {
        #expect(try ServerConnection.checked("http://127.0.0.1:8420/") == "http://127.0.0.1:8420")
        #expect(try ServerConnection.checked("http://localhost:1") == "http://localhost:1")
        #expect(try ServerConnection.checked("http://[::1]:8420") == "http://[::1]:8420")
        #expect(try ServerConnection.checked("https://veritrail.example.org") == "https://veritrail.example.org")
        for refused in ["http://veritrail.example.org", "http://127.0.0.1.example.org", "http://10.0.0.1:8420", "ftp://127.0.0.1",
                        "127.0.0.1:8420", "https://host/path", "https://host?q=1", ""] {
            #expect(throws: Failure.self) { try ServerConnection.checked(refused) }
        }
    }

    @Test func pathSegmentsAreEncoded() {
        #expect(Percent.encode("s-0001") == "s-0001")
        #expect(Percent.encode("a/b c?é") == "a%2Fb%20c%3F%C3%A9")
        #expect(RemoteWrite.path("/v1/customers/", "a/b", "/status") == "/v1/customers/a%2Fb/status")
    }

    @Test func tokensAreKeptOnePerServerAndUserAndForgotten() throws {
        let top = NSTemporaryDirectory() + "veritrail-tokens-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: top) }
        let directory = top + "/state/veritrail"
        let file = TokenFile(directory: directory)
        #expect(try file.entries().isEmpty)
        try file.keep(.init(server: "http://127.0.0.1:1", user: "ines", token: "t1", expiresAt: "x"))
        try file.keep(.init(server: "http://127.0.0.1:1", user: "ines", token: "t2", expiresAt: "x"))
        try file.keep(.init(server: "http://127.0.0.1:1", user: "admin", token: "t3", expiresAt: "x"))
        try file.keep(.init(server: "http://127.0.0.1:2", user: "ines", token: "t4", expiresAt: "x"))
        #expect(try file.entries().count == 3)
        #expect(try file.find(server: "http://127.0.0.1:1", user: "ines")?.token == "t2")
        #expect(try file.find(server: "http://127.0.0.1:1", user: nil) == nil)  // two accounts there: say which
        #expect(try file.find(server: "http://127.0.0.1:2", user: nil)?.token == "t4")
        let modes = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        let directoryModes = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(modes == 0o600 && directoryModes == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["tokens.json"])
        try file.forget(server: "http://127.0.0.1:1", user: "ines")
        #expect(try file.find(server: "http://127.0.0.1:1", user: "ines") == nil)
        #expect(try file.entries().count == 2)
    }

    @Test func aFileThatIsNotOursIsRefusedNotOverwritten() throws {
        let directory = NSTemporaryDirectory() + "veritrail-tokens-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = TokenFile(directory: directory)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: file.path))
        #expect(throws: Failure.self) { try file.keep(.init(server: "s", user: "u", token: "t", expiresAt: "x")) }
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "not json")
    }
}
