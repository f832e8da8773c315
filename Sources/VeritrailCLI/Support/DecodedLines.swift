import Domain
import Engine
import Projections
import StrictJSON

/// One NDJSON line decoded on the pipeline's thread: its number, its event, a scan's row made ready, and
/// how many bytes of the input had been read by then (for the progress bar).
struct DecodedLine {
    var number: Int
    var event: IncomingEvent
    var prepared: PreparedScan?
    var bytesRead: Int
}

/// Parses and decodes the lines of `reader`, from its first, on a second thread while the caller appends
/// the events already decoded, so that an import keeps both cores busy. A line that can not be decoded
/// ends the stream with its refusal.
func decodedLines(_ reader: LineReader) -> Pipeline<DecodedLine> {
    reader.rewind()
    return Pipeline(batchSize: 512) { emit in
        var more = true
        let scanner = JSONScanner()
        while more, try reader.next({ line in
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
