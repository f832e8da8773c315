/// The header of a CSV batch (`scan --batch FILE.csv`): its columns named as people write them, checked before
/// any row, so that a file with another separator or other columns is told so in one sentence, not with a
/// field error on every row ("category: is required").
extension BatchFile {
    /// The columns a header may name: a scan's fields (events.md `scan.recorded`), `mode` and `batchId` too,
    /// which the batch sets itself.
    static let columns = ["code", "productName", "category", "result", "brand", "location", "notes", "source", "flash", "scanId",
                          "mode", "batchId"]
    /// The columns every batch needs.
    static let requiredColumns = ["code", "productName", "category", "result"]

    /// The columns of the header `line` (line `number` of the input `name`) under their field names, and its
    /// separator (`CSV.separator(ofHeader:)`). A column is matched without regard to case, spaces, `_` or `-`
    /// (`Product Name` is `productName`). Refused (`.unknown`, exit 65) when it names a column that is no
    /// field, lacks one of `requiredColumns`, or names one twice; a header of one column is told which
    /// separators are read.
    static func header(_ line: UnsafeRawBufferPointer, name: String, number: Int) throws(VeritrailError) -> (columns: [[UInt8]], separator: UInt8) {
        let separator = CSV.separator(ofHeader: line)
        let given = CSV.fields(line, separator: separator)
        let known = Dictionary(uniqueKeysWithValues: columns.map { (key($0.utf8), $0) })
        var named: [String] = [], unknown: [String] = []
        for column in given {
            if let field = known[key(column)] { named.append(field) } else { unknown.append(String(decoding: column, as: UTF8.self)) }
        }
        let at = "\(name) line \(number) (the header)"
        let expected = "the columns are \(requiredColumns.joined(separator: ", ")) and optionally "
            + columns.dropFirst(requiredColumns.count).prefix(6).joined(separator: ", ")
        if given.count == 1, !unknown.isEmpty {
            throw .unknown("\(at) is one column \"\(unknown[0].prefix(80))\": separate the columns with a comma, a semicolon or a tab; "
                           + expected, cause: nil)
        }
        if !unknown.isEmpty {
            throw .unknown("\(at) names \(unknown.map { "\"\($0.prefix(40))\"" }.joined(separator: ", ")), not a scan's field: \(expected)",
                           cause: nil)
        }
        if let twice = named.first(where: { field in named.filter { $0 == field }.count > 1 }) {
            throw .unknown("\(at) names \(twice) twice", cause: nil)
        }
        let missing = requiredColumns.filter { !named.contains($0) }
        if !missing.isEmpty {
            throw .unknown("\(at) lacks the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")): \(expected)", cause: nil)
        }
        return (named.map { Array($0.utf8) }, separator)
    }

    /// A column's name as it is matched: lower-case letters and digits only.
    private static func key(_ name: some Sequence<UInt8>) -> String {
        String(decoding: name.compactMap { b -> UInt8? in
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): b + 32
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): b
            default: nil
            }
        }, as: UTF8.self)
    }
}
