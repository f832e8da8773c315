import HTTPTypes
import Hummingbird
import VeritrailKit

/// The log as C2SP tlog-tiles (server.md §6): `GET /tile/<L>/<N>[.p/<W>]` (hash tiles, public), `GET
/// /tile/entries/<N>[.p/<W>]` (entry bundles, admins: entries carry the events) and `GET /checkpoint`.
/// Tiles are immutable: a full tile may be cached for ever.
extension Routes {
    static func addTiles(_ table: inout RouteTable) {
        table.add(.get, "/checkpoint") { call in
            try call.query.check([])
            let store = call.state.store
            let checkpoint = try await call.state.blocking { () throws(VeritrailError) in try store.checkpoint() }
            var response = Responses.text(checkpoint.note)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        table.add(.get, "/tile/{*path}") { call in
            try call.query.check([])
            let path = call.parameter("path")
            let store = call.state.store
            if path.hasPrefix("entries/") {
                let tile = try TilePath(String(path.dropFirst("entries/".count)), entries: true)
                _ = try await reader(call, adminOnly: true)
                let bytes = try await call.state.blocking { () throws(VeritrailError) in
                    try store.entryBundle(index: tile.index, width: tile.width)
                }
                return try tileResponse(bytes, tile)
            }
            let tile = try TilePath(path, entries: false)
            // Levels 8–63 are well formed, but no log of 2^64 entries has a tile there.
            guard tile.level <= TilePath.highestLevel else { return try tileResponse(nil, tile) }
            let bytes = try await call.state.blocking { () throws(VeritrailError) in
                try store.hashTile(level: tile.level, index: tile.index, width: tile.width)
            }
            return try tileResponse(bytes, tile)
        }
    }

    static func tileResponse(_ bytes: [UInt8]?, _ tile: TilePath) throws -> Response {
        guard let bytes else {
            throw Problem(.notFound, "not-found", "the log holds no such tile yet: read /checkpoint for its size", exitCode: 65)
        }
        var response = Responses.bytesResponse(bytes, type: "application/octet-stream")
        response.headers[.cacheControl] = tile.width == 256 ? "public, max-age=31536000, immutable" : "no-store"
        return response
    }
}

/// A tile's path as tlog-tiles writes it, read strictly: `<L>/<N>[.p/<W>]` (or `<N>[.p/<W>]` for an entry
/// bundle), `N` in groups of three digits, all but the last prefixed with `x` (`x001/x234/067`), `W` 1–255.
/// `L` 0–63. Anything else — a dot segment, an escape, a leading zero group, a number out of range — is 400.
struct TilePath {
    /// The highest level a tile of 8-bit height has in a log of at most 2^64 entries; tlog-tiles takes 0–63.
    static let highestLevel = 7

    var level = 0
    var index: UInt64 = 0
    var width = 256

    init(_ path: String, entries: Bool) throws(Problem) {
        let bad = Problem.badRequest("not a tile path: \"\(path.prefix(120))\" (tlog-tiles: tile/<L>/<N>[.p/<W>], N as x001/x234/067)")
        guard !path.isEmpty, path.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "/")
            || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "p") }) else { throw bad }
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if !entries {
            guard let first = parts.first, let level = TilePath.decimal(first, max: 63) else { throw bad }
            self.level = level
            parts.removeFirst()
        }
        // A partial tile ends `.p/<W>`.
        if parts.count >= 2, parts[parts.count - 2].hasSuffix(".p") {
            guard let width = TilePath.decimal(parts[parts.count - 1], max: 255), width >= 1 else { throw bad }
            self.width = width
            parts.removeLast()
            parts[parts.count - 1].removeLast(2)
        }
        guard !parts.isEmpty, parts.count <= 7 else { throw bad }
        var index: UInt64 = 0
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            var digits = Substring(part)
            if !last {
                guard digits.first == "x" else { throw bad }
                digits = digits.dropFirst()
            }
            guard digits.count == 3, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let group = UInt64(digits) else { throw bad }
            if i == 0 && parts.count > 1 && group == 0 { throw bad }
            let (shifted, overflow) = index.multipliedReportingOverflow(by: 1000)
            let (sum, carry) = shifted.addingReportingOverflow(group)
            guard !overflow, !carry else { throw bad }
            index = sum
        }
        self.index = index
    }

    /// A decimal number without leading zeros, at most `max`.
    private static func decimal(_ text: String, max: Int) -> Int? {
        guard !text.isEmpty, text.count <= 3, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              text == "0" || !text.hasPrefix("0"), let value = Int(text), value <= max else { return nil }
        return value
    }
}
