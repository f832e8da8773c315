/// A stored value followed by a 4-byte check of its key and bytes, for the tables whose every byte decodes
/// to something (the search index's sets, `SearchIndex`; the snapshots, `Models.snapshotIfDue`): a flipped
/// bit in a set's bitmap still reads as a set, so only a check can tell `log verify` that it is not the one
/// written (`ModelTable.recordCheck`), and the damage is then mended by `rebuild`, not answered.
///
/// The check is the low 32 bits of the wyhash construction (`EntryHash`) under a fixed seed: it finds damage,
/// not a forger (nothing in the read models is proof; the hash chain of the log is).
enum SealedValue {
    static let checkBytes = 4
    private static let seed: UInt64 = 0x7665_7269_7472_6169

    static func check(key: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: EntryHash.of(body, seed: EntryHash.of(key, seed: seed)))
    }

    /// `body` followed by its check (appended in place: a body given up by its caller, made with room for
    /// it, is not copied). Otherwise the copy is made to the sealed value's size: an append would have made
    /// it twice the body's, and a chunk's sets are held until their group is written.
    static func seal(key: [UInt8], _ body: consuming [UInt8]) -> [UInt8] {
        var sealed = body
        let check = key.withUnsafeBytes { k in sealed.withUnsafeBytes { SealedValue.check(key: k, body: $0) } }
        sealed.reserveCapacity(sealed.count + checkBytes)
        withUnsafeBytes(of: check.littleEndian) { sealed.append(contentsOf: $0) }
        return sealed
    }

    /// The body of a stored value, without its check (an empty buffer when it is too short to have one).
    static func body(_ value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: value[..<max(0, value.count - checkBytes)])
    }

    /// Whether the stored `value` under `key` has its check.
    static func isSound(key: [UInt8], value: UnsafeRawBufferPointer) -> Bool {
        key.withUnsafeBytes { isSound(key: $0, value: value) }
    }

    static func isSound(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> Bool {
        guard value.count >= checkBytes else { return false }
        let stored = UInt32(littleEndian: value.loadUnaligned(fromByteOffset: value.count - checkBytes, as: UInt32.self))
        return stored == check(key: key, body: body(value))
    }
}
