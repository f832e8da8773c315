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

/// A text key for dictionaries, equal to another only when their Unicode scalars are (events.md: text is compared
/// without normalisation). `String`'s own `Hashable` is canonical equivalence: `é` and `e` + U+0301 are one key
/// there, which gave two categories one search set (a `--category` that listed the other's scans).
struct TextKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (a: TextKey, b: TextKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
}
