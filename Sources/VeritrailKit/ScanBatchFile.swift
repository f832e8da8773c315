import Domain
import Engine
import StrictJSON

/// The scans of `scan --batch FILE` (or `-` for stdin): NDJSON objects or CSV rows with a header, each holding
/// a scan's fields (`code`, `productName`, `category`, `result`, and optionally `brand`, `location`, `notes`,
/// `source`, `flash`, `scanId`). Every record becomes one `scan.recorded` in batch mode.
///
/// The file is read twice (`ScanBatch`): once to check every record, then by the write, which appends each
/// record as it is read; no record is kept. Each record is written as the interchange line an import would read (`{"type":"scan.recorded",…}`) and
/// decoded by the same `decodeLine` as an import, so a batch refuses exactly what an import of its events
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

    /// Reads every record of `reader` from its first line, hands each one's event and line to `body`, and
    /// returns how many there were; `name` is what a refusal calls the input. A record without a scan id
    /// gets the next of `ids`, or, without `ids` (the first reading, which only checks), a well-formed
    /// stand-in. Every refused record is reported once all are read, not only the first; `body` is not
    /// called after the first. `progress` is called after each record.
    static func records(_ reader: LineReader, name: String, _ context: Context, ids: RandomIDs?,
                        progress: (ImportProgress) -> Void,
                        _ body: (IncomingEvent, Int) throws(VeritrailError) -> Void) throws(VeritrailError) -> Int {
        reader.rewind()
        let scanner = JSONScanner()
        var count = 0
        var header: [[UInt8]]? = nil
        var separator = UInt8(ascii: ",")
        // Every refused record is reported, not only the first: the first few by name, then how many.
        var refusals: [String] = [], refusedCount = 0, firstCause: VeritrailError?
        func refuse(_ message: String, _ cause: VeritrailError?) {
            refusedCount += 1
            if refusals.count < BatchFile.listedRefusals { refusals.append(message) }
            if firstCause == nil { firstCause = cause }
        }
        var isNDJSON: Bool? = nil
        var line: [UInt8] = []
        line.reserveCapacity(1024)
        // A record without a scan id gets its scan id here: drawn in bulk (or derived from a retry's id).
        var ids = ids
        let total = reader.size
        while try reader.next({ raw throws(VeritrailError) in
            let number = reader.lineNumber
            // A spreadsheet's UTF-8 byte order mark before the first line is not part of it.
            let bytes = number == 1 && raw.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeRawBufferPointer(rebasing: raw[3...]) : raw
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
            if isNDJSON == nil { isNDJSON = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") }
            var fields: [(key: [UInt8], json: [UInt8])]
            if isNDJSON == true {
                guard let members = ndjsonFields(bytes) else {
                    refuse("line \(number): not a JSON object", nil)
                    return
                }
                fields = members
            } else if let keys = header {
                let values = CSV.fields(bytes, separator: separator)
                guard values.count == keys.count else {
                    refuse("line \(number): \(values.count) fields, the header has \(keys.count)", nil)
                    return
                }
                fields = []
                for (key, value) in zip(keys, values) where !value.isEmpty {
                    fields.append((key, key.elementsEqual("flash".utf8) ? flag(value) : JSONText.string(value)))
                }
            } else {
                (header, separator) = try BatchFile.header(bytes, name: name, number: number)
                return
            }
            BatchFile.line(fields, context, ids: &ids, into: &line)
            let decoded = line.withUnsafeBytes { bytes in
                Result { () throws(VeritrailError) in try decodeLine(bytes, number: number, scanner: scanner) }
            }
            switch decoded {
            case .success(let event):
                count += 1
                if refusedCount == 0 { try body(event, number) }
            case .failure(let error):
                // decodeLine names the line of the interchange line it was given: here it is the record's line of the file.
                refuse("record \(count + refusedCount + 1) (line \(number)): \(withoutLine(error))", error)
            }
            progress(ImportProgress(lines: number, bytes: reader.bytesRead, totalBytes: total))
        }) {}
        if refusedCount == 1 {
            throw refused("\(name) \(refusals[0]); nothing was recorded", cause: firstCause)
        } else if refusedCount > 1 {
            var lines = ["\(name): \(refusedCount) records refused, nothing was recorded:"] + refusals.map { "  " + $0 }
            if refusedCount > refusals.count { lines.append("  … and \(refusedCount - refusals.count) more") }
            throw refused(lines.joined(separator: "\n"), cause: firstCause)
        }
        guard count > 0 else { throw refused("\(name) holds no scans") }
        return count
    }

    /// Rows a batch's write appends between two drops of the mapped pages (`Transaction.releaseMappedPages`).
    static let rowsBetweenReleases = 2_048

    /// How many refused records a refusal lists by name.
    static let listedRefusals = 10

    /// A refused batch file: input that is there but holds no scans the batch can take (exit 65, as a refused
    /// import line; the message names the file, and the record and its line).
    private static func refused(_ message: String, cause: (any Error)? = nil) -> VeritrailError {
        .unknown(message, cause: cause)
    }

    /// What `error` says without the `line N: ` it starts with, in the file's words: a field by its name in
    /// the record (`result`), not by its place in the event (`scan.recorded: data.result`).
    private static func withoutLine(_ error: VeritrailError) -> String {
        let said = switch error {
        case let .ruleBroken(e, _): e.description
        case let .malformed(m, _): m
        default: error.description
        }
        let prefix = "scan.recorded: data."
        return said.hasPrefix(prefix) ? String(said.dropFirst(prefix.count)) : said
    }

    /// The members of an NDJSON record, each value as canonical JSON; nil when the line is not a JSON object.
    private static func ndjsonFields(_ bytes: UnsafeRawBufferPointer) -> [(key: [UInt8], json: [UInt8])]? {
        guard case .object(let o)? = try? JSONValue.parse(bytes) else { return nil }
        return o.members.map { (Array($0.key.utf8), canonicalJSON($0.value)) }
    }

    /// `true` for a CSV flash of `true`, `1` or `yes`, else `false`.
    private static func flag(_ value: [UInt8]) -> [UInt8] {
        let v = String(decoding: value, as: UTF8.self).lowercased()
        return Array((v == "true" || v == "1" || v == "yes" ? "true" : "false").utf8)
    }

    /// The scan id a record without one is checked with on the first reading: a drawn id has its form.
    private static let standIn = "00000000-0000-4000-8000-000000000000"

    private static let fixed: Set<[UInt8]> = [Array("mode".utf8), Array("batchId".utf8)]

    /// The interchange line of one record: its fields (without `mode` or `batchId`, which the batch sets), a
    /// scan id, source and flash when the record has none, then `mode` and `batchId`.
    private static func line(_ fields: [(key: [UInt8], json: [UInt8])], _ c: Context, ids: inout RandomIDs?,
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
        if !has.scanId {
            out += #""scanId":"#.utf8
            out += JSONText.string(Array(("s-" + (ids?.next() ?? standIn)).utf8))
            out += ",".utf8
        }
        if !has.source { out += #""source":"camera","#.utf8 }
        if !has.flash { out += (c.defaultFlash ? #""flash":true,"# : #""flash":false,"#).utf8 }
        out += #""mode":"batch","batchId":"#.utf8
        out += JSONText.string(Array(c.batchId.utf8))
        out += "}}".utf8
    }
}

