import Domain
import Engine
import Projections
import StrictJSON

/// One NDJSON line decoded on the pipeline's thread: its number, its event, a scan's row made ready, and
/// how many bytes of the input had been read by then (for the progress callback).
struct DecodedLine {
    var number: Int
    var event: IncomingEvent
    var prepared: PreparedScan?
    var bytesRead: Int
}

/// Parses and decodes the lines of `reader`, from its first, on a second thread while the caller appends
/// the events already decoded, so that an import keeps both cores busy. A line that can not be decoded
/// ends the stream with its refusal. The appending thread is the slower one, so the queue stays full: 8
/// batches of 512 lines keep it busy, where 32 held some 20 MB more for nothing (docs/SCALE.md).
func decodedLines(_ reader: LineReader) -> Pipeline<DecodedLine> {
    reader.rewind()
    return Pipeline(batchSize: 512, maxBatches: 4) { emit in
        var more = true
        let scanner = JSONScanner()
        while more, try reader.next({ line throws(VeritrailError) in
            guard !isBlank(line) else { return }
            let number = reader.lineNumber
            let event = try decodeLine(line, number: number, scanner: scanner)
            // A scan's row is made here too: the appending thread, which must go one event at a time, does less.
            var prepared: PreparedScan?
            if case .scanRecorded(let scan) = event.payload { prepared = PreparedScan(at: event.at, actor: event.actor, scan: scan) }
            more = emit(DecodedLine(number: number, event: event, prepared: prepared, bytesRead: reader.bytesRead))
        }) {}
    }
}

/// Parses and decodes one NDJSON line, naming the line (`number`) in any refusal. A plain line is read in
/// place by `scanner` (no JSON tree is made); any other, and any line it does not take, goes through the
/// parser, which accepts or refuses it with its message. Both kinds are decoded by the same
/// `EventJSON.decode`, so every way in refuses a line alike.
func decodeLine(_ line: UnsafeRawBufferPointer, number: Int?, scanner: JSONScanner) throws(VeritrailError) -> IncomingEvent {
    if let object = scanner.scan(line) {
        do {
            return try EventJSON.decode(object)
        } catch {
            throw .ruleBroken(error, line: number)
        }
    }
    let value: JSONValue
    do {
        value = try JSONValue.parse(line)
    } catch {
        throw .malformed("not valid JSON: \(error)\(notNDJSONHint(line))", line: number)
    }
    do {
        return try EventJSON.decode(value)
    } catch {
        throw .ruleBroken(error, line: number)
    }
}

/// What to do with a line that is not JSON because the file is not NDJSON at all: a CSV (a line with commas
/// or semicolons and no `{`), or JSON written over several lines (a line that opens an object or an array and
/// does not close it). Empty for any other line.
func notNDJSONHint(_ line: UnsafeRawBufferPointer) -> String {
    let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
    guard let first = trimmed.first else { return "" }
    let last = line.reversed().first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
    if (first == 0x7B && last != 0x7D) || (first == 0x5B && last != 0x5D) {
        return "\nthis file looks like JSON written over several lines: import takes NDJSON, one whole event per line (`jq -c . FILE` writes it so)"
    }
    if !line.contains(0x7B), line.contains(0x2C) || line.contains(0x3B) {
        return "\nthis file looks like CSV: import takes NDJSON events, one per line; to record scans from a CSV, use `veritrail scan --batch FILE`"
    }
    return ""
}
