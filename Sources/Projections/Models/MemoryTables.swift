/// The model tables in memory, for a replay of a prefix of the log (`--as-of`, a `--now` before the head)
/// and for tests of pure projections.
public final class MemoryTables: ModelTables {
    private var tables = [[ByteKey: [UInt8]]](repeating: [:], count: ModelTable.allCases.count)

    public init() {}

    public func withValue<R>(_ table: ModelTable, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        guard let value = tables[table.rawValue][ByteKey(key)] else { return try body(nil) }
        return try value.withUnsafeBytes { try body($0) }
    }

    public func put(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        tables[table.rawValue][ByteKey(key)] = value
    }

    public func delete(_ table: ModelTable, _ key: [UInt8]) throws {
        tables[table.rawValue][ByteKey(key)] = nil
    }

    public func forEach(_ table: ModelTable, prefix: [UInt8], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        let keys = tables[table.rawValue].keys.filter { $0.bytes.starts(with: prefix) }
            .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        for key in keys {
            let keepGoing = try key.bytes.withUnsafeBytes { keyBytes in
                try tables[table.rawValue][key]!.withUnsafeBytes { try body(keyBytes, $0) }
            }
            if !keepGoing { return }
        }
    }
}

/// The tables of a replay of a prefix of the log: the scan list and its indexes are read from the store's
/// tables (see `Models.replaying(over:log:)`), everything else lives in memory.
final class ReplayTables: ModelTables {
    private let stored: any ModelTables
    private let memory: MemoryTables

    /// The tables over `stored`, those in memory starting as `memory` (empty, or a snapshot).
    init(stored: any ModelTables, memory: MemoryTables = MemoryTables()) {
        self.stored = stored
        self.memory = memory
    }

    private func source(_ table: ModelTable) -> any ModelTables {
        switch table {
        case .scans, .scanIds, .scansByActor, .search, .snapshots: stored
        default: memory
        }
    }

    func withValue<R>(_ table: ModelTable, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        try source(table).withValue(table, key, body)
    }

    /// The in-memory tables, for a write: a replay never writes the borrowed scan list.
    private func writable(_ table: ModelTable) -> MemoryTables {
        precondition(source(table) === memory, "a replay never writes the borrowed scan list")
        return memory
    }

    func put(_ table: ModelTable, _ key: [UInt8], _ value: [UInt8]) throws {
        try writable(table).put(table, key, value)
    }

    func delete(_ table: ModelTable, _ key: [UInt8]) throws {
        try writable(table).delete(table, key)
    }

    func forEach(_ table: ModelTable, prefix: [UInt8], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        try source(table).forEach(table, prefix: prefix, body)
    }
}
