import Engine

/// Sizing a store's map before a large write, for commands that write through `WriteCommand` (which opens the
/// store at its default map size): the store is opened once with the map that large and closed again. With
/// `MDB_WRITEMAP` LMDB extends the data file (sparse) to the map's size, and the next opening maps at least
/// the file's size (`EventLog`), so the write does not grow the map, and run again, on the way.
enum StoreSizing {
    static func reserve(_ directory: String, bytes: Int) throws {
        let size = (64 << 20) + bytes
        _ = try Store(directory: directory, create: false, mapSize: size)
    }
}
