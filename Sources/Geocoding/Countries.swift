internal import GazetteerData

/// The countries a place can be given in (`Paris, France`, `London, UK`, `--country CH`): GeoNames' country
/// names, ISO 3166-1 alpha-2 and alpha-3 codes, and the aliases people write (`UK`, `USA`, `Holland`), from
/// Resources/countries.tsv (`code  name  keys`, Data/README.md).
public struct Countries: Sendable {
    /// Folded name or code → ISO alpha-2 code.
    private let codes: [String: String]
    /// ISO alpha-2 code → GeoNames' name.
    private let names: [String: String]

    /// Parses countries TSV bytes; a line that is not `code  name  keys` is refused.
    public init(bytes: [UInt8]) throws {
        var codes: [String: String] = [:], names: [String: String] = [:]
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == "code\tname\tkeys" else { throw Gazetteer.LoadError.badHeader }
        for (i, line) in lines.enumerated().dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count == 3, f[0].utf8.count == 2 else { throw Gazetteer.LoadError.badLine(i + 1) }
            let code = String(f[0])
            names[code] = String(f[1])
            for key in f[2].split(separator: ",") where codes[String(key)] == nil { codes[String(key)] = code }
        }
        self.codes = codes
        self.names = names
    }

    /// The countries compiled into the binary, loaded once per process.
    public static func bundled() throws -> Countries { try shared.get() }

    private static let shared: Result<Countries, any Error> = Result {
        try Countries(bytes: embedded(veritrail_countries_tsv))
    }

    /// The ISO alpha-2 code of a country written as a name, an alias or a code, in any case; nil if unknown.
    public func code(_ text: String) -> String? { codes[Gazetteer.fold(text)] }

    /// GeoNames' name for an ISO alpha-2 code (`CH` → `Switzerland`), or the code itself if unknown.
    public func name(_ code: String) -> String { names[code.uppercased()] ?? code }
}
