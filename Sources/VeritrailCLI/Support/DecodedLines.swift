import Domain
import Foundation

/// Parses and decodes NDJSON lines on a second thread while the caller appends the events already
/// decoded, so that an import keeps both cores busy. Lines arrive in order, in batches; a line that can
/// not be decoded arrives as its failure, in its place, and ends the stream.
final class DecodedLines: @unchecked Sendable {
    enum Item {
        case event(line: Int, IncomingEvent)
        case failure(Error)
    }

    /// Lines in order, and how many bytes of the input had been read when the batch was made.
    struct Batch {
        var items: [Item] = []
        var bytesRead = 0
    }

    private let condition = NSCondition()
    private var ready: [Batch] = []
    private var done = false
    private var cancelled = false
    private let reader: LineReader
    private static let batchSize = 512
    private static let maxBatches = 32

    /// Starts decoding `reader` from its first line.
    init(_ reader: LineReader) {
        self.reader = reader
        reader.rewind()
        let thread = Thread { [self] in produce() }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// The next batch, in line order, or nil at the end.
    func next() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !done { condition.wait() }
        guard !ready.isEmpty else { return nil }
        let batch = ready.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Stops the decoding thread and waits for it to finish with the reader.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !done { condition.wait() }
        condition.unlock()
    }

    private func produce() {
        var batch = Batch()
        batch.items.reserveCapacity(DecodedLines.batchSize)
        func push() -> Bool {
            batch.bytesRead = reader.bytesRead
            condition.lock()
            defer { condition.unlock() }
            while ready.count >= DecodedLines.maxBatches && !cancelled { condition.wait() }
            if cancelled { return false }
            ready.append(batch)
            condition.broadcast()
            batch = Batch()
            batch.items.reserveCapacity(DecodedLines.batchSize)
            return true
        }
        do {
            while try reader.next({ line in
                guard !isBlank(line) else { return }
                batch.items.append(.event(line: reader.lineNumber, try decodeLine(line, number: reader.lineNumber)))
            }) {
                if batch.items.count >= DecodedLines.batchSize, !push() { break }
            }
        } catch {
            batch.items.append(.failure(error))
        }
        if !batch.items.isEmpty { _ = push() }
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }
}
