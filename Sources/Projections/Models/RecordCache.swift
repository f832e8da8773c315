/// Records read once from the model tables and written back by `Models.flush` when changed: a million
/// scans update the same few hundred stats and month records, which are decoded once and encoded once.
///
/// The records live in an array, found through a dictionary of positions, so that `read` and `update`
/// reach a record in place: a dictionary's values can only be read by copying them out, and a copy of an
/// account retains every string it holds.
struct RecordCache<Key: Hashable, Record> {
    private var positions: [Key: Int] = [:]
    private var records: [Record] = []
    private var changed: [Bool] = []

    subscript(key: Key) -> Record? { positions[key].map { records[$0] } }

    /// What `body` reads from the kept record, without copying the record; nil when it is not kept.
    func read<R>(_ key: Key, _ body: (borrowing Record) -> R) -> R? {
        guard let i = positions[key] else { return nil }
        return body(records[i])
    }

    var keys: some Collection<Key> { positions.keys }

    /// Keeps a record as read from the tables.
    mutating func loaded(_ key: Key, _ record: Record) { keep(key, record, changed: false) }

    /// Keeps a changed record.
    mutating func put(_ key: Key, _ record: Record) { keep(key, record, changed: true) }

    private mutating func keep(_ key: Key, _ record: Record, changed isChanged: Bool) {
        if let i = positions[key] {
            records[i] = record
            changed[i] = isChanged
        } else {
            positions[key] = records.count
            records.append(record)
            changed.append(isChanged)
        }
    }

    /// Changes a kept record in place (one hash lookup, no copy); false when the key is not kept.
    mutating func update(_ key: Key, _ change: (inout Record) -> Void) -> Bool {
        guard let i = positions[key] else { return false }
        changed[i] = true
        change(&records[i])
        return true
    }

    /// Calls `body` with every changed record, and marks them written.
    mutating func writeChanged(_ body: (Key, Record) throws -> Void) rethrows {
        for (key, i) in positions where changed[i] {
            try body(key, records[i])
            changed[i] = false
        }
    }
}
