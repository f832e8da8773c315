import Domain
import Engine
import StrictJSON
import Foundation

/// The scans of `scan --batch FILE`: NDJSON objects or CSV rows with a header, each holding a scan's
/// fields (`code`, `productName`, `category`, `result`, and optionally `brand`, `location`, `notes`,
/// `source`, `flash`, `scanId`). Every record becomes one `scan.recorded` in batch mode.
struct BatchFile {
    struct Row {
        var fields: [(String, JSONValue)]

        func data(mode: CaptureMode, batchId: String, defaultFlash: Bool) -> [(String, JSONValue)] {
            var out = fields.filter { $0.0 != "mode" && $0.0 != "batchId" }
            if !out.contains(where: { $0.0 == "scanId" }) { out.append(("scanId", .string("s-" + EventID.random()))) }
            if !out.contains(where: { $0.0 == "source" }) { out.append(("source", .string(ScanSource.camera.rawValue))) }
            if !out.contains(where: { $0.0 == "flash" }) { out.append(("flash", .bool(defaultFlash))) }
            out.append(("mode", .string(mode.rawValue)))
            out.append(("batchId", .string(batchId)))
            return out
        }
    }

    static func read(_ path: String) throws -> [Row] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure.refused("can not read \(path)") }
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        let first = lines.first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? ""
        let rows = first.hasPrefix("{") ? try ndjson(lines, path) : try csv(lines, path)
        guard !rows.isEmpty else { throw Failure.refused("\(path) holds no scans") }
        return rows
    }

    private static func ndjson(_ lines: [String], _ path: String) throws -> [Row] {
        var rows: [Row] = []
        for (i, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard case .object(let o)? = try? JSONValue.parse(line) else {
                throw Failure.refused("\(path) line \(i + 1): not a JSON object")
            }
            rows.append(Row(fields: o.members.map { ($0.key, $0.value) }))
        }
        return rows
    }

    private static func csv(_ lines: [String], _ path: String) throws -> [Row] {
        let records = lines.filter { !$0.isEmpty }.map(parseCSVLine)
        guard let header = records.first else { return [] }
        return try records.dropFirst().enumerated().map { i, values in
            guard values.count == header.count else {
                throw Failure.refused("\(path) line \(i + 2): \(values.count) fields, the header has \(header.count)")
            }
            return Row(fields: zip(header, values).compactMap { key, value in
                if value.isEmpty { return nil }
                if key == "flash" { return (key, .bool(value == "true" || value == "1" || value == "yes")) }
                return (key, .string(value))
            })
        }
    }

    /// One CSV line (RFC 4180 quoting: `"a ""quoted"" field"`).
    private static func parseCSVLine(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" {
                    if let next = chars.next() {
                        if next == "\"" { field.append("\"") } else { quoted = false; if next == "," { fields.append(field); field = "" } else { field.append(next) } }
                    } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" { quoted = true } else if c == "," { fields.append(field); field = "" } else { field.append(c) }
        }
        fields.append(field)
        return fields
    }
}
