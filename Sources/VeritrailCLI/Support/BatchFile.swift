import Domain
import StrictJSON

/// The scans of `scan --batch FILE` (or `-` for stdin): NDJSON objects or CSV rows with a header, each holding
/// a scan's fields (`code`, `productName`, `category`, `result`, and optionally `brand`, `location`, `notes`,
/// `source`, `flash`, `scanId`). Every record becomes one `scan.recorded` in batch mode.
///
/// Each record is written as the interchange line an import would read (`{"type":"scan.recorded",…}`) and
/// decoded by the same `decodeLine` as `import`, so a batch refuses exactly what an import of its events
/// would, with the same messages; a plain line is read by the scanner without a JSON tree. The rows are read
/// in place from the mapped input (`LineReader`), and nothing per field but the line's bytes is made.
struct BatchFile {
    /// What every scan of the batch gets besides its row.
    struct Context {
        var actor: String
        var at: Timestamp
        var batchId: String
        var defaultFlash: Bool
    }

    /// The events of every record of `path`, in order, with a progress bar on stderr when `showProgress`.
    /// A record without a scan id gets a random one, and every event its random id.
    static func events(_ path: String, _ context: Context, showProgress: Bool) throws -> [IncomingEvent] {
        let reader = try LineReader(path: path)
        let progress = Progress(label: "reading scans", total: reader.size, unit: "", enabled: showProgress)
        defer { progress.finish() }
        let scanner = JSONScanner()
        var events: [IncomingEvent] = []
        var header: [[UInt8]]? = nil
        var isNDJSON: Bool? = nil
        var line: [UInt8] = []
        line.reserveCapacity(1024)
        // Every event gets its id here, and a record without a scan id its scan id: drawn in bulk.
        var ids = RandomIDs()
        while try reader.next({ bytes in
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
            let number = reader.lineNumber
            if isNDJSON == nil { isNDJSON = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") }
            var fields: [(key: [UInt8], json: [UInt8])]
            if isNDJSON == true {
                fields = try ndjsonFields(bytes, path: path, number: number)
            } else if let keys = header {
                let values = CSV.fields(bytes)
                guard values.count == keys.count else {
                    throw Failure.refused("\(path) line \(number): \(values.count) fields, the header has \(keys.count)")
                }
                fields = []
                for (key, value) in zip(keys, values) where !value.isEmpty {
                    fields.append((key, key.elementsEqual("flash".utf8) ? flag(value) : JSONText.string(value)))
                }
            } else {
                header = CSV.fields(bytes)
                return
            }
            BatchFile.line(fields, context, ids: &ids, into: &line)
            do {
                var event = try line.withUnsafeBytes { try decodeLine($0, number: number, scanner: scanner) }
                event.id = ids.next()
                events.append(event)
            } catch let f as Failure {
                // decodeLine names the line it was given ("line 1: …"): here it is the record's line of the file.
                let rule = f.message.drop { $0 != ":" }.dropFirst(2)
                throw Failure(code: f.code, message: "\(path) record \(events.count + 1) (line \(number)): \(rule)")
            }
            progress.tick(reader.bytesRead)
        }) {}
        guard !events.isEmpty else { throw Failure.refused("\(path) holds no scans") }
        return events
    }

    /// The members of an NDJSON record, each value as canonical JSON.
    private static func ndjsonFields(_ bytes: UnsafeRawBufferPointer, path: String, number: Int) throws -> [(key: [UInt8], json: [UInt8])] {
        guard case .object(let o)? = try? JSONValue.parse(bytes) else {
            throw Failure.refused("\(path) line \(number): not a JSON object")
        }
        return o.members.map { (Array($0.key.utf8), canonicalJSON($0.value)) }
    }

    /// `true` for a CSV flash of `true`, `1` or `yes`, else `false`.
    private static func flag(_ value: [UInt8]) -> [UInt8] {
        let v = String(decoding: value, as: UTF8.self).lowercased()
        return Array((v == "true" || v == "1" || v == "yes" ? "true" : "false").utf8)
    }

    private static let fixed: Set<[UInt8]> = [Array("mode".utf8), Array("batchId".utf8)]

    /// The interchange line of one record: its fields (without `mode` or `batchId`, which the batch sets), a
    /// scan id, source and flash when the record has none, then `mode` and `batchId`.
    private static func line(_ fields: [(key: [UInt8], json: [UInt8])], _ c: Context, ids: inout RandomIDs,
                             into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out += #"{"type":"scan.recorded","at":"#.utf8
        out += JSONText.string(Array(c.at.description.utf8))
        out += #","actor":"#.utf8
        out += JSONText.string(Array(c.actor.utf8))
        out += #","data":{"#.utf8
        var has = (scanId: false, source: false, flash: false)
        for (key, json) in fields where !fixed.contains(key) {
            if key.elementsEqual("scanId".utf8) { has.scanId = true }
            if key.elementsEqual("source".utf8) { has.source = true }
            if key.elementsEqual("flash".utf8) { has.flash = true }
            out += JSONText.string(key)
            out.append(UInt8(ascii: ":"))
            out += json
            out.append(UInt8(ascii: ","))
        }
        if !has.scanId { out += #""scanId":"#.utf8; out += JSONText.string(Array(("s-" + ids.next()).utf8)); out += ",".utf8 }
        if !has.source { out += #""source":"camera","#.utf8 }
        if !has.flash { out += (c.defaultFlash ? #""flash":true,"# : #""flash":false,"#).utf8 }
        out += #""mode":"batch","batchId":"#.utf8
        out += JSONText.string(Array(c.batchId.utf8))
        out += "}}".utf8
    }
}

/// JSON text made directly as bytes.
enum JSONText {
    /// A JSON string of `value` (UTF-8): quotes, backslashes and control characters escaped.
    static func string(_ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(value.count + 2)
        for b in value {
            switch b {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 0x0F)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}

/// CSV lines (RFC 4180 quoting: `"a ""quoted"" field"`), read as bytes. A quoted field does not span lines.
enum CSV {
    static func fields(_ line: UnsafeRawBufferPointer) -> [[UInt8]] {
        var fields: [[UInt8]] = [], field: [UInt8] = []
        var quoted = false, i = 0
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        while i < line.count {
            let c = line[i]
            if quoted {
                if c == quote {
                    if i + 1 < line.count && line[i + 1] == quote { field.append(quote); i += 1 } else { quoted = false }
                } else { field.append(c) }
            } else if c == quote {
                quoted = true
            } else if c == comma {
                fields.append(field); field.removeAll(keepingCapacity: true)
            } else { field.append(c) }
            i += 1
        }
        fields.append(field)
        return fields
    }

    static func fields(_ line: [UInt8]) -> [[UInt8]] { line.withUnsafeBytes { fields($0) } }
}
