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

    public func forEach(_ table: ModelTable, prefix: [UInt8], _ body: ([UInt8], UnsafeRawBufferPointer) throws -> Bool) throws {
        let keys = tables[table.rawValue].keys.filter { $0.bytes.starts(with: prefix) }
            .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        for key in keys {
            let keepGoing = try tables[table.rawValue][key]!.withUnsafeBytes { try body(key.bytes, $0) }
            if !keepGoing { return }
        }
    }
}
