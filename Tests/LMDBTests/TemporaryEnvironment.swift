import Foundation
import LMDB

/// Runs `body` with an environment in a fresh temporary directory, removed afterwards.
func withTemporaryEnvironment<R>(
    mapSize: Int = 1 << 20,
    flags: EnvironmentFlags = [],
    growthStep: Int = 64 << 20,
    _ body: (Environment, URL) throws -> R
) throws -> R {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("LMDBTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: directory) }
    let environment = try Environment(path: directory.path, mapSize: mapSize, flags: flags, growthStep: growthStep)
    return try body(environment, directory)
}

extension UnsafeRawBufferPointer {
    /// A copy of the bytes, to compare after the transaction ends.
    var bytes: [UInt8] { Array(self) }
}
