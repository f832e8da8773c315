public import Domain
public import LMDB

/// Reads the log inside one transaction (a snapshot, or the write transaction that is appending).
public struct LogReader {
    let log: EventLog
    public let transaction: Transaction

    public init(log: EventLog, transaction: Transaction) {
        self.log = log
        self.transaction = transaction
    }

    /// The last event's seq, hash and at.
    public func head() throws -> LogHead {
        let cursor = try transaction.cursor(log.events)
        guard let last = try cursor.last() else { return .empty }
        guard let seq = UInt64(bigEndianBytes: last.key), let hash = StoredEvent.hash(in: last.value) else {
            throw StoreError("the log's last record is damaged")
        }
        return LogHead(seq: seq, hash: Array(hash), at: StoredEvent.at(in: last.value))
    }

    /// The seq of the event with this id, if the log holds one.
    public func seq(forId id: String) throws -> UInt64? {
        var id = id
        return try id.withUTF8 { try seq(forIdBytes: UnsafeRawBufferPointer($0)) }
    }

    /// The seq the id index gives for an id's UTF-8 bytes, if any.
    public func seq(forIdBytes id: UnsafeRawBufferPointer) throws -> UInt64? {
        guard let value = try transaction.get(log.ids, id) else { return nil }
        return UInt64(bigEndianBytes: value)
    }

    /// How many entries the id index holds (as many as there are events, in a sound log).
    public func idCount() throws -> Int { try transaction.count(log.ids) }

    /// Calls `body` with every entry of the id index, in the order of the ids.
    public func forEachIdEntry(_ body: (UnsafeRawBufferPointer, UInt64?) throws -> Void) throws {
        let cursor = try transaction.cursor(log.ids)
        var entry = try cursor.first()
        while let (id, value) = entry {
            try body(id, UInt64(bigEndianBytes: value))
            entry = try cursor.next()
        }
    }

    /// The event at `seq`, if any.
    public func event(at seq: UInt64) throws -> LoggedEvent? {
        let value = try seq.withBigEndianBytes { key in try transaction.get(log.events, key) }
        guard let value else { return nil }
        return try decode(value, seq: seq)
    }

    /// Decodes the stored record at `seq` (as `forEachRecord` gives it).
    public func decode(_ bytes: UnsafeRawBufferPointer, seq: UInt64) throws -> LoggedEvent {
        try decodingErrors(seq: seq) { () throws(FieldError) in try StoredEvent.decode(bytes, seq: seq) }
    }

    /// Runs `body`, which reads the stored record at `seq`, reporting a failure as a damaged store.
    public func decodingErrors<R>(seq: UInt64, _ body: () throws(FieldError) -> R) throws -> R {
        do {
            return try body()
        } catch {
            throw StoreError("the stored event at seq \(seq) is damaged (\(error))")
        }
    }

    /// The chain hash stored with the event at `seq`, if any.
    public func storedHash(at seq: UInt64) throws -> [UInt8]? {
        let value = try seq.withBigEndianBytes { key in try transaction.get(log.events, key) }
        return value.flatMap { StoredEvent.hash(in: $0) }.map { Array($0) }
    }

    /// The `at` stored with the event at `seq`, if any.
    public func storedAt(at seq: UInt64) throws -> Timestamp? {
        let value = try seq.withBigEndianBytes { key in try transaction.get(log.events, key) }
        return value.flatMap { StoredEvent.at(in: $0) }
    }

    /// Calls `body` with every event from `from` through `to` (inclusive), in seq order; `body` returns
    /// false to stop early.
    public func forEach(from: UInt64 = 1, through to: UInt64 = .max, _ body: (LoggedEvent) throws -> Bool) throws {
        try forEachRecord(from: from, through: to) { seq, bytes in try body(try decode(bytes, seq: seq)) }
    }

    /// Calls `body` with every stored record from `from` through `to` without decoding it.
    public func forEachRecord(from: UInt64 = 1, through to: UInt64 = .max,
                              _ body: (UInt64, UnsafeRawBufferPointer) throws -> Bool) throws {
        guard from <= to else { return }
        let cursor = try transaction.cursor(log.events)
        var entry = try from.withBigEndianBytes { key in try cursor.seek(atLeast: key) }
        var read = 0
        while let (key, value) = entry {
            guard let seq = UInt64(bigEndianBytes: key) else { throw StoreError("the log holds a damaged key") }
            if seq > to { break }
            guard try body(seq, value) else { return }
            read += 1
            if read % PageRelease.logRecords == 0 { transaction.releaseReadPages() }
            entry = try cursor.next()
        }
    }

    /// How many events the log holds.
    public func count() throws -> Int { try transaction.count(log.events) }
}
