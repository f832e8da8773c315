/// A byte-string key for dictionaries: hashed in one call over its bytes, where `[UInt8]`'s own `Hashable`
/// feeds the hasher one element at a time (a hot spot when every scan touches several keyed records).
struct ByteKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: ByteKey, b: ByteKey) -> Bool { a.bytes == b.bytes }
}
