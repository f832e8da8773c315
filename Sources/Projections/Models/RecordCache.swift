/// Records read once from the model tables and written back by `Models.flush` when changed: a million
/// scans update the same few hundred stats and month records, which are decoded once and encoded once.
struct RecordCache<Key: Hashable, Record> {
    private struct Entry {
        var record: Record
        var changed: Bool
    }

    private var entries: [Key: Entry] = [:]

    subscript(key: Key) -> Record? { entries[key]?.record }

    var keys: some Collection<Key> { entries.keys }

    /// Keeps a record as read from the tables.
    mutating func loaded(_ key: Key, _ record: Record) { entries[key] = Entry(record: record, changed: false) }

    /// Keeps a changed record.
    mutating func put(_ key: Key, _ record: Record) { entries[key] = Entry(record: record, changed: true) }

    /// Changes a kept record in place (one hash lookup, no copy); false when the key is not kept.
    mutating func update(_ key: Key, _ change: (inout Record) -> Void) -> Bool {
        guard let i = entries.index(forKey: key) else { return false }
        entries.values[i].changed = true
        change(&entries.values[i].record)
        return true
    }

    /// Calls `body` with every changed record, and marks them written.
    mutating func writeChanged(_ body: (Key, Record) throws -> Void) rethrows {
        var i = entries.values.startIndex
        while i != entries.values.endIndex {
            if entries.values[i].changed {
                try body(entries.keys[i], entries.values[i].record)
                entries.values[i].changed = false
            }
            i = entries.values.index(after: i)
        }
    }
}
