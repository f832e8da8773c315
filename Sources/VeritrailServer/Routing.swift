import HTTPTypes
import Hummingbird

/// One route: a method, a path pattern (`/v1/scans/{scanId}`), and its handler. The pattern is the name
/// the access log and the metrics give the route, so that a user or a scan id never becomes a label.
struct Route: Sendable {
    var method: HTTPRequest.Method
    var pattern: String
    var handler: @Sendable (Call) async throws -> Response

    fileprivate var segments: [Substring] { pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 } }
}

/// The routes, matched segment by segment: a literal matches itself, `{name}` any one non-empty segment
/// (percent-decoded), a last `{*name}` the rest of the path as sent. A path that matches no pattern is 404; one that matches with another method is 405.
struct RouteTable: Sendable {
    private var routes: [(route: Route, segments: [Substring])] = []

    mutating func add(_ method: HTTPRequest.Method, _ pattern: String, _ handler: @escaping @Sendable (Call) async throws -> Response) {
        let route = Route(method: method, pattern: pattern, handler: handler)
        routes.append((route, route.segments))
    }

    /// The route for `method` and `path` (without its query), with its parameters.
    func match(_ method: HTTPRequest.Method, _ path: String) throws(Problem) -> (Route, [String: String]) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard path.hasPrefix("/") else { throw Problem.noRoute(method.rawValue, path) }
        var allowed: [HTTPRequest.Method] = []
        for (route, segments) in routes {
            let rest = segments.last?.hasPrefix("{*") == true
            guard rest ? parts.count >= segments.count : parts.count == segments.count else { continue }
            var parameters: [String: String] = [:]
            var matched = true
            for (offset, (segment, part)) in zip(segments, parts).enumerated() {
                if segment.hasPrefix("{*") {
                    // The rest of the path, as sent (its own parser reads it).
                    parameters[String(segment.dropFirst(2).dropLast())] = parts.dropFirst(offset).joined(separator: "/")
                } else if segment.hasPrefix("{") {
                    guard !part.isEmpty, let value = PercentDecoding.decode(part, plusIsSpace: false) else { matched = false; break }
                    parameters[String(segment.dropFirst().dropLast())] = value
                } else if segment != part {
                    matched = false
                    break
                }
            }
            guard matched else { continue }
            guard route.method == method || (method == .head && route.method == .get) else {
                allowed.append(route.method)
                if route.method == .get { allowed.append(.head) }
                continue
            }
            return (route, parameters)
        }
        if !allowed.isEmpty {
            var problem = Problem(.methodNotAllowed, "method-not-allowed", "\(method.rawValue) is not allowed on \(Problem.shown(path))", exitCode: 64)
            var seen: Set<String> = []
            problem.allow = allowed.map(\.rawValue).filter { seen.insert($0).inserted }.joined(separator: ", ")
            throw problem
        }
        throw Problem.noRoute(method.rawValue, path)
    }
}

/// `%XX` decoding of a path segment or a query part; nil for a broken escape or bytes that are not UTF-8.
enum PercentDecoding {
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

/// A request's query parameters, decoded, with each route naming those it takes: any other is refused
/// (400), as the command line refuses an unknown option.
struct QueryParameters: Sendable {
    private(set) var pairs: [(name: String, value: String)] = []

    init(_ query: String?) throws(Problem) {
        guard let query, !query.isEmpty else { return }
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(pieces[0], plusIsSpace: true),
                  let value = PercentDecoding.decode(pieces.count > 1 ? pieces[1] : "", plusIsSpace: true) else {
                throw Problem.badRequest("the query \"\(query.prefix(200))\" has a broken %-escape")
            }
            pairs.append((name, value))
        }
    }

    /// Refuses any parameter not in `allowed`, and any of `allowed` given twice unless `repeatable`.
    func check(_ allowed: Set<String>, repeatable: Set<String> = []) throws(Problem) {
        var seen: Set<String> = []
        for (name, _) in pairs {
            guard allowed.contains(name) else {
                let known = allowed.sorted().joined(separator: ", ")
                throw Problem.badRequest("unknown parameter \"\(name.prefix(100))\"" + (known.isEmpty ? ": this route takes none" : " (this route takes \(known))"))
            }
            if !seen.insert(name).inserted && !repeatable.contains(name) {
                throw Problem.badRequest("the parameter \"\(name)\" is given twice")
            }
        }
    }

    subscript(_ name: String) -> String? { pairs.first { $0.name == name }?.value }

    func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }
}
